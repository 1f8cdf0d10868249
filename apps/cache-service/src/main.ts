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
};

runService(SERVICE, async () => {
  const config = loadConfig(schema, process.env);
  const startedAt = Date.now();
  const logger = createLogger({ service: SERVICE, level: config.LOG_LEVEL });
  const health = new Health(SERVICE);
  const infra = await connectInfrastructure(SERVICE, config, health, { database: true, blobs: true });
  const service = await startBusService({
    name: SERVICE,
    port: config.PORT,
    host: config.HOST,
    bus: infra.bus,
    logger,
    health,
    serve: (bus) => serveCache(bus, startedAt),
  });
  return closeAll(infra, service);
});
