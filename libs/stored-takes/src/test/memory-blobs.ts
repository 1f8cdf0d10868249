import type { BlobListEntry, BlobPutMeta, BlobStat, BlobStore } from '@router/blob-store';
import { BlobNotFoundError } from '@router/blob-store';

/** A blob store in memory that keeps what S3 keeps (content type, user metadata), for unit specs. */
export function memoryBlobs(): BlobStore & { readonly names: string[] } {
  const blobs = new Map<string, { data: Buffer; meta: BlobPutMeta }>();
  const stat = (name: string): BlobStat | null => {
    const blob = blobs.get(name);
    if (!blob) return null;
    return {
      size: blob.data.length,
      lastModified: new Date(0),
      ...(blob.meta.contentType ? { contentType: blob.meta.contentType } : {}),
      metadata: { ...blob.meta.metadata },
    };
  };
  return {
    get names() {
      return [...blobs.keys()];
    },
    ready: () => Promise.resolve(),
    ping: () => Promise.resolve(true),
    put: (name, data, meta = {}) => {
      blobs.set(name, { data, meta });
      return Promise.resolve();
    },
    get: (name) => {
      const blob = blobs.get(name);
      return blob ? Promise.resolve(blob.data) : Promise.reject(new BlobNotFoundError(name));
    },
    getStream: () => Promise.reject(new Error('not used')),
    stat: (name) => Promise.resolve(stat(name)),
    delete: (name) => {
      blobs.delete(name);
      return Promise.resolve();
    },
    async *list(prefix): AsyncIterable<BlobListEntry> {
      // Newest first: the order is not part of the contract, and the reader must not rely on it.
      for (const name of [...blobs.keys()].reverse()) {
        const found = stat(name);
        if (name.startsWith(prefix) && found) yield { name, ...found };
      }
    },
    close: () => Promise.resolve(),
  };
}
