import { performance } from 'node:perf_hooks';
import type { BlobStore } from '@router/blob-store';
import { type Bus, BusError, BusErrorCode, BusRemoteError, isPeerGone } from '@router/bus';
import {
  addressedTo,
  type CachedTake,
  type SynthRequestTake,
  synthRequestV1,
  type SynthSettings,
  synthStopV1,
  synthTakeV1,
  type TakeWarning,
  type WordTiming,
} from '@router/contracts';
import type { Logger } from '@router/observability';
import { openStored } from '@router/cache-keys';
import {
  CacheUnreadableError,
  findStoredTake,
  type HotEntry,
  readStoredTake,
  withinDeadline,
} from '@router/stored-takes';
import type { CacheIndex } from './cache-index';
import type { HotTier } from './hot-tier';
import { asRouterError } from './router-errors';
import type { UsageReporter } from './usage-reporter';
import type { WorkerDirectory } from './worker-directory';

/** One piece of a reply, ready to resolve: its settings, text and cache key. */
export interface PieceRequest {
  orgId: string;
  settings: SynthSettings;
  text: string;
  cacheKey: string;
  /** False at retention 0 (nothing read from or written to the cache) and for a dictionary's first use. */
  cache: boolean;
  /** On interruption the vendor finishes (and the worker caches) this piece's take instead of stopping it. */
  finishesOnInterrupt: boolean;
  /** The sentence's own key (`sentenceTextKey`), stored beside its entry for evictions by sentence. */
  textKey?: string;
}

/** A piece's audio, from memory, the cache or a worker; chunks are the vendor's bytes, untouched. */
export interface PieceAudio {
  cached: boolean;
  contentType: string;
  chunks: AsyncIterable<Buffer>;
  /** Word timings once the piece's audio has ended (null where the vendor gives none). */
  words(): Promise<WordTiming[] | null>;
  /** Each character's timing once the piece's audio has ended, where the vendor times characters. */
  chars(): Promise<WordTiming[] | null>;
  /**
   * The vendor's error about a take it still spoke whole, once the audio has ended (null for none; absent where
   * there can be none: audio from the cache, which never holds such a take).
   */
  warning?(): Promise<TakeWarning | null>;
  /** Stops reading; a take already running at a worker still finishes and is cached. */
  cancel(): void;
  /**
   * Stops reading because the listener interrupted: the take is also stopped at the vendor (not cached) once
   * no other request follows it, unless the piece's vendor finishes takes on interruption.
   */
  interrupt(): void;
}

/**
 * A whole-request take's answer (a drop-in REST/SSE request), from memory, the cache or a worker: the vendor's
 * status, the response headers its drop-in keeps, and the body as the vendor sent it. A refusal comes as the
 * vendor sent it (and was never stored).
 */
export interface RequestAnswer {
  cached: boolean;
  status: number;
  headers: Readonly<Record<string, string>>;
  /** The body; throws a retryable RouterError when it is cut (the client's body must then abort). */
  chunks: AsyncIterable<Buffer>;
  /** Stops reading; a take already running at a worker still finishes and, if complete, is cached. */
  cancel(): void;
}

export interface PieceResolverDeps {
  bus: Bus;
  blobs: BlobStore;
  index: CacheIndex;
  hot: HotTier;
  workers: WorkerDirectory;
  /** Where each hit is counted. */
  usage: UsageReporter;
  /** Chunks a worker may send ahead of this reader (flow control). */
  window: number;
  /** The longest wait for the cache index or a blob; a cache that does not answer in time is a miss. */
  cacheReadTimeoutMs: number;
  /** Counts a cache read that failed or timed out (the piece went to a worker instead). */
  onCacheUnreadable?: (store: 'index' | 'blob') => void;
  /** How long a take's first audio took to be in hand, from the cache or from a worker. */
  onFirstAudio?: (source: 'cache' | 'worker', seconds: number) => void;
  logger?: Logger;
}

/** A cache entry's identity and what a hit on it counts for. */
interface EntryRef {
  orgId: string;
  cacheKey: string;
  provider: string;
  chars: number;
}

/**
 * Resolves each take, a sentence's (`resolve`) or a whole request's (`resolveRequest`), from the hot tier, then
 * the cache index and blob store, then a synthesis worker, with the same bounded waits and the same retry on
 * another worker for both.
 */
export class PieceResolver {
  constructor(private readonly deps: PieceResolverDeps) {}

  async resolve(piece: PieceRequest): Promise<PieceAudio> {
    const startedAt = performance.now();
    const audio = await this.resolvePiece(piece);
    this.deps.onFirstAudio?.(audio.cached ? 'cache' : 'worker', (performance.now() - startedAt) / 1000);
    return audio;
  }

