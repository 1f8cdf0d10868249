import { createBlobStore, type BlobStoreOptions } from './blob-store.factory';
import { BlobNotFoundError, isBlobNotFoundError } from './blob-store.errors';
import { FsBlobStore } from './fs-blob-store';
import { S3BlobStore } from './s3-blob-store';

describe('createBlobStore', () => {
  it('builds the S3 store', () => {
    const store = createBlobStore({
      kind: 's3',
      endpoint: 'http://127.0.0.1:4569',
      accessKey: 'k',
      secretKey: 's',
      bucket: 'audio-cache',
    });
    expect(store).toBeInstanceOf(S3BlobStore);
  });

  it('builds the filesystem store without touching the disk', () => {
    expect(createBlobStore({ kind: 'fs', root: '/nonexistent/blobs' })).toBeInstanceOf(FsBlobStore);
  });

  it('refuses an unknown kind', () => {
    expect(() => createBlobStore({ kind: 'tape' } as unknown as BlobStoreOptions)).toThrow(/tape/);
  });
});

describe('isBlobNotFoundError', () => {
  it('recognises the error, also by its code alone', () => {
    expect(isBlobNotFoundError(new BlobNotFoundError('a/b'))).toBe(true);
    expect(isBlobNotFoundError({ code: 'BLOB_NOT_FOUND' })).toBe(true);
    expect(isBlobNotFoundError(new Error('nope'))).toBe(false);
    expect(isBlobNotFoundError(null)).toBe(false);
  });
});
