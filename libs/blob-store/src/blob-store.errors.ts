export class BlobNotFoundError extends Error {
  readonly code = 'BLOB_NOT_FOUND';

  constructor(
    readonly blobName: string,
    options?: { cause?: unknown },
  ) {
    super(`blob not found: ${blobName}`, options);
    this.name = 'BlobNotFoundError';
  }
}

export class InvalidBlobNameError extends Error {
  readonly code = 'INVALID_BLOB_NAME';

  constructor(
    readonly blobName: string,
    reason: string,
  ) {
    // Names are opaque keys, never text: safe to show, but cut so a wrong argument cannot flood a log.
    super(`invalid blob name ${JSON.stringify(blobName.slice(0, 80))}: ${reason}`);
    this.name = 'InvalidBlobNameError';
  }
}

/** Works across two copies of this module too (compiled and source), where `instanceof` would not. */
export function isBlobNotFoundError(err: unknown): err is BlobNotFoundError {
  return (
    err instanceof BlobNotFoundError ||
    (typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'BLOB_NOT_FOUND')
  );
}
