import {
  commonEnv,
  databaseEnv,
  env,
  gatewayTls,
  gatewayTlsEnv,
  loadConfig,
  mirrorUpstreamEnv,
  requestBodyEnv,
  mirrorUrls,
  natsEnv,
  signingEnv,
} from '@router/config';
import { startEdgeGateway } from '@router/edge';
import { createLogger, Health } from '@router/observability';
import { closeAll, connectInfrastructure, runService } from '@router/service-kit';
import { MIRRORS } from '@router/vendors';

const SERVICE = 'edge-gateway';
/** A `MIRROR_VENDOR_X_URL` for each vendor whose registry entry has a mirror. */
const MIRROR_VENDORS = MIRRORS.map((mirror) => mirror.vendor);

const schema = {
  ...commonEnv,
  ...natsEnv,
  ...databaseEnv,
  ...signingEnv,
  PORT: env.int({ default: 8080, min: 0, max: 65535 }),
  HOST: env.string({ default: '0.0.0.0' }),
  // Readiness and metrics: not to be published beside PORT (PORT+1 unless set).
  INTERNAL_PORT: env.portBeside('PORT', 1),
  INTERNAL_HOST: env.string({ default: '0.0.0.0' }),
  // HTTPS and wss:// on TLS_PORT (PORT+3 unless set) with TLS_CERT_FILE and TLS_KEY_FILE, reloaded as they change.
  ...gatewayTlsEnv,
  NATIVE_API_URL: env.url({ protocols: ['http'] }),
  ...mirrorUpstreamEnv(MIRROR_VENDORS),
  /** The dashboard app; unset, the gateway serves no `/dashboard` or `/api/...`. */
  DASHBOARD_URL: env.optionalUrl({ protocols: ['http'] }),
  API_KEY_LAST_USED_FLUSH_MS: env.int({ default: 30_000, min: 10 }),
  AUTH_CACHE_TTL_MS: env.int({ default: 5000, min: 50 }),
  ...requestBodyEnv,
  MAX_SOCKET_MESSAGE_BYTES: env.int({ default: 256 * 1024, min: 1024 }),
};

runService(SERVICE, async () => {
  const config = loadConfig(schema, process.env);
  const logger = createLogger({ service: SERVICE, level: config.LOG_LEVEL });
  const health = new Health(SERVICE);
  const tls = gatewayTls(config);
  const infra = await connectInfrastructure(SERVICE, config, health, { database: true, blobs: false });
  const gateway = await startEdgeGateway(
    {
      port: config.PORT,
      host: config.HOST,
      internalPort: config.INTERNAL_PORT,
      internalHost: config.INTERNAL_HOST,
      ...(tls ? { tls } : {}),
      nativeApiUrl: config.NATIVE_API_URL,
      mirrorUrls: mirrorUrls(config, MIRROR_VENDORS),
      ...(config.DASHBOARD_URL ? { dashboardUrl: config.DASHBOARD_URL } : {}),
      keyUseFlushMs: config.API_KEY_LAST_USED_FLUSH_MS,
      signingSecret: config.INTERNAL_SIGNING_SECRET,
      authCacheTtlMs: config.AUTH_CACHE_TTL_MS,
      maxRequestBodyBytes: config.MAX_REQUEST_BODY_BYTES,
      maxSocketMessageBytes: config.MAX_SOCKET_MESSAGE_BYTES,
    },
    { prisma: infra.db.prisma, bus: infra.bus, logger, health },
  );
  return closeAll(infra, gateway);
});
