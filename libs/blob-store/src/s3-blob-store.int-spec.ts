import { Client } from 'minio';
import { randomUUID } from 'node:crypto';
import { Agent } from 'node:http';
import { S3BlobStore, parseS3Endpoint, type S3BlobStoreOptions } from './s3-blob-store';
import { describeBlobStoreContract } from './test/blob-store-contract';
import { s3TestTarget, type S3TestTarget } from './test/s3-test-target';

function bucketName(): string {
  return `blob-test-${randomUUID().slice(0, 12)}`;
}

function rawClient(target: S3TestTarget): Client {
  return new Client({
    ...parseS3Endpoint(target.endpoint),
    accessKey: target.accessKey,
    secretKey: target.secretKey,
    region: target.region,
    pathStyle: true,
    // No pooled sockets left behind to keep Jest from exiting.
    transportAgent: new Agent({ keepAlive: false }),
  });
}

async function removeBucket(target: S3TestTarget, bucket: string): Promise<void> {
  const client = rawClient(target);
  if (!(await client.bucketExists(bucket))) return;
  const store = new S3BlobStore({ ...storeOptions(target, bucket) });
  const names: string[] = [];
  for await (const entry of store.list('')) names.push(entry.name);
  // One at a time: s3rver answers concurrent deletes of sibling keys (and multi-object delete) with a 500
  // now and then, as each delete prunes the directory the others are reading.
  for (const name of names) await store.delete(name);
  await store.close();
  await client.removeBucket(bucket);
}

function storeOptions(target: S3TestTarget, bucket: string): S3BlobStoreOptions {
  return {
    endpoint: target.endpoint,
    accessKey: target.accessKey,
    secretKey: target.secretKey,
    region: target.region,
    bucket,
  };
}

describeBlobStoreContract('S3BlobStore', async () => {
  const target = await s3TestTarget();
  const bucket = bucketName();
  return {
    // A small page so that a few dozen keys already take several listing requests.
    store: new S3BlobStore({ ...storeOptions(target, bucket), listPageSize: 7 }),
    manyKeys: 40,
    cleanup: async () => {
      try {
        // An emulator started here goes with its temp directory; an external store is cleaned.
        if (!target.emulated) await removeBucket(target, bucket);
      } finally {
        await target.close();
      }
    },
  };
});

describe('S3BlobStore against an S3 endpoint', () => {
  let target: S3TestTarget;
  const buckets: string[] = [];
  const stores: S3BlobStore[] = [];

  function track(store: S3BlobStore): S3BlobStore {
    stores.push(store);
    return store;
  }

  function freshStore(extra: Partial<S3BlobStoreOptions> = {}): S3BlobStore {
    const bucket = bucketName();
    buckets.push(bucket);
    return track(new S3BlobStore({ ...storeOptions(target, bucket), ...extra }));
  }

  beforeAll(async () => {
    target = await s3TestTarget();
  });

  // Generous only for an external endpoint, where a thousand objects are deleted one by one.
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    try {
      if (!target.emulated) for (const bucket of buckets) await removeBucket(target, bucket);
    } finally {
      await target.close();
    }
  }, 30_000);

  it('creates its bucket in ready(), once', async () => {
    const store = freshStore();
    const bucket = buckets.at(-1)!;
    const client = rawClient(target);
    await expect(client.bucketExists(bucket)).resolves.toBe(false);
    await expect(store.ping()).resolves.toBe(false);
    await store.ready();
    await expect(client.bucketExists(bucket)).resolves.toBe(true);
    await store.ready();
    await expect(store.ping()).resolves.toBe(true);
  });

  it('lets two replicas race to create the same bucket', async () => {
    const first = freshStore();
    const second = track(new S3BlobStore({ ...storeOptions(target, buckets.at(-1)!) }));
    await Promise.all([first.ready(), second.ready()]);
    await expect(second.ping()).resolves.toBe(true);
  });

  it('keeps the content type given on put', async () => {
    const store = freshStore();
    await store.ready();
    await store.put('org/x.mp3', Buffer.from('id3'), { contentType: 'audio/mpeg' });
    const stat = await rawClient(target).statObject(buckets.at(-1)!, 'org/x.mp3');
    expect(stat.metaData['content-type']).toBe('audio/mpeg');
  });

  it('pages past the 1000-key cap of one listing with the default page size', async () => {
    const store = freshStore();
    await store.ready();
    const names = Array.from({ length: 1003 }, (_, i) => `k/${String(i).padStart(4, '0')}`);
    for (let i = 0; i < names.length; i += 50) {
      await Promise.all(names.slice(i, i + 50).map((name) => store.put(name, Buffer.from('x'))));
    }
    const listed: string[] = [];
    for await (const entry of store.list('k/')) listed.push(entry.name);
    expect(listed.length).toBe(1003);
    expect([...listed].sort()).toEqual(names);
    // A thousand real PUTs: a few seconds, more on a loaded machine.
  }, 30_000);

  it('pings false, without throwing, when the endpoint does not answer', async () => {
    const store = track(
      new S3BlobStore({
        endpoint: 'http://127.0.0.1:9',
        accessKey: 'k',
        secretKey: 's',
        bucket: 'any-bucket',
        pingTimeoutMs: 500,
      }),
    );
    await expect(store.ping()).resolves.toBe(false);
  });

  it('surfaces a missing bucket as an error, not as a missing blob', async () => {
    const store = freshStore();
    await expect(store.get('x')).rejects.toMatchObject({ code: 'NoSuchBucket' });
  });
});
