import { createBus } from '@router/bus';
import { commonEnv, databaseEnv, env, loadConfig, natsEnv, providerKeyEnv, signingEnv } from '@router/config';
import { createDatabase } from '@router/db';
import { startNativeApi } from '@router/native';
import { createLogger, Health } from '@router/observability';
import { KeyRing } from '@router/provider-keys';
import { closeAll, registerBusReadiness, runService } from '@router/service-kit';

const SERVICE = 'native-api';

const schema = {
  ...commonEnv,
  ...natsEnv,
  ...databaseEnv,
  ...signingEnv,
  ...providerKeyEnv,
  PORT: env.int({ default: 3001, min: 0, max: 65535 }),
  HOST: env.string({ default: '0.0.0.0' }),
  ADMIN_PORT: env.int({ default: 3100, min: 0, max: 65535 }),
  ADMIN_HOST: env.string({ default: '127.0.0.1' }),
  ADMIN_TOKEN: env.optionalString(),
};

runService(SERVICE, async () => {
  const config = loadConfig(schema, process.env);
  const keyRing = KeyRing.parse(config.PROVIDER_KEY_MASTER_KEYS);
  const logger = createLogger({ service: SERVICE, level: config.LOG_LEVEL });
  const health = new Health(SERVICE);
  const db = await createDatabase({ url: config.DATABASE_URL });
  const bus = createBus({ kind: 'nats', url: config.NATS_URL, name: SERVICE });
  registerBusReadiness(health, bus);
  const api = await startNativeApi(
    {
      port: config.PORT,
      host: config.HOST,
      signingSecret: config.INTERNAL_SIGNING_SECRET,
      admin: { port: config.ADMIN_PORT, host: config.ADMIN_HOST, ...(config.ADMIN_TOKEN ? { token: config.ADMIN_TOKEN } : {}) },
    },
    { prisma: db.prisma, bus, keyRing, logger, health },
  );
  return closeAll(db, bus, api);
});
