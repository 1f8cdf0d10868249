import type { Readable } from 'node:stream';

export interface BlobStat {
  size: number;
  lastModified: Date;
  /** As written (`BlobPutMeta.contentType`); absent where the store keeps none (the filesystem store). */
  contentType?: string;
  /** As written (`BlobPutMeta.metadata`), names in lower case; absent where the store keeps none. */
  metadata?: Readonly<Record<string, string>>;
}

export interface BlobListEntry extends BlobStat {
  name: string;
}

export interface BlobPutMeta {
  /** Kept by S3 (served back as Content-Type); the filesystem store has nowhere to keep it and ignores it. */
  contentType?: string;
  /**
   * Small named values kept with the blob (S3 user metadata, `x-amz-meta-<name>`; 2 KB in all): lower-case
   * names, printable ASCII values. The filesystem store ignores them too.
   */
  metadata?: Readonly<Record<string, string>>;
}

/**
 * Where the audio cache keeps its blobs. Object names are `/`-separated segments of `[A-Za-z0-9._-]`
 * (no segment starting with `.`): see `assertValidBlobName`.
 */
export interface BlobStore {
  /** Makes the store usable: creates the bucket (S3) or the root directory (fs) when absent. Idempotent. */
  ready(): Promise<void>;
  /** Readiness probe: true when the store answers and its bucket/root exists. Never throws. */
  ping(): Promise<boolean>;
  /** Writes the whole blob in one request of known size; readers see the old blob or the new one, never a part. */
  put(name: string, data: Buffer, meta?: BlobPutMeta): Promise<void>;
  /** @throws BlobNotFoundError when there is no such blob. */
  get(name: string): Promise<Buffer>;
  /** @throws BlobNotFoundError (before any byte is streamed) when there is no such blob. */
  getStream(name: string): Promise<Readable>;
  /** null when there is no such blob; `contentType` and `metadata` where the store keeps them. */
  stat(name: string): Promise<BlobStat | null>;
  /** Removing an absent blob is not an error. */
  delete(name: string): Promise<void>;
  /**
   * Every blob whose name starts with `prefix` (a plain string prefix, not only a directory), all pages.
   * The order is not part of the contract (the S3 emulator used in tests does not keep key order).
   */
  list(prefix: string): AsyncIterable<BlobListEntry>;
  /** Lets go of pooled connections (S3) so the process can exit; the module calls it on shutdown. */
  close(): Promise<void>;
}
