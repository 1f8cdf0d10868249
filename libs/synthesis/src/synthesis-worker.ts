import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Registry } from 'prom-client';
import type { BlobStore } from '@router/blob-store';
import { type Bus, isPeerGone, type StreamSink, type Subscription } from '@router/bus';
import {
  addressedTo,
  authChangedV1,
  type CachedTake,
  cacheCommitV1,
  cacheObjectNames,
  cacheUsageV1,
  healthSynthesisV1,
  isStoreUnreachable,
  newTakeId,
  RouterError,
  synthRequestV1,
  synthStopV1,
  synthWorkerHeartbeatV1,
} from '@router/contracts';
import type { Sql } from '@router/db';
import type { Logger } from '@router/observability';
import {
  CacheUnreadableError,
  readStoredTake,
  storedTakeMeta,
  storedTimingsBlob,
} from '@router/stored-takes';
import { type KeyFailureReporter, type KeyOpener, ProviderKeyCache } from '@router/provider-keys';
import type { VendorAdapter } from '@router/vendors-core';
import { Take, type TakeOutcome } from './take';
import { ShardLeases } from './shard-leases';
import { leasedShardsGauge, type SynthesisMetrics, synthesisMetrics } from './synthesis-metrics';
import { TakeClaims } from './take-claims';
import {
  cacheable,
  type KeyedTakeRequest,
  pieceTakes,
  type Produced,
  requestTakes,
  type TakeKind,
} from './take-kinds';

export const SYNTHESIS_SERVICE = 'synthesis-worker';

/** Why a take ended early when every requester interrupted it; nobody is left to receive it. */
const STOPPED = new RouterError('internal', 'take stopped: interrupted');

/** Identical takes of an org meet on one id; a take that must not be cached never serves one that may. */
function takeId(req: { orgId: string; cacheKey: string; cache: boolean }): string {
  return `${req.orgId}:${req.cacheKey}:${req.cache ? 'c' : 'n'}`;
}

/** The takes of one kind running here, and those being started (claim, key, stored take). */
class RunningTakes<Req extends KeyedTakeRequest, Head, Result extends TakeOutcome> {
  readonly takes = new Map<string, Take<Head, Result>>();
  readonly starting = new Map<string, Promise<Take<Head, Result>>>();
  constructor(readonly kind: TakeKind<Req, Head, Result>) {}
}

export interface SynthesisWorkerDeps {
  bus: Bus;
  blobs: BlobStore;
  /** The cache index and the take claims (one take per key across workers). */
  sql: Sql;
  keys: KeyOpener;
  /** Where the vendor's failures of real traffic go, as each key's last error (the dashboard shows it). */
  keyFailures?: KeyFailureReporter;
  adapter: (vendor: string) => VendorAdapter | undefined;
  logger: Logger;
  now?: () => number;
  /** The app's metrics: vendor calls, first audio and leases are reported there. */
  metrics?: Registry;
}

export interface SynthesisWorkerSettings {
  /** A take with no audio from the vendor for this long fails with provider_timeout. */
  firstAudioTimeoutMs: number;
  /**
   * A take not over after this long fails with provider_timeout, however its audio trickles in (each chunk
   * restarts the first-audio timer); shorter than `claimStaleMs`.
   */
  takeTimeoutMs: number;
  heartbeatMs: number;
  keyCacheTtlMs: number;
  /** While PostgreSQL cannot be read, a vendor key opened no longer ago than this is still used. */
  outageStaleMs: number;
  /** A claim on a key's take older than this no longer holds; longer than any take runs. */
  claimStaleMs: number;
  /**
   * The length of this worker's leases on shards of the cache keys (it claims their keys without a round trip;
   * see ShardLeases); 0 leases none, and every claim asks the database.
   */
  leaseMs: number;
  /** The deployment's workers, which share the shard leases: its NATS subject prefix ('' when it has none). */
  leaseGroup?: string;
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
  /**
   * Takes running here (vendor calls, and takes followed from the worker holding their key's claim), and
   * those being started (later requests for the same take wait for the same start), by kind.
   */
  private readonly pieces = new RunningTakes(pieceTakes);
  private readonly requests = new RunningTakes(requestTakes);
  /** Each running take's end: when its vendor call is over and its claim settled (committed or let go). */
  private readonly windingDown = new WeakMap<object, Promise<void>>();
  private readonly keys: ProviderKeyCache;
  private readonly claims: TakeClaims;
  private readonly leases: ShardLeases | undefined;
  private readonly metrics: SynthesisMetrics | undefined;
  private readonly now: () => number;
  private readonly startedAt: number;
  private heartbeat: NodeJS.Timeout | undefined;
  /** Set once the worker drains: it announces itself as leaving rather than alive. */
  private leaving = false;