  private async resolvePiece(piece: PieceRequest): Promise<PieceAudio> {
    try {
      if (piece.cache) {
        const found = await this.fromCache({
          orgId: piece.orgId,
          cacheKey: piece.cacheKey,
          provider: piece.settings.vendor,
          chars: [...piece.text].length,
        });
        if (found)
          return {
            cached: true,
            contentType: found.contentType,
            chunks: asAsync([found.audio]),
            words: () => Promise.resolve(found.words),
            chars: () => Promise.resolve(found.chars ?? null),
            cancel: () => undefined,
            interrupt: () => undefined,
          };
      }
      return await this.fromWorker(piece.cacheKey, undefined, (worker) => this.takeFrom(worker, piece));
    } catch (error) {
      throw asRouterError(error);
    }
  }

  /**
   * A drop-in request's answer (see `RequestTakePlanner` for the take). Only complete 2xx answers are ever
   * stored, so a hit is always one; its status and headers are those the vendor first sent.
   */
  async resolveRequest(take: SynthRequestTake): Promise<RequestAnswer> {
    const startedAt = performance.now();
    const answer = await this.resolveWholeRequest(take);
    this.deps.onFirstAudio?.(answer.cached ? 'cache' : 'worker', (performance.now() - startedAt) / 1000);
    return answer;
  }

  private async resolveWholeRequest(take: SynthRequestTake): Promise<RequestAnswer> {
    try {
      if (take.cache) {
        const { sealKey } = take;
        const found = await this.fromCache(
          { orgId: take.orgId, cacheKey: take.cacheKey, provider: take.vendor, chars: take.chars },
          sealKey ? (stored) => openStored(sealKey, stored) : undefined,
        );
        if (found)
          return {
            cached: true,
            status: found.head?.status ?? 200,
            headers: found.head?.headers ?? { 'content-type': found.contentType },
            chunks: asAsync([found.audio]),
            cancel: () => undefined,
          };
      }
      return await this.fromWorker(take.cacheKey, synthRequestV1.subject, (worker) =>
        this.requestFrom(worker, take),
      );
    } catch (error) {
      throw asRouterError(error);
    }
  }

  /** The entry from the hot tier or the cache, counted as a hit; undefined for a miss. */
  private async fromCache(ref: EntryRef, open?: (stored: Buffer) => Buffer): Promise<HotEntry | undefined> {
    const { usage, hot } = this.deps;
    let entry = hot.get(ref.orgId, ref.cacheKey);
    if (!entry) {
      entry = await this.readStored(ref, open);
      if (!entry) return undefined;
      hot.set(ref.orgId, ref.cacheKey, entry);
    }
    usage.record({ ...ref, kind: 'hit' });
    return entry;
  }

  /**
   * The piece's committed take from the index and the blob store, or undefined for a miss. An index that fails
   * or does not answer within `cacheReadTimeoutMs` (PostgreSQL down) is read around: the take is looked for in
   * the blob store alone, where its blobs are named under its org and key (`findStoredTake`). A store that
   * cannot be read either way (S3 down) is a miss, counted: the piece is synthesized and the reply goes on.
   */
  private async readStored(ref: EntryRef, open?: (stored: Buffer) => Buffer): Promise<HotEntry | undefined> {
    const { blobs, cacheReadTimeoutMs } = this.deps;
    try {
      // Only a whole request's answer is opened (stored sealed), and only it has a response head.
      const hit = await this.lookUp(ref, open !== undefined);
      return hit ? await readStoredTake(blobs, hit, cacheReadTimeoutMs, open) : undefined;
    } catch (error) {
      if (!(error instanceof CacheUnreadableError)) throw error;
      this.deps.onCacheUnreadable?.(error.store);
      this.deps.logger?.warn(
        { orgId: ref.orgId, store: error.store, err: error.cause ?? error },
        'cache not readable; the take is made afresh instead',
      );
      return undefined;
    }
  }

  /**
   * Where the key's committed take is: the index's row, or, while the index cannot be read, the take found in
   * the blob store alone (counted as an unreadable index). `head`: a whole request's take, replayed with its
   * response head. The org's retention still holds: a reply is planned to read the cache only when the org's
   * retention (as held, docs/operations.md "A PostgreSQL outage") is above 0, and the sweeps remove an expired
   * entry's blobs after its row.
   */
  private async lookUp(ref: EntryRef, head: boolean): Promise<CachedTake | null | undefined> {
    const { index, blobs, cacheReadTimeoutMs } = this.deps;
    try {
      return await withinDeadline(index.lookup(ref.orgId, ref.cacheKey), cacheReadTimeoutMs, 'index');
    } catch (error) {
      this.deps.onCacheUnreadable?.('index');
      this.deps.logger?.warn(
        {
          orgId: ref.orgId,
          store: 'index',
          err: error instanceof CacheUnreadableError ? error.cause : error,
        },
        'cache index not readable; the take is looked for in the blob store alone',
      );
      return findStoredTake(blobs, ref.orgId, ref.cacheKey, { timeoutMs: cacheReadTimeoutMs, head });
    }
  }

