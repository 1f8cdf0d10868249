import {
  identityPolicy,
  loadConfig,
  mirrorAppEnv,
  mirrorAppName,
  replyServicesSettings,
} from '@router/config';
import { createLogger, Health } from '@router/observability';
import { KeyRing } from '@router/provider-keys';
import { closeAll, connectInfrastructure, runService } from '@router/service-kit';
import type { VendorMirror } from '@router/vendors-core';
import { startMirrorApp } from './mirror-app';

/**
 * The whole of a mirror app's `main.ts`: the vendor's mirror app (`mirror-vendor-x`) on its settings
 * (`mirrorAppEnv`, validated at start, naming any bad variable), connected to NATS, Postgres and S3, serving
 * `mirror`. Everything that differs between two mirror apps is the `VendorMirror` passed in.
 */
export function runMirrorApp(mirror: VendorMirror, source: NodeJS.ProcessEnv): void {
  const service = mirrorAppName(mirror.vendor);
  runService(service, async () => {
    const config = loadConfig(mirrorAppEnv(mirror.vendor), source);
    const keyRing = KeyRing.parse(config.PROVIDER_KEY_MASTER_KEYS);
    const logger = createLogger({ service, level: config.LOG_LEVEL });
    const health = new Health(service);
    const infra = await connectInfrastructure(service, config, health, { database: true, blobs: true });
    const app = await startMirrorApp(
      {
        ...replyServicesSettings(config),
        port: config.PORT,
        host: config.HOST,
        identity: identityPolicy(config),
        lookAhead: config.LOOK_AHEAD,
        maxRequestBodyBytes: config.MAX_REQUEST_BODY_BYTES,
        maxSocketMessageBytes: config.MAX_SOCKET_MESSAGE_BYTES,
        ...(config.MIRROR_SOCKET_IDLE_CAP_MS ? { socketIdleCapMs: config.MIRROR_SOCKET_IDLE_CAP_MS } : {}),
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
      mirror,
    );
    return closeAll(infra, app);
  });
}