  constructor(
    private readonly deps: SynthesisWorkerDeps,
    private readonly settings: SynthesisWorkerSettings,
  ) {
    this.now = deps.now ?? Date.now;
    this.startedAt = this.now();
    this.workerId = settings.workerId ?? randomBytes(8).toString('hex');
    this.keys = new ProviderKeyCache(deps.keys, settings.keyCacheTtlMs, this.now, settings.outageStaleMs);
    const group = settings.leaseGroup ?? '';
    if (settings.leaseMs > 0) {
      this.leases = new ShardLeases(
        deps.sql,
        this.workerId,
        { leaseMs: settings.leaseMs, staleAfterMs: settings.claimStaleMs, group },
        deps.logger,
      );
    }
    this.claims = new TakeClaims(deps.sql, this.workerId, settings.claimStaleMs, group, this.leases);
    this.metrics = deps.metrics && synthesisMetrics(deps.metrics);
    const leases = this.leases;
    if (deps.metrics && leases) leasedShardsGauge(deps.metrics, () => leases.held);
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
      this.serveKind(this.pieces),
      this.serveKind(this.requests),
      bus.subscribe(addressedTo(synthStopV1, this.workerId), (stop) => {
        this.pieces.takes.get(takeId(stop))?.requestStop();
      }),
      bus.subscribe(authChangedV1, (event) => {
        if (event.kind === 'provider_key') this.keys.forget(event.orgId, event.provider);
      }),
    ];
    const announce = (): void => {
      bus
        .publish(synthWorkerHeartbeatV1, {
          workerId: this.workerId,
          serves: [synthRequestV1.subject],
          ...(this.leaving ? { leaving: true } : {}),
        })
        .catch(() => undefined);
    };
    void Promise.all(subscriptions.map((s) => s.ready())).then(() => {
      this.leases?.start();
      announce();
    });
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

  /**
   * The worker is going away (SIGTERM): it announces itself as leaving, so requesters send it nothing new, gives
   * its shards up (their keys are claimed in the database from now on, so another worker can take them over
   * without a second take of a key still running here), and resolves once the takes running here are over
   * (committed or failed). Requests still addressed to it meanwhile are answered as before.
   */
  async drain(): Promise<void> {
    this.leaving = true;
    await this.deps.bus
      .publish(synthWorkerHeartbeatV1, {
        workerId: this.workerId,
        serves: [synthRequestV1.subject],
        leaving: true,
      })
      .catch(() => undefined);
    await this.leases?.depart();
    const running = (): number =>
      this.pieces.takes.size +
      this.pieces.starting.size +
      this.requests.takes.size +
      this.requests.starting.size;
    while (running() > 0) await new Promise((resolve) => setTimeout(resolve, 50));
  }

  /** Frees this worker's shard leases (once it no longer serves: stop its subscriptions first). */
  async close(): Promise<void> {
    await this.leases?.stop();
  }

  private serveKind<Req extends KeyedTakeRequest, Head, Result extends TakeOutcome>(
    running: RunningTakes<Req, Head, Result>,
  ): Subscription {
    return this.deps.bus.serveStream(
      addressedTo(running.kind.stream, this.workerId),
      (req, sink) => this.serveTake(running, req, sink),
      { queue: `synth-${this.workerId}` },
    );
  }

  private async serveTake<Req extends KeyedTakeRequest, Head, Result extends TakeOutcome>(
    running: RunningTakes<Req, Head, Result>,
    req: Req,
    sink: StreamSink<Head, Result>,
  ): Promise<void> {
    const take = await this.join(running, req);
    // The header goes with the first chunk, not before: a message sent while the vendor call is on its way
    // wakes NATS and the requester, which then compete with the vendor for the CPU (measured: ≈0.2 ms later
    // first audio at 1 concurrent). A take that fails first sends its error alone; one without a body (an
    // empty refusal) sends its header at its end.
    let headed = false;
    const head = (): void => {
      if (headed) return;
      headed = true;
      if (take.head === undefined) throw new RouterError('internal', 'a take ended without its head');
      sink.header(take.head);
    };
    for await (const chunk of take.follow(sink.aborted)) {
      head();
      await sink.write(chunk);
    }
    if (sink.aborted.aborted) return;
    const result = await take.result;
    head();
    await sink.end(result);
  }

  /** Keeps a running take until `work` is over, then forgets it (unless a newer take of the key replaced it). */
  private track<T extends object>(take: T, work: Promise<unknown>, takes: Map<string, T>, id: string): void {
    const over = work
      .catch(() => undefined)
      .then(() => {
        if (takes.get(id) === take) takes.delete(id);
      });
    this.windingDown.set(take, over);
  }

