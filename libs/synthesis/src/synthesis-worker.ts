import { randomBytes } from 'node:crypto';
import type { BlobStore } from '@router/blob-store';
import type { Bus, StreamSink, Subscription } from '@router/bus';
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
import type { Logger } from '@router/observability';
import { type KeyOpener, ProviderKeyCache } from '@router/provider-keys';
import type { VendorAdapter } from '@router/vendors-core';
import { Take, type TakeResult } from './take';

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
  workerId?: string;
}

/**
 * Every vendor call of the router. A take streams back as the vendor sends it; a completed one is written
 * to the blob store and committed to the cache index; a failed, timed-out or cut one never is. Identical
 * takes in flight share one vendor call (requesters address a key's takes to one worker).
 */
export class SynthesisWorker {
  readonly workerId: string;
  private readonly takes = new Map<string, Take>();
  private readonly keys: ProviderKeyCache;
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

  /** The take for this org and key: the one running, or a new vendor call. */
  private async join(req: SynthTakeRequest): Promise<Take> {
    const id = takeId(req);
    const running = this.takes.get(id);
    if (running) return running;
    const adapter = this.deps.adapter(req.settings.vendor);
    if (!adapter) throw new RouterError('internal', `No upstream is configured for ${req.settings.vendor}`);
    const apiKey = await this.keys.get(req.orgId, req.settings.vendor);
    const again = this.takes.get(id);
    if (again) return again;
    const take = new Take(adapter.contentType(req.settings));
    this.takes.set(id, take);
    void this.run(take, adapter, apiKey, req).finally(() => this.takes.delete(id));
    return take;
  }

  private async run(
    take: Take,
    adapter: VendorAdapter,
    apiKey: string,
    req: SynthTakeRequest,
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
      take.complete(await this.store(take, req, words));
    } catch (error) {
      clearTimeout(timer);
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
  private async store(take: Take, req: SynthTakeRequest, words: WordTiming[] | null): Promise<TakeResult> {
    const chars = [...req.text].length;
    const usage = { orgId: req.orgId, cacheKey: req.cacheKey, provider: req.settings.vendor, chars };
    if (!req.cache) {
      this.deps.bus.publish(cacheUsageV1, { ...usage, kind: 'synthesized' }).catch(() => undefined);
      return { words, cached: false };
    }
    try {
      // Named when written, not when the take started: the commit refuses a take older than the orphan grace.
      const names = cacheObjectNames(req.orgId, req.cacheKey, newTakeId(this.now()));
      const audio = Buffer.concat(take.audio);
      if (words)
        await this.deps.blobs.put(names.words, Buffer.from(JSON.stringify(words)), {
          contentType: 'application/json',
        });
      await this.deps.blobs.put(names.audio, audio, { contentType: take.contentType });
      const { committed } = await this.deps.bus.request(cacheCommitV1, {
        ...usage,
        objectName: names.audio,
        contentType: take.contentType,
        byteSize: audio.length,
        hasTimings: words !== null,
      });
      return { words, cached: committed };
    } catch (error) {
      // The listener already has the audio; a take that could not be cached is only a later miss.
      this.deps.logger.warn({ err: error, orgId: req.orgId }, 'take not cached');
      return { words, cached: false };
    }
  }
}
