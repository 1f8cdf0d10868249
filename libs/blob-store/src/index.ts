export type { BlobListEntry, BlobPutMeta, BlobStat, BlobStore } from './blob-store.interface';
export { BlobNotFoundError, InvalidBlobNameError, isBlobNotFoundError } from './blob-store.errors';
export { assertValidBlobName, assertValidBlobPrefix } from './blob-name';
export { S3BlobStore, type S3BlobStoreOptions } from './s3-blob-store';
export { FsBlobStore, type FsBlobStoreOptions } from './fs-blob-store';
export { createBlobStore, type BlobStoreOptions } from './blob-store.factory';
export { BLOB_STORE, BlobStoreModule, type BlobStoreModuleAsyncOptions } from './blob-store.module';
export { startS3Emulator, type S3Emulator, type S3EmulatorOptions } from './s3-emulator';
