import type { BlobStore } from './blob-store.interface';
import { FsBlobStore, type FsBlobStoreOptions } from './fs-blob-store';
import { S3BlobStore, type S3BlobStoreOptions } from './s3-blob-store';

export type BlobStoreOptions = ({ kind: 's3' } & S3BlobStoreOptions) | ({ kind: 'fs' } & FsBlobStoreOptions);

/** Builds the store; call `ready()` before use (the Nest module does it at start-up). */
export function createBlobStore(options: BlobStoreOptions): BlobStore {
  switch (options.kind) {
    case 's3':
      return new S3BlobStore(options);
    case 'fs':
      return new FsBlobStore(options);
    default: {
      const unknownKind: never = options;
      throw new Error(`unknown blob store kind: ${String((unknownKind as { kind?: unknown }).kind)}`);
    }
  }
}
