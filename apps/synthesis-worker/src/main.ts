import { createBus } from '@router/bus';
import { serveSynthesis } from '@router/synthesis';
import { commonEnv, env, loadConfig, natsEnv } from '@router/config';
import { createLogger, Health } from '@router/observability';
import { closeAll, registerBusReadiness, runService, startBusService } from '@router/service-kit';

const SERVICE = 'synthesis-worker';

const schema = {
  ...commonEnv,
  ...natsEnv,
  PORT: env.int({ default: 3002, min: 0, max: 65535 }),
  HOST: env.string({ default: '0.0.0.0' }),
};

runService(SERVICE, async () => {
  const config = loadConfig(schema, process.env);
  const startedAt = Date.now();
  const logger = createLogger({ service: SERVICE, level: config.LOG_LEVEL });
  const health = new Health(SERVICE);
  const bus = createBus({ kind: 'nats', url: config.NATS_URL, name: SERVICE });
  registerBusReadiness(health, bus);
  const service = await startBusService({
    name: SERVICE,
    port: config.PORT,
    host: config.HOST,
    bus,
    logger,
    health,
    serve: (b) => serveSynthesis(b, startedAt),
  });
  return closeAll(bus, service);
});
