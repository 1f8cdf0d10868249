import type { Readable } from 'node:stream';

export interface BlobStat {
  size: number;
  lastModified: Date;
}

export interface BlobListEntry extends BlobStat {
  name: string;
}

export interface BlobPutMeta {
  /** Kept by S3 (served back as Content-Type); the filesystem store has nowhere to keep it and ignores it. */
  contentType?: string;
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
  /** null when there is no such blob. */
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
