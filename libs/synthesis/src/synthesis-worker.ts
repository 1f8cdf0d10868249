import { randomBytes } from 'node:crypto';
import type { BlobStore } from '@router/blob-store';
import { type Bus, isPeerGone, type StreamSink, type Subscription } from '@router/bus';
import {
  addressedTo,
  authChangedV1,
  cacheCommitV1,
  cacheObjectNames,
  cacheUsageV1,
  healthSynthesisV1,
  newTakeId,
  RouterError,
  synthStopV1,
  synthTakeV1,
  synthWorkerHeartbeatV1,
  type SynthTakeHeader,
  type SynthTakeRequest,
  type SynthTakeTrailer,
  type WordTiming,
} from '@router/contracts';
import type { Sql } from '@router/db';
import type { Logger } from '@router/observability';
import { CacheUnreadableError, readStoredTake } from '@router/pipeline';
import { type KeyOpener, ProviderKeyCache } from '@router/provider-keys';
import type { VendorAdapter } from '@router/vendors-core';
import { Take, type TakeResult } from './take';
import { TakeClaims } from './take-claims';

export const SYNTHESIS_SERVICE = 'synthesis-worker';

/** Why a take ended early when every requester interrupted it; nobody is left to receive it. */
const STOPPED = new RouterError('internal', 'take stopped: interrupted');

/** Identical takes of an org meet on one id; a take that must not be cached never serves one that may. */
function takeId(req: { orgId: string; cacheKey: string; cache: boolean }): string {
  return `${req.orgId}:${req.cacheKey}:${req.cache ? 'c' : 'n'}`;
}

export interface SynthesisWorkerDeps {
  bus: Bus;
  blobs: BlobStore;
  /** The cache index and the take claims (one take per key across workers). */
  sql: Sql;
  keys: KeyOpener;
  adapter: (vendor: string) => VendorAdapter | undefined;
  logger: Logger;
  now?: () => number;
}

export interface SynthesisWorkerSettings {
  /** A take with no audio from the vendor for this long fails with provider_timeout. */
  firstAudioTimeoutMs: number;
  heartbeatMs: number;
  keyCacheTtlMs: number;
  /** A claim on a key's take older than this no longer holds; longer than any take runs. */
  claimStaleMs: number;
  /** The longest wait for a committed take's blob; one not read in time is synthesized afresh, uncached. */
  cacheReadTimeoutMs: number;
  workerId?: string;
}

/**
 * How a vendor take made here ends: committed as the key's take (`replaces` names a committed take whose blob
 * is gone), or not cached at all (retention 0, a dictionary's first use, a committed take that could not be
 * read). `claimed`: this worker holds the key's claim and gives it up if the take is not committed.
 */
type Keeping = { cache: true; claimed: boolean; replaces?: string } | { cache: false };

/**
 * Every vendor call of the router. A take streams back as the vendor sends it; a completed one is written
 * to the blob store and committed to the cache index; a failed, timed-out or cut one never is. Identical
 * takes in flight share one vendor call (requesters address a key's takes to one worker).
 */
