import type { BlobStore } from '@router/blob-store';
import { InProcessBus } from '@router/bus';
import { addressedTo, type CachedTake, synthTakeV1, synthWorkerHeartbeatV1 } from '@router/contracts';
import type { CacheIndex } from './cache-index';
import { HotTier } from './hot-tier';
import { type PieceRequest, PieceResolver } from './piece-resolver';
import { pieceOf } from './test/pieces.fixture';
import { UsageReporter } from './usage-reporter';
import { WorkerDirectory } from './worker-directory';

const cacheKey = 'c'.repeat(64);
const LIVE = 'live0000';
const SILENT = 'silent00';
const GONE = 'gone0000';
const piece: PieceRequest = pieceOf('Hello there.', { cacheKey });

async function drain(chunks: AsyncIterable<Buffer>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts).toString();
}

/**
 * A resolver over an in-process bus with a live worker and, where asked, a silent one (it takes the request
 * and never answers, as a worker killed after accepting it would). Only the silent one is announced at first
 * (so the key goes to it); the live one announces itself when the silent one has the request.
 */
async function setUp(options: { index?: Partial<CacheIndex>; blobs?: Partial<BlobStore>; silent?: boolean }) {
  const bus = new InProcessBus({ streamTimeoutMs: 150 });
  const calls: string[] = [];
  await bus
    .serveStream(addressedTo(synthTakeV1, LIVE), async (req, sink) => {
      calls.push(LIVE);
      sink.header({ contentType: 'audio/pcm' });
      await sink.write(Buffer.from(`fresh take of ${req.cacheKey.slice(0, 4)}`));
      // A key of `e`s: a take the vendor spoke while reporting an error about it, never cached.
      await sink.end(
        req.cacheKey.startsWith('e')
          ? { words: null, cached: false, warning: { code: 'not_found_error', message: 'careful' } }
          : { words: null, cached: true },
      );
    })
    .ready();
  await bus
    .serveStream(addressedTo(synthTakeV1, SILENT), async (_req, sink) => {
      calls.push(SILENT);
      await bus.publish(synthWorkerHeartbeatV1, { workerId: LIVE });
      await new Promise((resolve) => sink.aborted.addEventListener('abort', resolve));
    })
    .ready();
  const workers = new WorkerDirectory(bus, { expiryMs: 10_000, waitMs: 100, now: Date.now });
  await workers.ready();
  await bus.publish(synthWorkerHeartbeatV1, { workerId: options.silent ? SILENT : LIVE });
  const unreadable: string[] = [];
  const firstAudio: { source: string; seconds: number }[] = [];
  const resolver = new PieceResolver({
    bus,
    blobs: (options.blobs ?? {}) as BlobStore,
    index: { lookup: () => Promise.resolve(null), ...options.index } as CacheIndex,
    hot: new HotTier({ maxBytes: 1 << 20, ttlMs: 60_000, now: Date.now }),
    workers,
    usage: new UsageReporter(bus),
    window: 4,
    cacheReadTimeoutMs: 100,
    onCacheUnreadable: (store) => unreadable.push(store),
    onFirstAudio: (source, seconds) => firstAudio.push({ source, seconds }),
  });
  return { bus, workers, resolver, calls, unreadable, firstAudio };
}

describe("PieceResolver and a take's warning", () => {
  it("gives the warning of the worker's trailer once the audio has ended, and none where it had none", async () => {
    const { bus, resolver } = await setUp({});
    try {
      const warned = await resolver.resolve(pieceOf('Hello there.', { cacheKey: 'e'.repeat(64) }));
      expect(await drain(warned.chunks)).toBe('fresh take of eeee');
      expect(await warned.warning?.()).toEqual({ code: 'not_found_error', message: 'careful' });
      const plain = await resolver.resolve(piece);
      await drain(plain.chunks);
      expect(await plain.warning?.()).toBeNull();
    } finally {
      await bus.close();
    }
  });
});

