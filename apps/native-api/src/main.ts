import {
  identityPolicy,
  loadConfig,
  nativeApiEnv,
  replyServicesSettings,
  sessionSettings,
} from '@router/config';
import { startNativeApi } from '@router/native';
import { createLogger, Health } from '@router/observability';
import { KeyRing } from '@router/provider-keys';
import { closeAll, connectInfrastructure, runService } from '@router/service-kit';

const SERVICE = 'native-api';

const schema = nativeApiEnv;

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
