import { serveSynthesis } from '@router/synthesis';
import { commonEnv, databaseEnv, env, loadConfig, natsEnv, providerKeyEnv, s3Env } from '@router/config';
import { createLogger, Health } from '@router/observability';
import { KeyRing } from '@router/provider-keys';
import { closeAll, connectInfrastructure, runService, startBusService } from '@router/service-kit';

const SERVICE = 'synthesis-worker';

const schema = {
  ...commonEnv,
  ...natsEnv,
  ...databaseEnv,
  ...s3Env,
  ...providerKeyEnv,
  PORT: env.int({ default: 3002, min: 0, max: 65535 }),
  HOST: env.string({ default: '0.0.0.0' }),
};

runService(SERVICE, async () => {
  const config = loadConfig(schema, process.env);
  KeyRing.parse(config.PROVIDER_KEY_MASTER_KEYS); // fail fast on a bad key ring; the worker opens vendor keys
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
    serve: (bus) => serveSynthesis(bus, startedAt),
  });
  return closeAll(infra, service);
});