  /**
   * The take from the worker its key belongs to (among those `serving` its subject, where it is not the
   * sentence take's). A worker that is gone (nobody answers on its subject, or its stream went silent) before
   * any audio of the take was sent: the take is tried once more on another live worker. Once audio has
   * started, the loss ends the take with a retryable error (the listener already has part of it).
   */
  private async fromWorker<T>(
    cacheKey: string,
    serving: string | undefined,
    takeFrom: (worker: string) => Promise<T>,
  ): Promise<T> {
    const { workers } = this.deps;
    const first = await workers.pick(cacheKey, undefined, serving);
    try {
      return await takeFrom(first);
    } catch (error) {
      // Cut off from NATS ourselves, another worker is no more reachable than this one.
      if (!isPeerGone(error) || this.deps.bus.status() !== 'connected') throw error;
      return await takeFrom(await workers.pick(cacheKey, first, serving));
    }
  }

  /**
   * Nobody on a worker's subject is proof it has gone (NATS drops a dead client's subscriptions at once): no
   * piece goes to it any more. A silent stream only fails its own piece, which is tried elsewhere: under a
   * heavy load a live worker can be slow to say it is alive, and taking it for gone would empty the directory.
   */
  private noteLost(worker: string, error: unknown): void {
    if (
      error instanceof BusError &&
      !(error instanceof BusRemoteError) &&
      error.code === BusErrorCode.noResponders
    )
      this.deps.workers.markGone(worker);
  }

  private async takeFrom(worker: string, piece: PieceRequest): Promise<PieceAudio> {
    const { bus } = this.deps;
    const stream = bus.requestStream(
      addressedTo(synthTakeV1, worker),
      {
        orgId: piece.orgId,
        cacheKey: piece.cacheKey,
        settings: piece.settings,
        text: piece.text,
        cache: piece.cache,
        ...(piece.textKey ? { textKey: piece.textKey } : {}),
      },
      { window: this.deps.window },
    );
    // A piece counts as started only with its first audio: a vendor refusal before that is still an
    // error the client gets as the envelope, not an aborted body.
    const chunks = stream[Symbol.asyncIterator]();
    let header;
    let first: IteratorResult<Uint8Array>;
    try {
      header = await stream.header();
      first = await chunks.next();
    } catch (error) {
      stream.cancel();
      this.noteLost(worker, error);
      throw error;
    }
    const trailer = stream.trailer();
    trailer.catch(() => undefined);
    return {
      cached: false,
      contentType: header.contentType,
      chunks: chunksFrom(first, chunks),
      words: () => trailer.then((t) => t.words),
      chars: () => trailer.then((t) => t.chars ?? null),
      warning: () => trailer.then((t) => t.warning ?? null),
      cancel: () => stream.cancel(),
      interrupt: () => {
        stream.cancel();
        if (piece.finishesOnInterrupt) return;
        bus
          .publish(addressedTo(synthStopV1, worker), {
            orgId: piece.orgId,
            cacheKey: piece.cacheKey,
            cache: piece.cache,
          })
          .catch(() => undefined);
      },
    };
  }

  /** A request take from one worker: its head and first chunk before it counts as started (as a piece's). */
  private async requestFrom(worker: string, take: SynthRequestTake): Promise<RequestAnswer> {
    const stream = this.deps.bus.requestStream(addressedTo(synthRequestV1, worker), take, {
      window: this.deps.window,
    });
    const chunks = stream[Symbol.asyncIterator]();
    let head;
    let first: IteratorResult<Uint8Array>;
    try {
      head = await stream.header();
      first = await chunks.next();
    } catch (error) {
      stream.cancel();
      this.noteLost(worker, error);
      throw error;
    }
    stream.trailer().catch(() => undefined);
    return {
      cached: false,
      status: head.status,
      headers: head.headers,
      chunks: chunksFrom(first, chunks),
      cancel: () => stream.cancel(),
    };
  }
}

/** The stream's chunks from `first` on, as Buffers; a failure is a RouterError; leaving early cancels it. */
async function* chunksFrom(
  first: IteratorResult<Uint8Array>,
  chunks: AsyncIterator<Uint8Array>,
): AsyncGenerator<Buffer> {
  try {
    for (let next = first; !next.done; next = await chunks.next()) {
      yield Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
    }
  } catch (error) {
    throw asRouterError(error);
  } finally {
    await chunks.return?.();
  }
}

/** A known list of chunks as the async iterable every piece's audio is. */
export function asAsync<T>(items: Iterable<T>): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator]() {
      const iterator = items[Symbol.iterator]();
      return { next: () => Promise.resolve(iterator.next()) };
    },
  };
}
