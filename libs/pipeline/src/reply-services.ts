import type { BlobStore } from '@router/blob-store';
import type { Bus } from '@router/bus';
import { authChangedV1 } from '@router/contracts';
import type { PrismaClient, Sql } from '@router/db';
import type { Health, Logger } from '@router/observability';
import { type KeyRing, ProviderKeyCache, ProviderKeyStore } from '@router/provider-keys';
import { createUpstreams, type VendorId } from '@router/vendors';
import type { VendorAdapter } from '@router/vendors-core';
import type { Registry } from 'prom-client';
import { OrgRetention } from './org-retention';
import { createPipeline, type PipelineSettings } from './pipeline';
import type { PieceResolver } from './piece-resolver';
import { ReplyPlanner } from './reply-planner';
import { RequestLogWriter, type RequestLogSettings } from './request-log';
import { RequestTakePlanner } from './request-takes';
import { StoredSettings } from './stored-settings';

export interface ReplyServicesConfig {
  cacheKeySecret: string;
  pipeline: PipelineSettings;
  /** How long an org's retention is remembered (change events drop it sooner). */
  orgSettingsTtlMs: number;
  /**
   * The vendors' API bases by token. A serving app calls vendors itself only to read, never to synthesize:
   * settings stored at the vendor (and, for the native API, voice lists).
   */
  vendorBaseUrls: Partial<Record<VendorId, string>>;
  /** How long an opened vendor key is remembered (change events drop it sooner). */
  providerKeyCacheTtlMs: number;
  /** Settings stored at the vendor are re-read at least this often ("about once a minute"). */
  storedSettingsRefreshMs: number;
  /** One read of stored settings longer than this has failed (its pieces are not cached). */
  storedSettingsReadTimeoutMs: number;
  /** While PostgreSQL cannot be read, retention and vendor keys read no longer ago than this still answer. */
  outageStaleMs: number;
  /** The request log writer's queue bound and flush interval (defaults: DEFAULT_REQUEST_LOG_SETTINGS). */
  requestLog?: Partial<RequestLogSettings>;
}

export interface ReplyServicesDeps {
  prisma: PrismaClient;
  sql: Sql;
  bus: Bus;
  blobs: BlobStore;
  keyRing: KeyRing;
  logger: Logger;
  now: () => number;
  /** The app's metrics, where the pipeline's own counters are registered. */
  metrics: Registry;
}

/** What an app that plays replies (the native API, each mirror) is started with. */
export interface ReplyAppDeps extends Omit<ReplyServicesDeps, 'now' | 'metrics'> {
  health: Health;
  /** The app's time (tests set it); the system's when left out. */
  clock?: { now(): number };
}

/** What an app that plays replies uses, wired once and kept current by change events. */
export interface ReplyServices {
  resolver: PieceResolver;
  planner: ReplyPlanner;
  /** Drop-in REST/SSE requests as whole-request takes (mirrors). */
  requests: RequestTakePlanner;
  /** Each org's retention; 0 means nothing is read from or written to the cache. */
  retention: OrgRetention;
  /** The org's vendor keys, opened and remembered briefly. */
  keys: ProviderKeyCache;
  upstream: (vendor: string) => VendorAdapter | undefined;
  /** The request log: each surface records one row per request or socket session when it finishes. */
  requestLog: RequestLogWriter;
  close(): void;
}

/**
 * The reply seam's parts for one serving app (the native API, each mirror): the pipeline (hot tier, cache
 * index, workers), the org's retention, its vendor keys and settings stored at the vendor, each dropped on
 * the org's change events, and the planners that turn a surface's settings into keyed pieces and a drop-in
 * request into its whole-request take. `servedVendors`: the vendors the app serves (see CacheIndex).
 */
export async function startReplyServices(
  config: ReplyServicesConfig,
  app: ReplyAppDeps,
  servedVendors: readonly VendorId[],
): Promise<ReplyServices> {
  const clock = app.clock;
  const now = clock ? () => clock.now() : Date.now;
  const deps: ReplyServicesDeps = { ...app, now, metrics: app.health.metrics };
  const pipeline = await createPipeline(
    { bus: deps.bus, blobs: deps.blobs, sql: deps.sql, logger: deps.logger, now, metrics: deps.metrics },
    config.pipeline,
    servedVendors,
  );
  const retention = new OrgRetention(deps.sql, config.orgSettingsTtlMs, now, config.outageStaleMs);
  const keys = new ProviderKeyCache(
    new ProviderKeyStore(deps.prisma, deps.keyRing),
    config.providerKeyCacheTtlMs,
    now,
    config.outageStaleMs,
  );
  const upstream = createUpstreams(config.vendorBaseUrls);
  const storedSettings = new StoredSettings(
    { keys, upstream, logger: deps.logger, now },
    { refreshMs: config.storedSettingsRefreshMs, readTimeoutMs: config.storedSettingsReadTimeoutMs },
  );
  const orgChanges = deps.bus.subscribe(authChangedV1, (event) => {
    if (event.kind === 'org') retention.forget(event.orgId);
    if (event.kind === 'provider_key') {
      keys.forget(event.orgId, event.provider);
      // Another key may be another vendor account, which stores other settings under the same names.
      storedSettings.forget(event.orgId, event.provider);
    }
  });
  await orgChanges.ready();
  const requestLog = new RequestLogWriter(deps.sql, deps.logger, deps.metrics, config.requestLog);
  return {
    resolver: pipeline.resolver,
    planner: new ReplyPlanner({ retention, storedSettings, cacheKeySecret: config.cacheKeySecret }),
    requests: new RequestTakePlanner({ secret: config.cacheKeySecret, storedSettings }),
    retention,
    keys,
    upstream,
    requestLog,
    close() {
      orgChanges.unsubscribe();
      pipeline.close();
      // What waits is written, or dropped and counted; closing never waits on PostgreSQL for it.
      void requestLog.close();
    },
  };
}
