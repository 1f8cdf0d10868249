import { edgeGatewayEnv, gatewayTls, loadConfig, mirrorUrls, orgLimitDefaults } from '@router/config';
import { startEdgeGateway } from '@router/edge';
import { createLogger, Health } from '@router/observability';
import { closeAll, connectInfrastructure, runService } from '@router/service-kit';
import { MIRRORS } from '@router/vendors';

const SERVICE = 'edge-gateway';
/** A `MIRROR_VENDOR_X_URL` for each vendor whose registry entry has a mirror. */
const MIRROR_VENDORS = MIRRORS.map((mirror) => mirror.vendor);

const schema = edgeGatewayEnv(MIRROR_VENDORS);

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
      outageStaleMs: config.DATABASE_OUTAGE_STALE_MS,
      maxRequestBodyBytes: config.MAX_REQUEST_BODY_BYTES,
      maxSocketMessageBytes: config.MAX_SOCKET_MESSAGE_BYTES,
      clientStallMs: config.CLIENT_STALL_TIMEOUT_MS,
      upstreamConnections: config.UPSTREAM_CONNECTIONS,
      orgLimits: orgLimitDefaults(config),
    },
    { prisma: infra.db.prisma, bus: infra.bus, logger, health },
  );
  return closeAll(infra, gateway);
});
