import type { BlobStore } from '@router/blob-store';
import type { CachedTake, WordTiming } from '@router/contracts';
import { readStoredTake, storedTimingsBlob } from './stored-take';

const WORDS: WordTiming[] = [{ start: 0, end: 5, startMs: 0, endMs: 300 }];
const CHARS: WordTiming[] = [
  { start: 0, end: 1, startMs: 0, endMs: 60 },
  { start: 1, end: 2, startMs: 60, endMs: 120 },
];

function storeWith(timings: Buffer): BlobStore {
  return {
    get: (name: string) => Promise.resolve(name.endsWith('.words.json') ? timings : Buffer.from('audio')),
  } as unknown as BlobStore;
}

const hit = { objectName: 'org/key/1.audio', contentType: 'audio/pcm', hasTimings: true } as CachedTake;

describe('stored timings', () => {
  it('reads back word and character timings as the worker stores them', async () => {
    const entry = await readStoredTake(
      storeWith(storedTimingsBlob({ words: WORDS, chars: CHARS })),
      hit,
      1000,
    );
    expect(entry).toMatchObject({ words: WORDS, chars: CHARS });
  });

  it('reads a take stored before character timings (its word timings alone)', async () => {
    const entry = await readStoredTake(storeWith(Buffer.from(JSON.stringify(WORDS))), hit, 1000);
    expect(entry?.words).toEqual(WORDS);
    expect(entry?.chars).toBeUndefined();
  });

  it('stores word timings alone in the older shape when there are no character timings', () => {
    expect(JSON.parse(storedTimingsBlob({ words: WORDS, chars: null }).toString())).toEqual(WORDS);
  });
});
