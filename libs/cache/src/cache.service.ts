import type { BlobStore } from '@router/blob-store';
import type { Bus, Subscription } from '@router/bus';
import {
  cacheCommitV1,
  cacheEvictV1,
  cacheUsageBatchV1,
  cacheUsageV1,
  healthCacheV1,
} from '@router/contracts';
import type { PrismaClient, Sql } from '@router/db';
import type { Logger } from '@router/observability';
import { Counter, type Registry } from 'prom-client';
import { commitTake } from './commit-take';
import { evictEntries } from './evict-entries';
import { describeError, type CacheContext } from './cache.context';
import { resolveCacheSettings, type CacheServiceSettings } from './cache.settings';
import { sweepOrphans, type OrphanSweepReport } from './orphan-sweep';
import { sweepRequestLog, type RequestLogSweepReport } from './request-log-sweep';
import { sweepRetention, type RetentionSweepReport } from './retention-sweep';
import { type UsageFlushReport, type UsageObserver, UsageRecorder } from './usage-recorder';

export const CACHE_SERVICE = 'cache-service';

/** The first timed sweep comes at most this soon after start, so frequent restarts never skip sweeping. */
const FIRST_SWEEP_MAX_DELAY_MS = 60_000;

export interface CacheServiceDeps {
  bus: Bus;
  prisma: PrismaClient;
  /** The same database as `prisma`, for plain SQL (`Database.sql`). */
  sql: Sql;
  blobs: BlobStore;
  logger: Logger;
  /** When the process started, for `health.cache.v1`'s uptime. Defaults to now. */
  startedAt?: number;
  /** Epoch milliseconds, for every time decision. Defaults to `Date.now`. */
  now?: () => number;
  /** The app's metrics: every usage event (a hit or a synthesis) is counted there, with its characters. */
  metrics?: Registry;
}

export interface SweepReport {
  retention: RetentionSweepReport;
  orphans: OrphanSweepReport;
  requestLog: RequestLogSweepReport;
}

export interface CacheService {
  /** `health.cache.v1`, `cache.commit.v1`, `cache.evict.v1` (served) and `cache.usage.v1` (subscribed). */
  readonly subscriptions: Subscription[];
  /**
   * Flushes buffered usage (so fresh hits count), then the retention sweep, then the orphan sweep, then removes
   * request log rows past `requestLogRetentionDays`. A call
   * while a sweep runs shares that sweep. The timer calls it every `sweepIntervalMs`.
   */
  sweepNow(): Promise<SweepReport>;
  /** Writes buffered last-use refreshes and usage counters now. */
  flushUsage(): Promise<UsageFlushReport>;
  /** Stops the timers and subscriptions, waits for a running sweep, writes buffered usage. Idempotent. */
  close(): Promise<void>;
}

/**
 * Starts the cache service on `deps.bus`: the cache index over the blob store, usage batching, and the
 * timed retention and orphan sweeps. The subscriptions are live on return (await their `ready()`).
 */
export function serveCache(
  deps: CacheServiceDeps,
  settings: Partial<CacheServiceSettings> = {},
): CacheService {
  const now = deps.now ?? Date.now;
  const context: CacheContext = {
    prisma: deps.prisma,
    sql: deps.sql,
    blobs: deps.blobs,
    bus: deps.bus,
    logger: deps.logger,
    now,
    settings: resolveCacheSettings(settings),
  };
  const startedAt = deps.startedAt ?? now();
  const usage = new UsageRecorder(
    deps.prisma,
    deps.logger,
    now,
    deps.metrics ? usageCounters(deps.metrics) : undefined,
  );
  const subscriptions = [
    deps.bus.serve(healthCacheV1, () => ({
      service: CACHE_SERVICE,
      ok: true,
      uptimeMs: Math.max(0, now() - startedAt),
    })),
    deps.bus.serve(cacheCommitV1, (request) => commitTake(context, usage, request)),
    deps.bus.serve(cacheEvictV1, (request) => evictEntries(context, request)),
    // Replicas of cache-service share the usage events, so each is counted once.
    deps.bus.subscribe(cacheUsageV1, (event) => usage.record(event), { queue: 'cache-usage' }),
    deps.bus.subscribe(cacheUsageBatchV1, ({ events }) => events.forEach((event) => usage.record(event)), {
      queue: 'cache-usage',
    }),
  ];

  let sweeping: Promise<SweepReport> | undefined;
  const sweepNow = (): Promise<SweepReport> =>
    (sweeping ??= (async () => {
      await usage.flush();
      const retention = await sweepRetention(context);
      const orphans = await sweepOrphans(context);
      const requestLog = await sweepRequestLog(context);
      return { retention, orphans, requestLog };
    })().finally(() => (sweeping = undefined)));

  const timers: NodeJS.Timeout[] = [];
  const { usageFlushMs, sweepIntervalMs } = context.settings;
  if (usageFlushMs > 0) {
    timers.push(
      setInterval(() => {
        // A failed flush keeps its batch and has already been logged; the next tick retries.
        if (usage.pending > 0) usage.flush().catch(() => undefined);
      }, usageFlushMs),
    );
  }
  const timedSweep = (): void => {
    sweepNow().catch((error: unknown) =>
      deps.logger.error({ error: describeError(error) }, 'cache sweep failed; retried at the next interval'),
    );
  };
  if (sweepIntervalMs > 0) {
    timers.push(setTimeout(timedSweep, Math.min(sweepIntervalMs, FIRST_SWEEP_MAX_DELAY_MS)));
    timers.push(setInterval(timedSweep, sweepIntervalMs));
  }
  // The process is kept alive by its server and bus, not by housekeeping.
  timers.forEach((timer) => timer.unref());

  let closing: Promise<void> | undefined;
  return {
    subscriptions,
    sweepNow,
    flushUsage: () => usage.flush(),
    close: () =>
      (closing ??= (async () => {
        timers.forEach((timer) => clearTimeout(timer));
        subscriptions.forEach((s) => s.unsubscribe());
        await sweeping?.catch(() => undefined);
        await usage.flush();
      })()),
  };
}

/**
 * Usage events as Prometheus counts, by kind (`hit`: served from the cache; `synthesized`: made by a vendor) and
 * vendor: the hit ratio and the characters served from the cache against those synthesized. Each event reaches
 * one cache-service replica (a queue group), so the sum over replicas counts each once.
 */
function usageCounters(registry: Registry): UsageObserver {
  const labelNames = ['kind', 'vendor'] as const;
  const takes = new Counter({
    name: 'router_cache_usage_total',
    help: 'Takes served, by kind (hit: from the cache, synthesized: by the vendor) and vendor',
    labelNames,
    registers: [registry],
  });
  const chars = new Counter({
    name: 'router_cache_usage_chars_total',
    help: 'Characters of the takes served, by kind (hit: from the cache, synthesized: by the vendor) and vendor',
    labelNames,
    registers: [registry],
  });
  return (kind, vendor, count) => {
    takes.inc({ kind, vendor });
    chars.inc({ kind, vendor }, count);
  };
}
