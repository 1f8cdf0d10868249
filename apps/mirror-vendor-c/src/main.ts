import {
  env,
  identityPolicy,
  loadConfig,
  replyAppEnv,
  replyServicesSettings,
  requestBodyEnv,
} from '@router/config';
import { startMirrorApp } from '@router/mirror';
import { createLogger, Health } from '@router/observability';
import { KeyRing } from '@router/provider-keys';
import { closeAll, connectInfrastructure, runService } from '@router/service-kit';
import { vendorCMirror } from '@router/vendor-c';

const SERVICE = 'mirror-vendor-c';

const schema = {
  ...replyAppEnv,
  ...requestBodyEnv,
  PORT: env.int({ default: 3013, min: 0, max: 65535 }),
  HOST: env.string({ default: '0.0.0.0' }),
  MAX_SOCKET_MESSAGE_BYTES: env.int({ default: 256 * 1024, min: 1024 }),
};

runService(SERVICE, async () => {
  const config = loadConfig(schema, process.env);
  const keyRing = KeyRing.parse(config.PROVIDER_KEY_MASTER_KEYS);
  const logger = createLogger({ service: SERVICE, level: config.LOG_LEVEL });
  const health = new Health(SERVICE);
  const infra = await connectInfrastructure(SERVICE, config, health, { database: true, blobs: true });
  const mirror = await startMirrorApp(
    {
      ...replyServicesSettings(config),
      port: config.PORT,
      host: config.HOST,
      identity: identityPolicy(config),
      lookAhead: config.LOOK_AHEAD,
      maxRequestBodyBytes: config.MAX_REQUEST_BODY_BYTES,
      maxSocketMessageBytes: config.MAX_SOCKET_MESSAGE_BYTES,
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
    vendorCMirror,
  );
  return closeAll(infra, mirror);
});
