import { serveCache } from '@router/cache';
import { commonEnv, databaseEnv, env, loadConfig, natsEnv, s3Env } from '@router/config';
import { createLogger, Health } from '@router/observability';
import { closeAll, connectInfrastructure, runService, startBusService } from '@router/service-kit';

const SERVICE = 'cache-service';

const schema = {
  ...commonEnv,
  ...natsEnv,
  ...databaseEnv,
  ...s3Env,
  PORT: env.int({ default: 3003, min: 0, max: 65535 }),
  HOST: env.string({ default: '0.0.0.0' }),
  // Under a day, so that audio goes within retention plus one day of its last use.
  CACHE_SWEEP_INTERVAL_MS: env.int({ default: 3_600_000, min: 1000, max: 43_200_000 }),
  CACHE_ORPHAN_GRACE_MS: env.int({ default: 900_000, min: 0 }),
  CACHE_USAGE_FLUSH_MS: env.int({ default: 2000, min: 10 }),
};

runService(SERVICE, async () => {
  const config = loadConfig(schema, process.env);
  const startedAt = Date.now();
  const logger = createLogger({ service: SERVICE, level: config.LOG_LEVEL });
  const health = new Health(SERVICE);
  const infra = await connectInfrastructure(SERVICE, config, health, { database: true, blobs: true });
  const cache = serveCache(
    { bus: infra.bus, prisma: infra.db.prisma, sql: infra.db.sql, blobs: infra.blobs, logger, startedAt },
    {
      sweepIntervalMs: config.CACHE_SWEEP_INTERVAL_MS,
      orphanGraceMs: config.CACHE_ORPHAN_GRACE_MS,
      usageFlushMs: config.CACHE_USAGE_FLUSH_MS,
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