describe('PieceResolver when a worker is gone', () => {
  it('tries a piece with no audio yet from a silent worker once more on another live worker', async () => {
    const { bus, resolver, calls } = await setUp({ silent: true });
    try {
      const audio = await resolver.resolve(piece);
      expect(await drain(audio.chunks)).toBe('fresh take of cccc');
      expect(calls).toEqual([SILENT, LIVE]);
    } finally {
      await bus.close();
    }
  });

  it('sends nothing more to a worker nobody answers for, even when a late heartbeat of it arrives', async () => {
    const { bus, workers, resolver, calls } = await setUp({});
    try {
      // Announced but not serving its subject, as a worker killed after its last heartbeat.
      await bus.publish(synthWorkerHeartbeatV1, { workerId: GONE });
      const keys = [...'0123456789abcdef'].map((c) => c.repeat(64));
      const picks = await Promise.all(keys.map((key) => workers.pick(key)));
      const gonesKey = keys[picks.indexOf(GONE)];
      expect(gonesKey).toBeDefined();
      const audio = await resolver.resolve({ ...piece, cacheKey: gonesKey });
      expect(await drain(audio.chunks)).toMatch(/^fresh take of /);
      expect(calls).toEqual([LIVE]);
      await bus.publish(synthWorkerHeartbeatV1, { workerId: GONE });
      expect(await Promise.all(keys.map((key) => workers.pick(key)))).toEqual(keys.map(() => LIVE));
    } finally {
      await bus.close();
    }
  });
});

describe('PieceResolver when the cache cannot be read', () => {
  const hit: CachedTake = {
    objectName: `x/${cacheKey}/1.audio`,
    contentType: 'audio/pcm',
    byteSize: 5,
    hasTimings: false,
  };
  const refused = (): Promise<never> =>
    Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
  const hanging = (): Promise<never> => new Promise<never>(() => undefined);
  const EMPTY: Partial<BlobStore> = {
    list: () => ({
      [Symbol.asyncIterator]: () => ({ next: () => Promise.resolve({ done: true, value: undefined }) }),
    }),
  };

  it.each([
    [
      'a blob store that refuses',
      { index: { lookup: () => Promise.resolve(hit) }, blobs: { get: refused } },
      'blob',
    ],
    [
      'a blob store that hangs',
      { index: { lookup: () => Promise.resolve(hit) }, blobs: { get: hanging } },
      'blob',
    ],
    [
      'an index that fails, with nothing in the blob store',
      { index: { lookup: refused }, blobs: EMPTY },
      'index',
    ],
    [
      'an index that hangs, with nothing in the blob store',
      { index: { lookup: hanging }, blobs: EMPTY },
      'index',
    ],
  ])(
    'takes %s for a miss: the piece is synthesized and the failure counted',
    async (_name, stores, store) => {
      const { bus, resolver, calls, unreadable, firstAudio } = await setUp(stores);
      try {
        const audio = await resolver.resolve(piece);
        expect(audio.cached).toBe(false);
        expect(firstAudio.map((seen) => seen.source)).toEqual(['worker']);
        expect(await drain(audio.chunks)).toBe('fresh take of cccc');
        expect(calls).toEqual([LIVE]);
        expect(unreadable).toEqual([store]);
      } finally {
        await bus.close();
      }
    },
  );

  it('serves a readable stored take without a worker', async () => {
    const { bus, resolver, calls, unreadable, firstAudio } = await setUp({
      index: { lookup: () => Promise.resolve(hit) },
      blobs: { get: () => Promise.resolve(Buffer.from('saved')) },
    });
    try {
      const audio = await resolver.resolve(piece);
      expect(audio.cached).toBe(true);
      expect(await drain(audio.chunks)).toBe('saved');
      expect(calls).toEqual([]);
      expect(unreadable).toEqual([]);
      expect(firstAudio).toEqual([{ source: 'cache', seconds: expect.any(Number) }]);
    } finally {
      await bus.close();
    }
  });

  it('with the index out of reach (PostgreSQL down), serves the take found in the blob store alone', async () => {
    const audioName = `${piece.orgId}/${cacheKey}/1700000000000-000000000001.audio`;
    const { bus, resolver, calls, unreadable, firstAudio } = await setUp({
      index: { lookup: refused },
      blobs: {
        async *list(prefix: string) {
          await Promise.resolve();
          if (audioName.startsWith(prefix)) yield { name: audioName, size: 5, lastModified: new Date(0) };
        },
        stat: () => Promise.resolve({ size: 5, lastModified: new Date(0), contentType: 'audio/pcm' }),
        get: (name: string) =>
          name === audioName
            ? Promise.resolve(Buffer.from('saved'))
            : Promise.reject(new Error('no such blob')),
      },
    });
    try {
      const audio = await resolver.resolve(piece);
      expect(audio.cached).toBe(true);
      expect(audio.contentType).toBe('audio/pcm');
      expect(await drain(audio.chunks)).toBe('saved');
      expect(calls).toEqual([]);
      expect(unreadable).toEqual(['index']);
      expect(firstAudio.map((seen) => seen.source)).toEqual(['cache']);
    } finally {
      await bus.close();
    }
  });
});
