import {
  env,
  identityPolicy,
  loadConfig,
  replyAppEnv,
  replyServicesSettings,
  sessionEnv,
  sessionSettings,
} from '@router/config';
import { startNativeApi } from '@router/native';
import { createLogger, Health } from '@router/observability';
import { KeyRing } from '@router/provider-keys';
import { closeAll, connectInfrastructure, runService } from '@router/service-kit';

const SERVICE = 'native-api';

const schema = {
  ...replyAppEnv,
  ...sessionEnv,
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
  const infra = await connectInfrastructure(SERVICE, config, health, { database: true, blobs: true });
  const api = await startNativeApi(
    {
      port: config.PORT,
      host: config.HOST,
      identity: identityPolicy(config),
      ...replyServicesSettings(config),
      lookAhead: config.LOOK_AHEAD,
      streamIdleTimeoutMs: config.STREAM_IDLE_TIMEOUT_MS,
      voiceListTimeoutMs: config.VOICE_LIST_TIMEOUT_MS,
      sessions: sessionSettings(config),
      admin: {
        port: config.ADMIN_PORT,
        host: config.ADMIN_HOST,
        ...(config.ADMIN_TOKEN ? { token: config.ADMIN_TOKEN } : {}),
      },
    },
    {
      prisma: infra.db.prisma,
      sql: infra.db.sql,
      bus: infra.bus,
      blobs: infra.blobs,
      keyRing,
      logger,
      health,
    },
  );
  return closeAll(infra, api);
});
