import type { BlobStore } from '@router/blob-store';
import type { Bus } from '@router/bus';
import { authChangedV1, cacheInvalidatedV1 } from '@router/contracts';
import type { Sql } from '@router/db';
import type { Logger } from '@router/observability';
import type { VendorId } from '@router/vendors-core';
import { Counter, Histogram, type Registry } from 'prom-client';
import { CacheIndex } from './cache-index';
import { HotTier } from './hot-tier';
import { PieceResolver } from './piece-resolver';
import { UsageReporter } from './usage-reporter';
import { WorkerDirectory } from './worker-directory';

const UNREADABLE = 'router_cache_unreadable_total';
const FIRST_AUDIO = 'router_piece_first_audio_seconds';
/** Seconds to a piece's first audio: milliseconds from the cache, a vendor's hundreds through a worker. */
const FIRST_AUDIO_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10];

export interface PipelineSettings {
  hotTierBytes: number;
  hotTierTtlMs: number;
  /** A worker unheard of for this long is no longer picked (a few heartbeats). */
  workerExpiryMs: number;
  /** How long a piece waits for a first worker heartbeat on a fresh start. */
  workerWaitMs: number;
  streamWindow: number;
  /** Each org's key filter is rebuilt from the cache index this often (see CacheIndex). */
  cacheKeysReloadMs: number;
  /** The longest wait for the cache index or a blob before the piece is taken for a miss. */
  cacheReadTimeoutMs: number;
}

export interface Pipeline {
  resolver: PieceResolver;
  hot: HotTier;
  close(): void;
}

/**
 * What an app that serves audio needs, wired once: the hot tier (kept honest by invalidation events), the
 * cache index reader (told of the commits of `servedVendors` only: the vendors the app serves), the worker
 * directory and the piece resolver.
 */
export async function createPipeline(
  deps: {
    bus: Bus;
    blobs: BlobStore;
    sql: Sql;
    logger?: Logger;
    now?: () => number;
    /** The app's metrics, where the pipeline's own counters are registered. */
    metrics?: Registry;
  },
  settings: PipelineSettings,
  servedVendors: readonly VendorId[],
): Promise<Pipeline> {
  const now = deps.now ?? Date.now;
  const hot = new HotTier({ maxBytes: settings.hotTierBytes, ttlMs: settings.hotTierTtlMs, now });
  const workers = new WorkerDirectory(deps.bus, {
    expiryMs: settings.workerExpiryMs,
    waitMs: settings.workerWaitMs,
    now,
  });
  const index = new CacheIndex(
    deps.sql,
    deps.bus,
    { keysReloadMs: settings.cacheKeysReloadMs, servedVendors, now },
    deps.logger,
  );
  const subscriptions = [
    deps.bus.subscribe(cacheInvalidatedV1, (event) => hot.invalidate(event.orgId, event.cacheKeys)),
    // A retention change or a disabled org: drop the org's hot entries rather than reason about which still hold.
    deps.bus.subscribe(authChangedV1, (event) => {
      if (event.kind === 'org') hot.invalidate(event.orgId);
    }),
  ];
  // Apps composed in one process (standalone) share one registry, and so one counter.
  const unreadable =
    (deps.metrics?.getSingleMetric(UNREADABLE) as Counter<'store'> | undefined) ??
    new Counter({
      name: UNREADABLE,
      help: 'Cache reads that failed or timed out, by store (index or blob); each piece was synthesized instead',
      labelNames: ['store'],
      registers: deps.metrics ? [deps.metrics] : [],
    });
  const firstAudio =
    (deps.metrics?.getSingleMetric(FIRST_AUDIO) as Histogram<'source'> | undefined) ??
    new Histogram({
      name: FIRST_AUDIO,
      help: "Seconds from a piece's request to its first audio in hand, by source (cache, or a worker's take)",
      labelNames: ['source'],
      buckets: FIRST_AUDIO_BUCKETS,
      registers: deps.metrics ? [deps.metrics] : [],
    });
  const usage = new UsageReporter(deps.bus);
  await Promise.all([workers.ready(), index.ready(), ...subscriptions.map((s) => s.ready())]);
  return {
    resolver: new PieceResolver({
      bus: deps.bus,
      blobs: deps.blobs,
      index,
      hot,
      workers,
      usage,
      window: settings.streamWindow,
      cacheReadTimeoutMs: settings.cacheReadTimeoutMs,
      onCacheUnreadable: (store) => unreadable.inc({ store }),
      onFirstAudio: (source, seconds) => firstAudio.observe({ source }, seconds),
      ...(deps.logger ? { logger: deps.logger } : {}),
    }),
    hot,
    close() {
      usage.flush();
      workers.close();
      index.close();
      subscriptions.forEach((s) => s.unsubscribe());
    },
  };
}