  /** The take for this org and key: the one running here, or a new one. */
  private join<Req extends KeyedTakeRequest, Head, Result extends TakeOutcome>(
    running: RunningTakes<Req, Head, Result>,
    req: Req,
  ): Promise<Take<Head, Result>> {
    const id = takeId(req);
    const take = running.takes.get(id);
    if (take && !take.stopped.aborted) return Promise.resolve(take);
    // A take stopped at the vendor (interrupted) is winding down and will fail: a new request gets a take of its
    // own, never the end of that one, once the stopped one has let its claim go (else its release would free
    // the key under the new take).
    if (take) return (this.windingDown.get(take) ?? Promise.resolve()).then(() => this.join(running, req));
    let starting = running.starting.get(id);
    if (!starting) {
      starting = this.start(running, id, req).finally(() => running.starting.delete(id));
      running.starting.set(id, starting);
    }
    return starting;
  }

  /**
   * A key has one take, whichever worker a requester asks: the claim says whether it is committed (replayed
   * from the blob store), being made by another worker (followed from there: a requester's view of the workers
   * can differ from another's), or this worker's to make.
   */
  private async start<Req extends KeyedTakeRequest, Head, Result extends TakeOutcome>(
    running: RunningTakes<Req, Head, Result>,
    id: string,
    req: Req,
  ): Promise<Take<Head, Result>> {
    const { kind } = running;
    const vendor = kind.vendor(req);
    const adapter = this.deps.adapter(vendor);
    if (!adapter) throw new RouterError('internal', `No upstream is configured for ${vendor}`);
    // A whole request's answer is stored only sealed: a take without its seal is not cached.
    if (!req.cache || (kind.sealed && !kind.sealing(req))) {
      return this.synthesize(running, id, adapter, req, { cache: false });
    }
    // The vendor key is opened while the claim is out (a read of its own when the key cache has let it go),
    // so a claim that is this worker's finds it ready; it is used only then.
    const apiKey = this.keys.get(req.orgId, vendor);
    apiKey.catch(() => undefined);
    let claim;
    try {
      claim = await this.claims.claim(req.orgId, req.cacheKey);
    } catch (error) {
      if (!isStoreUnreachable(error)) throw error;
      // PostgreSQL is out of reach: no claim can be had, so the take is made and played but not stored
      // (docs/architecture.md, "When a part fails"); identical requests here still share it.
      this.deps.logger.warn({ orgId: req.orgId, err: error }, 'take not claimable; synthesized uncached');
      return this.synthesize(running, id, adapter, req, { cache: false }, apiKey);
    }
    if (claim.kind === 'mine')
      return this.synthesize(running, id, adapter, req, { cache: true, claimed: true }, apiKey);
    if (claim.kind === 'held') {
      // A forwarded request is not sent on again: the claim moved between two workers' reads of it.
      if (req.forwarded)
        throw new RouterError('internal', 'The sentence is being synthesized elsewhere; retry.');
      return this.follow(running, id, adapter, req, claim.workerId);
    }
    try {
      const stored = await readStoredTake(
        this.deps.blobs,
        claim.take,
        this.settings.cacheReadTimeoutMs,
        kind.sealing(req)?.open,
      );
      if (stored) {
        this.publishUsage(kind, req, 'hit');
        return kind.replay(stored);
      }
      // Its blob is gone: a new take may replace that one.
      return this.synthesize(
        running,
        id,
        adapter,
        req,
        { cache: true, claimed: false, replaces: claim.take.objectName },
        apiKey,
      );
    } catch (error) {
      if (!(error instanceof CacheUnreadableError)) throw error;
      // The store is down: the listener gets a fresh take; the committed one stays the key's.
      this.deps.logger.warn(
        { orgId: req.orgId, err: error.cause },
        'committed take not readable; synthesized uncached',
      );
      return this.synthesize(running, id, adapter, req, { cache: false });
    }
  }

  /** A vendor call for this take, shared by every request for it while it runs. */
  private async synthesize<Req extends KeyedTakeRequest, Head, Result extends TakeOutcome>(
    running: RunningTakes<Req, Head, Result>,
    id: string,
    adapter: VendorAdapter,
    req: Req,
    keeping: Keeping,
    openingKey?: Promise<string>,
  ): Promise<Take<Head, Result>> {
    const { kind } = running;
    let apiKey: string;
    try {
      apiKey = await (openingKey ?? this.keys.get(req.orgId, kind.vendor(req)));
    } catch (error) {
      if (keeping.cache && keeping.claimed) await this.release(req);
      throw error;
    }
    const take = new Take<Head, Result>(kind.headBefore(adapter, req));
    running.takes.set(id, take);
    this.track(take, this.run(kind, take, adapter, apiKey, req, keeping), running.takes, id);
    return take;
  }

