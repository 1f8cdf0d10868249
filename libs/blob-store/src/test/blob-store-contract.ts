import { randomBytes, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { BlobNotFoundError, InvalidBlobNameError } from '../blob-store.errors';
import type { BlobListEntry, BlobStore } from '../blob-store.interface';

export interface BlobStoreFixture {
  store: BlobStore;
  /** How many blobs the paging test writes: more than the store's list page holds. */
  manyKeys: number;
  cleanup?: () => Promise<void>;
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

async function drain(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

function byName(a: BlobListEntry, b: BlobListEntry): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Every `BlobStore` implementation passes this same suite; each test works under its own fresh prefix. */
export function describeBlobStoreContract(name: string, make: () => Promise<BlobStoreFixture>): void {
  describe(`${name} (BlobStore contract)`, () => {
    let fixture: BlobStoreFixture;
    let store: BlobStore;
    let p: string;

    beforeAll(async () => {
      fixture = await make();
      store = fixture.store;
      await store.ready();
    });

    afterAll(async () => {
      await store?.close();
      await fixture?.cleanup?.();
    });

    beforeEach(() => {
      p = `t${randomUUID().slice(0, 8)}`;
    });

    it('is ready (twice) and answers ping', async () => {
      await store.ready();
      await expect(store.ping()).resolves.toBe(true);
    });

    it('returns exactly the bytes put, every byte value included', async () => {
      const data = Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 131) % 256));
      await store.put(`${p}/all-bytes.bin`, data, { contentType: 'application/octet-stream' });
      const back = await store.get(`${p}/all-bytes.bin`);
      expect(back.equals(data)).toBe(true);
    });

    it('round-trips a 2 MB blob byte for byte, through get and getStream', async () => {
      const data = randomBytes(2 * 1024 * 1024);
      await store.put(`${p}/big.mp3`, data, { contentType: 'audio/mpeg' });
      expect((await store.get(`${p}/big.mp3`)).equals(data)).toBe(true);
      expect((await drain(await store.getStream(`${p}/big.mp3`))).equals(data)).toBe(true);
    });

    it('stores an empty blob', async () => {
      await store.put(`${p}/empty`, Buffer.alloc(0));
      expect((await store.get(`${p}/empty`)).length).toBe(0);
      expect((await store.stat(`${p}/empty`))?.size).toBe(0);
    });

    it('stats size and a plausible last-modified time', async () => {
      const before = Date.now();
      await store.put(`${p}/a/b/c.wav`, Buffer.alloc(1234, 7));
      const after = Date.now();
      const stat = await store.stat(`${p}/a/b/c.wav`);
      expect(stat?.size).toBe(1234);
      expect(stat?.lastModified).toBeInstanceOf(Date);
      // Some stores keep whole seconds only; a minute allows for a remote store's clock.
      const modified = stat?.lastModified.getTime() ?? NaN;
      expect(modified).toBeGreaterThanOrEqual(before - 60_000);
      expect(modified).toBeLessThanOrEqual(after + 60_000);
    });

    it('answers a missing blob with null from stat and BlobNotFoundError from get and getStream', async () => {
      await expect(store.stat(`${p}/missing`)).resolves.toBeNull();
      await expect(store.get(`${p}/missing`)).rejects.toBeInstanceOf(BlobNotFoundError);
      await expect(store.get(`${p}/missing`)).rejects.toMatchObject({ blobName: `${p}/missing` });
      await expect(store.getStream(`${p}/missing`)).rejects.toBeInstanceOf(BlobNotFoundError);
    });

    it('treats a name that is only a prefix of other blobs as missing', async () => {
      await store.put(`${p}/dir/child`, Buffer.from('x'));
      await expect(store.stat(`${p}/dir`)).resolves.toBeNull();
      await expect(store.get(`${p}/dir`)).rejects.toBeInstanceOf(BlobNotFoundError);
    });

    it('overwrites in place', async () => {
      await store.put(`${p}/same`, Buffer.from('first version, longer'));
      await store.put(`${p}/same`, Buffer.from('second'));
      expect((await store.get(`${p}/same`)).toString()).toBe('second');
      expect((await store.stat(`${p}/same`))?.size).toBe(6);
      expect((await collect(store.list(`${p}/`))).map((e) => e.name)).toEqual([`${p}/same`]);
    });

    it('deletes, and deleting an absent blob is fine', async () => {
      await store.put(`${p}/gone`, Buffer.from('bye'));
      await store.put(`${p}/kept`, Buffer.from('stay'));
      await store.delete(`${p}/gone`);
      await expect(store.stat(`${p}/gone`)).resolves.toBeNull();
      await expect(store.get(`${p}/gone`)).rejects.toBeInstanceOf(BlobNotFoundError);
      await store.delete(`${p}/gone`);
      await store.delete(`${p}/never/was`);
      expect((await store.get(`${p}/kept`)).toString()).toBe('stay');
    });

    it('lists by string prefix with names, sizes and times', async () => {
      const blobs: Record<string, number> = {
        [`${p}/a/1`]: 1,
        [`${p}/a/2`]: 2,
        [`${p}/ab/3`]: 3,
        [`${p}/b/1`]: 4,
      };
      for (const [key, size] of Object.entries(blobs)) await store.put(key, Buffer.alloc(size, 1));

      const underA = (await collect(store.list(`${p}/a/`))).sort(byName);
      expect(underA.map((e) => [e.name, e.size])).toEqual([
        [`${p}/a/1`, 1],
        [`${p}/a/2`, 2],
      ]);
      expect(underA.every((e) => e.lastModified instanceof Date && !isNaN(e.lastModified.getTime()))).toBe(
        true,
      );

      const startingWithA = (await collect(store.list(`${p}/a`))).map((e) => e.name).sort();
      expect(startingWithA).toEqual([`${p}/a/1`, `${p}/a/2`, `${p}/ab/3`]);

      const all = (await collect(store.list(p))).map((e) => e.name).sort();
      expect(all).toEqual(Object.keys(blobs).sort());

      await expect(collect(store.list(`${p}/nothing-here/`))).resolves.toEqual([]);
    });

    it('lists every blob across several pages, each once', async () => {
      const names = Array.from(
        { length: fixture.manyKeys },
        (_, i) => `${p}/many/${String(i).padStart(5, '0')}`,
      );
      for (let i = 0; i < names.length; i += 32) {
        await Promise.all(names.slice(i, i + 32).map((key, j) => store.put(key, Buffer.alloc((i + j) % 7))));
      }
      const listed = await collect(store.list(`${p}/many/`));
      expect(listed.map((e) => e.name).sort()).toEqual(names);
      expect(listed.every((e) => e.size === Number(e.name.slice(-5)) % 7)).toBe(true);
    });

    it('takes concurrent puts of different blobs', async () => {
      const keys = Array.from({ length: 20 }, (_, i) => `${p}/c/${i}`);
      await Promise.all(keys.map((key, i) => store.put(key, Buffer.from(`blob ${i}`))));
      const back = await Promise.all(keys.map((key) => store.get(key)));
      expect(back.map((b) => b.toString())).toEqual(keys.map((_, i) => `blob ${i}`));
    });

    it('refuses names outside the portable character set before any I/O', async () => {
      for (const bad of [
        '',
        '/lead',
        'trail/',
        'a//b',
        'a/../b',
        '.hidden',
        'a/.tmp/x',
        'sp ace',
        'a+b',
        'pct%41',
      ]) {
        await expect(store.put(bad, Buffer.from('x'))).rejects.toBeInstanceOf(InvalidBlobNameError);
        await expect(store.get(bad)).rejects.toBeInstanceOf(InvalidBlobNameError);
      }
      await expect(collect(store.list('a b'))).rejects.toBeInstanceOf(InvalidBlobNameError);
    });
  });
}
