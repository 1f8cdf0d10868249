import { cacheObjectNames, newTakeId } from '@router/contracts';
import { findStoredTake, storedTakeMeta } from './blob-takes';
import { CacheUnreadableError, readStoredTake, storedTimingsBlob } from './stored-take';
import { memoryBlobs } from './test/memory-blobs';

const ORG = '0b6c3a52-7f4e-4a8e-9a51-2d6f0e8b9c11';
const KEY = 'a'.repeat(64);
const OPTIONS = { timeoutMs: 1000, head: false };

describe('a take found in the blob store alone (the index out of reach)', () => {
  it('finds a take by its org and key, with its content type and timings, and reads it back', async () => {
    const blobs = memoryBlobs();
    const names = cacheObjectNames(ORG, KEY, newTakeId(1_700_000_000_000));
    const words = [{ start: 0, end: 5, startMs: 0, endMs: 300 }];
    await blobs.put(names.words, storedTimingsBlob({ words }), { contentType: 'application/json' });
    await blobs.put(names.audio, Buffer.from('audio'), storedTakeMeta({ contentType: 'audio/mpeg' }));

    const found = await findStoredTake(blobs, ORG, KEY, OPTIONS);
    expect(found).toEqual({
      objectName: names.audio,
      contentType: 'audio/mpeg',
      byteSize: 5,
      hasTimings: true,
    });
    const entry = found && (await readStoredTake(blobs, found, 1000));
    expect(entry).toMatchObject({ audio: Buffer.from('audio'), contentType: 'audio/mpeg', words });
  });

  it('takes the first take written when a key has more than one', async () => {
    const blobs = memoryBlobs();
    const first = cacheObjectNames(ORG, KEY, newTakeId(1_700_000_000_000));
    const later = cacheObjectNames(ORG, KEY, newTakeId(1_700_000_000_500));
    await blobs.put(first.audio, Buffer.from('first'), storedTakeMeta({ contentType: 'audio/pcm' }));
    await blobs.put(later.audio, Buffer.from('later'), storedTakeMeta({ contentType: 'audio/pcm' }));
    expect((await findStoredTake(blobs, ORG, KEY, OPTIONS))?.objectName).toBe(first.audio);
  });

  it("finds nothing for another org's or another key's blobs, a timings blob alone, or an unnamed content type", async () => {
    const blobs = memoryBlobs();
    const other = cacheObjectNames(ORG, 'b'.repeat(64), newTakeId(1_700_000_000_000));
    await blobs.put(other.audio, Buffer.from('x'), storedTakeMeta({ contentType: 'audio/pcm' }));
    const lone = cacheObjectNames(ORG, KEY, newTakeId(1_700_000_000_000));
    await blobs.put(lone.words, Buffer.from('[]'));
    expect(await findStoredTake(blobs, ORG, KEY, OPTIONS)).toBeUndefined();
    expect(
      await findStoredTake(blobs, '00000000-0000-4000-8000-000000000002', 'b'.repeat(64), OPTIONS),
    ).toBeUndefined();
    // A store that keeps no content type (the filesystem's): the take cannot be replayed as it was.
    await blobs.put(lone.audio, Buffer.from('x'));
    expect(await findStoredTake(blobs, ORG, KEY, OPTIONS)).toBeUndefined();
    // Ids not in their canonical form name nothing the cache wrote.
    expect(await findStoredTake(blobs, ORG.toUpperCase(), 'b'.repeat(64), OPTIONS)).toBeUndefined();
  });

  it("keeps a whole request's response head with its audio, and wants it when asked for one", async () => {
    const blobs = memoryBlobs();
    const names = cacheObjectNames(ORG, KEY, newTakeId(1_700_000_000_000));
    const head = { status: 200, headers: { 'content-type': 'audio/mpeg', 'x-vendor-thing': 'kept' } };
    await blobs.put(names.audio, Buffer.from('sealed'), storedTakeMeta({ contentType: 'audio/mpeg', head }));
    expect(await findStoredTake(blobs, ORG, KEY, { timeoutMs: 1000, head: true })).toMatchObject({ head });

    const bare = cacheObjectNames(ORG, 'b'.repeat(64), newTakeId(1_700_000_000_000));
    await blobs.put(bare.audio, Buffer.from('sealed'), storedTakeMeta({ contentType: 'audio/mpeg' }));
    expect(await findStoredTake(blobs, ORG, 'b'.repeat(64), { timeoutMs: 1000, head: true })).toBeUndefined();
  });

  it("does not keep a head too large for the store's metadata", () => {
    const head = { status: 200, headers: { 'x-long': 'x'.repeat(4000) } };
    expect(storedTakeMeta({ contentType: 'audio/mpeg', head })).toEqual({ contentType: 'audio/mpeg' });
  });

  it('rejects as an unreadable blob store when listing fails or hangs', async () => {
    const refusing = {
      ...memoryBlobs(),
      list: () => ({
        [Symbol.asyncIterator]: () => ({
          next: () => Promise.reject(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })),
        }),
      }),
    };
    await expect(findStoredTake(refusing, ORG, KEY, OPTIONS)).rejects.toBeInstanceOf(CacheUnreadableError);
    const hanging = {
      ...memoryBlobs(),
      list: () => ({ [Symbol.asyncIterator]: () => ({ next: () => new Promise<never>(() => undefined) }) }),
    };
    await expect(findStoredTake(hanging, ORG, KEY, { timeoutMs: 20, head: false })).rejects.toMatchObject({
      store: 'blob',
    });
  });
});