  /**
   * The take the worker holding the key's claim makes, followed from there into a take of this worker's (so
   * requests here share it).
   */
  private follow<Req extends KeyedTakeRequest, Head, Result extends TakeOutcome>(
    running: RunningTakes<Req, Head, Result>,
    id: string,
    adapter: VendorAdapter,
    req: Req,
    holder: string,
  ): Take<Head, Result> {
    const take = new Take<Head, Result>(running.kind.headBefore(adapter, req));
    running.takes.set(id, take);
    this.track(take, this.relay(running.kind, take, adapter, req, holder), running.takes, id);
    return take;
  }

  /** Copies the holder's take into `take`. A holder found gone before any audio hands its claim over. */
  private async relay<Req extends KeyedTakeRequest, Head, Result extends TakeOutcome>(
    kind: TakeKind<Req, Head, Result>,
    take: Take<Head, Result>,
    adapter: VendorAdapter,
    req: Req,
    holder: string,
  ): Promise<void> {
    const stream = this.deps.bus.requestStream(addressedTo(kind.stream, holder), { ...req, forwarded: true });
    const stop = (): void => {
      stream.cancel();
      this.deps.bus
        .publish(addressedTo(synthStopV1, holder), { orgId: req.orgId, cacheKey: req.cacheKey, cache: true })
        .catch(() => undefined);
    };
    take.stopped.addEventListener('abort', stop, { once: true });
    let heard = false;
    try {
      take.open(await stream.header());
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
      if (!orphaned) return take.fail(error instanceof Error ? error : RouterError.unexpected(error));
    } finally {
      take.stopped.removeEventListener('abort', stop);
    }
    // The holder died before its take began: this worker makes it, into the same take.
    let apiKey: string;
    try {
      apiKey = await this.keys.get(req.orgId, kind.vendor(req));
    } catch (error) {
      await this.release(req);
      return take.fail(RouterError.unexpected(error));
    }
    await this.run(kind, take, adapter, apiKey, req, { cache: true, claimed: true });
  }

  /** Deletes a take's blobs that no row names; one that stays is the orphan sweep's. */
  private async deleteTake(names: { audio: string; words: string }): Promise<void> {
    await Promise.all([this.deps.blobs.delete(names.audio), this.deps.blobs.delete(names.words)]).catch(
      (error: unknown) => this.deps.logger.warn({ err: error }, 'uncommitted take not deleted'),
    );
  }

  private async release(req: KeyedTakeRequest): Promise<void> {
    await this.claims.release(req.orgId, req.cacheKey).catch((error: unknown) => {
      // A claim left behind goes stale (claimStaleMs); until then its holder is asked, and makes the take.
      this.deps.logger.warn({ err: error, orgId: req.orgId }, 'take claim not released');
    });
  }

  private publishUsage<Req extends KeyedTakeRequest>(
    kind: Pick<TakeKind<Req, unknown, TakeOutcome>, 'vendor' | 'chars'>,
    req: Req,
    usage: 'hit' | 'synthesized',
  ): void {
    this.deps.bus
      .publish(cacheUsageV1, {
        orgId: req.orgId,
        cacheKey: req.cacheKey,
        provider: kind.vendor(req),
        chars: kind.chars(req),
        kind: usage,
      })
      .catch(() => undefined);
  }

