import { serveCache } from '@router/cache';
import { cacheServiceEnv, loadConfig } from '@router/config';
import { createLogger, Health } from '@router/observability';
import { closeAll, connectInfrastructure, runService, startBusService } from '@router/service-kit';

const SERVICE = 'cache-service';

const schema = cacheServiceEnv;

runService(SERVICE, async () => {
  const config = loadConfig(schema, process.env);
  const startedAt = Date.now();
  const logger = createLogger({ service: SERVICE, level: config.LOG_LEVEL });
  const health = new Health(SERVICE);
  const infra = await connectInfrastructure(SERVICE, config, health, { database: true, blobs: true });
  const cache = serveCache(
    {
      bus: infra.bus,
      prisma: infra.db.prisma,
      sql: infra.db.sql,
      blobs: infra.blobs,
      logger,
      startedAt,
      metrics: health.metrics,
    },
    {
      sweepIntervalMs: config.CACHE_SWEEP_INTERVAL_MS,
      orphanGraceMs: config.CACHE_ORPHAN_GRACE_MS,
      usageFlushMs: config.CACHE_USAGE_FLUSH_MS,
      requestLogRetentionDays: config.REQUEST_LOG_RETENTION_DAYS,
    },
  );
  const service = await startBusService({
    name: SERVICE,
    port: config.PORT,
    host: config.HOST,
    bus: infra.bus,
    logger,
    health,
    serve: () => cache.subscriptions,
  });
  return closeAll(infra, cache, service);
});