export class SynthesisWorker {
  readonly workerId: string;
  /** Takes running here (vendor calls, and takes followed from the worker holding their key's claim). */
  private readonly takes = new Map<string, Take>();
  /** Takes being started (claim, key, stored take): later requests for the same take wait for the same start. */
  private readonly starting = new Map<string, Promise<Take>>();
  private readonly keys: ProviderKeyCache;
  private readonly claims: TakeClaims;
  private readonly now: () => number;
  private readonly startedAt: number;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: SynthesisWorkerDeps,
    private readonly settings: SynthesisWorkerSettings,
  ) {
    this.now = deps.now ?? Date.now;
    this.startedAt = this.now();
    this.workerId = settings.workerId ?? randomBytes(8).toString('hex');
    this.keys = new ProviderKeyCache(deps.keys, settings.keyCacheTtlMs, this.now);
    this.claims = new TakeClaims(deps.sql, this.workerId, settings.claimStaleMs);
  }

  /** Subscribes the worker's subjects and starts announcing it; stop() undoes both. */
  serve(): Subscription[] {
    const { bus } = this.deps;
    const subscriptions = [
      bus.serve(healthSynthesisV1, () => ({
        service: SYNTHESIS_SERVICE,
        ok: true,
        uptimeMs: Math.max(0, this.now() - this.startedAt),
      })),
      bus.serveStream(addressedTo(synthTakeV1, this.workerId), (req, sink) => this.serveTake(req, sink), {
        queue: `synth-${this.workerId}`,
      }),
      bus.subscribe(addressedTo(synthStopV1, this.workerId), (stop) => {
        this.takes.get(takeId(stop))?.requestStop();
      }),
      bus.subscribe(authChangedV1, (event) => {
        if (event.kind === 'provider_key') this.keys.forget(event.orgId, event.provider);
      }),
    ];
    const announce = (): void => {
      bus.publish(synthWorkerHeartbeatV1, { workerId: this.workerId }).catch(() => undefined);
    };
    void Promise.all(subscriptions.map((s) => s.ready())).then(announce);
    this.heartbeat = setInterval(announce, this.settings.heartbeatMs);
    this.heartbeat.unref();
    // Back from a NATS outage: say so at once rather than at the next beat, so requesters resume sooner.
    const stopWatching = bus.onStatusChange((status) => {
      if (status === 'connected') announce();
    });
    return [
      ...subscriptions,
      {
        subject: 'heartbeat',
        ready: () => Promise.resolve(),
        unsubscribe: () => {
          clearInterval(this.heartbeat);
          stopWatching();
        },
      },
    ];
  }

  private async serveTake(
    req: SynthTakeRequest,
    sink: StreamSink<SynthTakeHeader, SynthTakeTrailer>,
  ): Promise<void> {
    const take = await this.join(req);
    // The header goes with the first chunk, not before: a message sent while the vendor call is on its way
    // wakes NATS and the requester, which then compete with the vendor for the CPU (measured: ≈0.2 ms later
    // first audio at 1 concurrent). A take that fails first sends its error alone.
    let headed = false;
    for await (const chunk of take.follow(sink.aborted)) {
      if (!headed) sink.header({ contentType: take.contentType });
      headed = true;
      await sink.write(chunk);
    }
    if (sink.aborted.aborted) return;
    const result = await take.result;
    await sink.end({ words: result.words, cached: result.cached });
  }

  /** The take for this org and key: the one running here, or a new one. */
  private join(req: SynthTakeRequest): Promise<Take> {
    const id = takeId(req);
    const running = this.takes.get(id);
    if (running) return Promise.resolve(running);
    let starting = this.starting.get(id);
    if (!starting) {
      starting = this.start(id, req).finally(() => this.starting.delete(id));
      this.starting.set(id, starting);
    }
    return starting;
  }

  /**
   * A key has one take, whichever worker a requester asks: the claim says whether it is committed (replayed
   * from the blob store), being made by another worker (followed from there: a requester's view of the workers
   * can differ from another's), or this worker's to make.
   */
  private async start(id: string, req: SynthTakeRequest): Promise<Take> {
    const adapter = this.deps.adapter(req.settings.vendor);
    if (!adapter) throw new RouterError('internal', `No upstream is configured for ${req.settings.vendor}`);
    if (!req.cache) return this.synthesize(id, adapter, req, { cache: false });
    const claim = await this.claims.claim(req.orgId, req.cacheKey);
    if (claim.kind === 'mine') return this.synthesize(id, adapter, req, { cache: true, claimed: true });
    if (claim.kind === 'held') {
      // A forwarded request is not sent on again: the claim moved between two workers' reads of it.
      if (req.forwarded)
        throw new RouterError('internal', 'The sentence is being synthesized elsewhere; retry.');
      return this.follow(id, adapter, req, claim.workerId);
    }
    try {
      const stored = await readStoredTake(this.deps.blobs, claim.take, this.settings.cacheReadTimeoutMs);
      if (stored) {
        this.publishUsage(req, 'hit');
        return Take.replaying(stored.contentType, stored.audio, stored.words);
      }
      // Its blob is gone: a new take may replace that one.
      return this.synthesize(id, adapter, req, {
        cache: true,
        claimed: false,
        replaces: claim.take.objectName,
      });
    } catch (error) {
      if (!(error instanceof CacheUnreadableError)) throw error;
      // The store is down: the listener gets a fresh take; the committed one stays the key's.
      this.deps.logger.warn(
        { orgId: req.orgId, err: error.cause },
        'committed take not readable; synthesized uncached',
      );
      return this.synthesize(id, adapter, req, { cache: false });
    }
  }

  /** A vendor call for this take, shared by every request for it while it runs. */
  private async synthesize(
    id: string,
    adapter: VendorAdapter,
    req: SynthTakeRequest,
    keeping: Keeping,
  ): Promise<Take> {
    let apiKey: string;
    try {
      apiKey = await this.keys.get(req.orgId, req.settings.vendor);
    } catch (error) {
      if (keeping.cache && keeping.claimed) await this.release(req);
      throw error;
    }
    const take = new Take(adapter.contentType(req.settings));
    this.takes.set(id, take);
    void this.run(take, adapter, apiKey, req, keeping).finally(() => this.takes.delete(id));
    return take;
  }

  /**
   * The take the worker holding the key's claim makes, followed from there into a take of this worker's (so
   * requests here share it).
   */
  private follow(id: string, adapter: VendorAdapter, req: SynthTakeRequest, holder: string): Take {
    const take = new Take(adapter.contentType(req.settings));
    this.takes.set(id, take);
    void this.relay(take, adapter, req, holder).finally(() => this.takes.delete(id));
    return take;
  }

  /** Copies the holder's take into `take`. A holder found gone before any audio hands its claim over. */
  private async relay(
    take: Take,
    adapter: VendorAdapter,
    req: SynthTakeRequest,
    holder: string,
  ): Promise<void> {
    const stream = this.deps.bus.requestStream(addressedTo(synthTakeV1, holder), { ...req, forwarded: true });
    const stop = (): void => {
      stream.cancel();
      this.deps.bus
        .publish(addressedTo(synthStopV1, holder), { orgId: req.orgId, cacheKey: req.cacheKey, cache: true })
        .catch(() => undefined);
    };
    take.stopped.addEventListener('abort', stop, { once: true });
    let heard = false;
    try {
      for await (const chunk of stream) {
        heard = true;
        take.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      }
      take.complete(await stream.trailer());
      return;
    } catch (error) {
      if (take.stopped.aborted) return take.fail(STOPPED);
      const orphaned =
        !heard &&
        isPeerGone(error) &&
        (await this.claims.takeOver(req.orgId, req.cacheKey, holder).catch(() => false));
      if (!orphaned) return take.fail(error instanceof Error ? error : RouterError.internal(error));
    } finally {
      take.stopped.removeEventListener('abort', stop);
    }
    // The holder died before its take began: this worker makes it, into the same take.
    let apiKey: string;
    try {
      apiKey = await this.keys.get(req.orgId, req.settings.vendor);
    } catch (error) {
      await this.release(req);
      return take.fail(error instanceof RouterError ? error : RouterError.internal(error));
    }
    await this.run(take, adapter, apiKey, req, { cache: true, claimed: true });
  }

  private async release(req: SynthTakeRequest): Promise<void> {
    await this.claims.release(req.orgId, req.cacheKey).catch((error: unknown) => {
      // A claim left behind goes stale (claimStaleMs); until then its holder is asked, and makes the take.
      this.deps.logger.warn({ err: error, orgId: req.orgId }, 'take claim not released');
    });
  }

  private publishUsage(req: SynthTakeRequest, kind: 'hit' | 'synthesized'): void {
    const chars = [...req.text].length;
    this.deps.bus
      .publish(cacheUsageV1, {
        orgId: req.orgId,
        cacheKey: req.cacheKey,
        provider: req.settings.vendor,
        chars,
        kind,
      })
      .catch(() => undefined);
  }

  private async run(
    take: Take,
    adapter: VendorAdapter,
    apiKey: string,
    req: SynthTakeRequest,
    keeping: Keeping,
  ): Promise<void> {
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    // One timer per take, restarted by each audio chunk (not a new timer per chunk).
    const arm = (): void => {
      if (timer) {
        timer.refresh();
        return;
      }
      timer = setTimeout(
        () =>
          abort.abort(
            new RouterError(
              'provider_timeout',
              `${req.settings.vendor} sent no audio within ${this.settings.firstAudioTimeoutMs} ms`,
            ),
          ),
        this.settings.firstAudioTimeoutMs,
      );
    };
    let words: WordTiming[] | null = null;
    const stop = (): void => abort.abort(STOPPED);
    take.stopped.addEventListener('abort', stop, { once: true });
    try {
      arm();
      const events = adapter.synthesize({
        apiKey,
        settings: req.settings,
        text: req.text,
        signal: abort.signal,
      });
      for await (const event of events) {
        if (abort.signal.aborted) break;
        if (event.kind === 'audio') {
          arm();
          take.push(event.data);
        } else {
          words = [...(words ?? []), ...event.words];
        }
      }
      if (abort.signal.aborted) throw abort.signal.reason;
      clearTimeout(timer);
      if (take.audio.length === 0) {
        throw new RouterError(
          'provider_unavailable',
          `${req.settings.vendor} completed the take without audio`,
        );
      }
      take.complete(await this.store(take, req, words, keeping));
    } catch (error) {
      clearTimeout(timer);
      if (keeping.cache && keeping.claimed) await this.release(req);
      const failure =
        abort.signal.aborted && abort.signal.reason instanceof RouterError ? abort.signal.reason : error;
      abort.abort(failure);
      if (failure === STOPPED) {
        this.deps.logger.debug(
          { orgId: req.orgId, vendor: req.settings.vendor },
          'take stopped; nothing cached',
        );
        take.fail(STOPPED);
        return;
      }
      this.deps.logger.warn(
        {
          orgId: req.orgId,
          vendor: req.settings.vendor,
          code: failure instanceof RouterError ? failure.code : 'internal',
        },
        'take failed; nothing cached',
      );
      take.fail(failure instanceof RouterError ? failure : RouterError.internal(failure));
    } finally {
      take.stopped.removeEventListener('abort', stop);
    }
  }

  /** Writes a completed take and commits it, unless it must not be cached; either way its usage counts. */
  private async store(
    take: Take,
    req: SynthTakeRequest,
    words: WordTiming[] | null,
    keeping: Keeping,
  ): Promise<TakeResult> {
    if (!keeping.cache) {
      this.publishUsage(req, 'synthesized');
      return { words, cached: false };
    }
    let committed = false;
    try {
      // Named when written, not when the take started: the commit refuses a take older than the orphan grace.
      const names = cacheObjectNames(req.orgId, req.cacheKey, newTakeId(this.now()));
      const audio = Buffer.concat(take.audio);
      if (words)
        await this.deps.blobs.put(names.words, Buffer.from(JSON.stringify(words)), {
          contentType: 'application/json',
        });
      await this.deps.blobs.put(names.audio, audio, { contentType: take.contentType });
      ({ committed } = await this.deps.bus.request(cacheCommitV1, {
        orgId: req.orgId,
        cacheKey: req.cacheKey,
        provider: req.settings.vendor,
        chars: [...req.text].length,
        objectName: names.audio,
        contentType: take.contentType,
        byteSize: audio.length,
        hasTimings: words !== null,
        ...(keeping.replaces ? { replaces: keeping.replaces } : {}),
      }));
    } catch (error) {
      // The listener already has the audio; a take that could not be cached is only a later miss.
      this.deps.logger.warn({ err: error, orgId: req.orgId }, 'take not cached');
    }
    // A committed take's claim stays (see TakeClaims); any other is given up for the next take of the key.
    if (!committed && keeping.claimed) await this.release(req);
    return { words, cached: committed };
  }
}