  private async run<Req extends KeyedTakeRequest, Head, Result extends TakeOutcome>(
    kind: TakeKind<Req, Head, Result>,
    take: Take<Head, Result>,
    adapter: VendorAdapter,
    apiKey: string,
    req: Req,
    keeping: Keeping,
  ): Promise<void> {
    const vendor = kind.vendor(req);
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
              `${vendor} sent no audio within ${this.settings.firstAudioTimeoutMs} ms`,
            ),
          ),
        this.settings.firstAudioTimeoutMs,
      );
    };
    const stop = (): void => abort.abort(STOPPED);
    take.stopped.addEventListener('abort', stop, { once: true });
    const startedAt = performance.now();
    let heard = false;
    const onData = (): void => {
      if (!heard) {
        heard = true;
        this.metrics?.firstAudio(vendor, (performance.now() - startedAt) / 1000);
      }
      arm();
    };
    const deadline = setTimeout(
      () =>
        abort.abort(
          new RouterError(
            'provider_timeout',
            `${vendor} did not finish the take within ${this.settings.takeTimeoutMs} ms`,
          ),
        ),
      this.settings.takeTimeoutMs,
    );
    try {
      arm();
      const produced = await kind.produce(take, adapter, { apiKey, req, signal: abort.signal, onData });
      if (abort.signal.aborted) throw abort.signal.reason;
      clearTimeout(timer);
      this.metrics?.called(vendor, 'ok');
      take.complete(kind.result(produced, await this.store(kind, take, req, produced, keeping)));
    } catch (error) {
      clearTimeout(timer);
      if (keeping.cache && keeping.claimed) await this.release(req);
      const failure =
        abort.signal.aborted && abort.signal.reason instanceof RouterError ? abort.signal.reason : error;
      abort.abort(failure);
      if (failure === STOPPED) {
        this.deps.logger.debug({ orgId: req.orgId, vendor }, 'take stopped; nothing cached');
        take.fail(STOPPED);
        return;
      }
      const failed = RouterError.unexpected(failure);
      this.metrics?.called(vendor, failed.code);
      this.deps.logger.warn({ orgId: req.orgId, vendor, code: failed.code }, 'take failed; nothing cached');
      this.deps.keyFailures?.report(req.orgId, vendor, failed);
      take.fail(failed);
    } finally {
      clearTimeout(deadline);
      take.stopped.removeEventListener('abort', stop);
    }
  }

  /**
   * Writes a completed take and commits it, unless it must not be cached; says whether it is now the key's
   * committed take. Its usage counts either way, unless the vendor refused it.
   */
  private async store<Req extends KeyedTakeRequest, Head, Result extends TakeOutcome>(
    kind: TakeKind<Req, Head, Result>,
    take: Take<Head, Result>,
    req: Req,
    produced: Produced,
    keeping: Keeping,
  ): Promise<boolean> {
    if (produced.notWhole && keeping.cache) {
      // Passed on as the vendor sent it, never stored: the reason is the router's words, never the vendor's.
      // Said only of an answer that was to be stored (a voice list read live is never whole by any format).
      this.deps.logger.warn(
        { orgId: req.orgId, vendor: kind.vendor(req), reason: produced.notWhole },
        'answer not whole; nothing cached',
      );
    }
    if (!keeping.cache || !cacheable(produced)) {
      if (produced.storable) this.publishUsage(kind, req, 'synthesized');
      if (keeping.cache && keeping.claimed) await this.release(req);
      return false;
    }
    let committed = false;
    let written: { audio: string; words: string } | undefined;
    try {
      // Named when written, not when the take started: the commit refuses a take older than the orphan grace.
      const names = cacheObjectNames(req.orgId, req.cacheKey, newTakeId(this.now()));
      const whole = Buffer.concat(take.audio);
      // The replay differences applied once, here: every hit replays these bytes as they are.
      const body = produced.storedBody?.(whole) ?? whole;
      const audio = kind.sealing(req)?.seal(body) ?? body;
      const { words, chars, contentType, head } = produced;
      written = names;
      if (words)
        await this.deps.blobs.put(names.words, storedTimingsBlob({ words, chars }), {
          contentType: 'application/json',
        });
      // The content type and head go with the blob too: a take can be replayed without the index (an outage).
      await this.deps.blobs.put(
        names.audio,
        audio,
        storedTakeMeta({ contentType, ...(head ? { head } : {}) }),
      );
      const stored: CachedTake = {
        objectName: names.audio,
        contentType,
        byteSize: audio.length,
        hasTimings: words !== null,
        ...(head ? { head } : {}),
      };
      ({ committed } = await this.deps.bus.request(cacheCommitV1, {
        orgId: req.orgId,
        cacheKey: req.cacheKey,
        provider: kind.vendor(req),
        chars: kind.chars(req),
        ...stored,
        ...(keeping.replaces ? { replaces: keeping.replaces } : {}),
        ...(req.textKey ? { textKey: req.textKey } : {}),
      }));
      if (committed && keeping.claimed) this.claims.committed(req.orgId, req.cacheKey, stored);
    } catch (error) {
      // The listener already has the audio; a take that could not be cached is only a later miss.
      this.deps.logger.warn({ err: error, orgId: req.orgId }, 'take not cached');
      // The database is out of reach, so no row names these blobs: they go now, so that a read without the
      // index (findStoredTake) never takes an uncommitted take for the key's (the orphan sweep is the backstop).
      if (written && isStoreUnreachable(error)) await this.deleteTake(written);
    }
    // A committed take's claim stays (see TakeClaims); any other is given up for the next take of the key.
    if (!committed && keeping.claimed) await this.release(req);
    return committed;
  }
}
