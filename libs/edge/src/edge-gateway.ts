import { ORG_STANDING_FIELDS, orgStandingOf } from '@router/auth';
import type { Bus } from '@router/bus';
import { authChangedV1, gatewayDrainingV1 } from '@router/contracts';
import type { PrismaClient } from '@router/db';
import type { Health, Logger } from '@router/observability';
import { mirrorAccess, VENDOR_ENTRIES, type VendorId } from '@router/vendors';
import type { SocketClose } from '@router/vendors-core';
import { GatewayServer, type GatewayTls } from './gateway.server';
import { type AuthSource, KeyDirectory } from './key-directory';
import { KeyUseRecorder, writeKeyUses } from './key-uses';
import { mirrorRoute } from './mirror-route';
import { OrgLimiter, type OrgLimitOverrides, type OrgLimits } from './org-limiter';
import { dashboardRoute, nativeRoute, RouteTable, type SurfaceRoute } from './surface-routes';

export interface EdgeGatewayConfig {
  port: number;
  host?: string;
  /** The public port's twin over TLS, with the gateway's own certificate (docs/operations.md). */
  tls?: GatewayTls & { port: number; host?: string };
  /** Readiness and metrics (and liveness), kept off the public port. */
  internalPort: number;
  internalHost?: string;
  nativeApiUrl: string;
  /** The mirror app of each vendor that has one; a vendor left out has no route (its paths are unknown). */
  mirrorUrls: Partial<Record<VendorId, string>>;
  /** The dashboard app (`/dashboard`, `/api/...`); without it those paths are unknown. */
  dashboardUrl?: string;
  /** How often the API keys' last use is written (each admitted key's use is kept in memory until then). */
  keyUseFlushMs?: number;
  signingSecret: string;
  /** How long the gateway trusts what it remembers of a key or org before refreshing it behind a request. */
  authCacheTtlMs: number;
  /** While PostgreSQL cannot be read, a key or org read no longer ago than this still answers. */
  outageStaleMs: number;
  /** The largest request body forwarded (each is read whole to sign its digest); larger ones get 413. */
  maxRequestBodyBytes: number;
  /** The largest WebSocket message read on a relayed socket (a larger one closes it with 1009). */
  maxSocketMessageBytes: number;
  /** A client that takes nothing of an HTTP answer for this long is cut (0: never). */
  clientStallMs: number;
  /** Connections kept to each app behind (256 unless given); an HTTP answer holds one while its client reads. */
  upstreamConnections?: number;
  /** Each org's limits where its record sets none (`ORG_LIMIT_*`; 0: none), kept by this replica alone. */
  orgLimits: OrgLimits;
}

export interface EdgeGatewayDeps {
  prisma: PrismaClient;
  bus: Bus;
  logger: Logger;
  health: Health;
  now?: () => number;
}

export interface RunningGateway {
  port: number;
  /** The TLS port, when the gateway has one. */
  tlsPort?: number;
  internalPort: number;
  directory: KeyDirectory;
  /**
   * Fails readiness, refuses new requests and handshakes (503 in each surface's shape), tells the apps behind
   * to drain the sockets through this gateway, and waits up to `ms` for what is open.
   */
  drain(ms: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * How often every open socket is checked again against the key directory, for a revocation whose change event
 * was lost: with the directory's TTL, such a change closes a socket within the TTL and a second or two.
 */
const SOCKET_RECHECK_MS = 1000;

/** An API key's last use is written within this (the dashboard shows it to the minute). */
const KEY_USE_FLUSH_MS = 30_000;

/** Postgres as the key directory's source, read only on misses and refreshes. */
export function prismaAuthSource(prisma: PrismaClient): AuthSource {
  return {
    async findKey(keyHash) {
      const row = await prisma.apiKey.findUnique({
        where: { keyHash },
        select: { orgId: true, revokedAt: true, expiresAt: true },
      });
      return (
        row && {
          orgId: row.orgId,
          revoked: row.revokedAt !== null,
          ...(row.expiresAt ? { expiresAt: row.expiresAt.getTime() } : {}),
        }
      );
    },
    async findOrg(orgId) {
      const row = await prisma.org.findUnique({
        where: { id: orgId },
        select: {
          ...ORG_STANDING_FIELDS,
          providerKeys: { select: { provider: true } },
          limitConcurrentSyntheses: true,
          limitOpenSockets: true,
          limitRequestsPerSecond: true,
        },
      });
      if (!row) return null;
      const limits = orgLimitOverrides(row);
      return {
        ...orgStandingOf(row),
        vendorKeys: row.providerKeys.map((key) => key.provider),
        ...(limits ? { limits } : {}),
      };
    },
  };
}

/** The native API and one route per configured mirror, each built from its vendor's registry entry. */
export function gatewayRoutes(
  config: Pick<EdgeGatewayConfig, 'nativeApiUrl' | 'mirrorUrls' | 'dashboardUrl'>,
): SurfaceRoute[] {
  const mirrors = (Object.entries(config.mirrorUrls) as Array<[VendorId, string | undefined]>).flatMap(
    ([vendor, url]) =>
      url === undefined
        ? []
        : [mirrorRoute(mirrorAccess(vendor), url, mirrorSocketPaths(vendor), mirrorGoingAway(vendor))],
  );
  const dashboard = config.dashboardUrl === undefined ? [] : [dashboardRoute(config.dashboardUrl)];
  return [nativeRoute(config.nativeApiUrl), ...dashboard, ...mirrors];
}

/**
 * The WebSocket paths a vendor's mirror serves, from its registry entry (`VendorMirror.sockets`), so a new
 * mirror's sockets need no gateway change; a vendor whose folder has no mirror yet serves none.
 */
export function mirrorSocketPaths(vendor: VendorId): readonly RegExp[] {
  return VENDOR_ENTRIES[vendor].mirror?.sockets.map((socket) => socket.path) ?? [];
}

/** An org row's own limits (null columns: the default), or undefined when it sets none. */
function orgLimitOverrides(row: {
  limitConcurrentSyntheses: number | null;
  limitOpenSockets: number | null;
  limitRequestsPerSecond: number | null;
}): OrgLimitOverrides | undefined {
  const limits: OrgLimitOverrides = {
    ...(row.limitConcurrentSyntheses === null ? {} : { concurrentSyntheses: row.limitConcurrentSyntheses }),
    ...(row.limitOpenSockets === null ? {} : { openSockets: row.limitOpenSockets }),
    ...(row.limitRequestsPerSecond === null ? {} : { requestsPerSecond: row.limitRequestsPerSecond }),
  };
  return Object.keys(limits).length > 0 ? limits : undefined;
}

/** The vendor's close for a server going away on its socket at `vendorPath` (its folder's `goingAway`). */
export function mirrorGoingAway(vendor: VendorId): (vendorPath: string) => SocketClose | undefined {
  const sockets = VENDOR_ENTRIES[vendor].mirror?.sockets ?? [];
  return (vendorPath) => sockets.find((socket) => socket.path.test(vendorPath))?.goingAway;
}

export async function startEdgeGateway(
  config: EdgeGatewayConfig,
  deps: EdgeGatewayDeps,
): Promise<RunningGateway> {
  const now = deps.now ?? Date.now;
  const directory = new KeyDirectory(prismaAuthSource(deps.prisma), {
    ttlMs: config.authCacheTtlMs,
    maxStaleMs: config.authCacheTtlMs * 6,
    outageStaleMs: config.outageStaleMs,
    maxEntries: 100_000,
    now,
  });
  const keyUses = new KeyUseRecorder(writeKeyUses(deps.prisma), deps.logger, now);
  keyUses.start(config.keyUseFlushMs ?? KEY_USE_FLUSH_MS);
  // Created before the subscription, which checks its open sockets; it listens only once subscribed.
  const server = new GatewayServer({
    routes: new RouteTable(gatewayRoutes(config)),
    directory,
    signingSecret: config.signingSecret,
    logger: deps.logger,
    health: deps.health,
    now,
    upstreamHeadersTimeoutMs: 30_000,
    maxRequestBodyBytes: config.maxRequestBodyBytes,
    maxSocketMessageBytes: config.maxSocketMessageBytes,
    clientStallMs: config.clientStallMs,
    ...(config.upstreamConnections ? { upstreamConnections: config.upstreamConnections } : {}),
    socketRecheckMs: SOCKET_RECHECK_MS,
    keyUses,
    limiter: new OrgLimiter(config.orgLimits, now),
  });
  const subscription = deps.bus.subscribe(authChangedV1, (event) => {
    // An org's stored vendor keys are part of its record: a key stored or deleted drops the org too. A change
    // of an org or key checks that org's or key's open sockets at once (a vendor key's closes none).
    if (event.kind === 'org' || event.kind === 'provider_key') directory.forgetOrg(event.orgId);
    if (event.kind === 'org') void server.recheckSockets({ orgId: event.orgId });
    if (event.kind === 'api_key' && event.keyHash) {
      directory.forgetKey(event.keyHash);
      void server.recheckSockets({ keyHash: event.keyHash });
    }
  });
  await subscription.ready();
  const { tls } = config;
  // First: a certificate that cannot be used stops the start before any port is open.
  const tlsPort = tls
    ? await server.listenTls(tls.port, tls.host ?? config.host ?? '0.0.0.0', tls)
    : undefined;
  const port = await server.listen(config.port, config.host);
  const internalPort = await server.listenInternal(config.internalPort, config.internalHost);
  deps.logger.info({ port, tlsPort, internalPort }, 'edge gateway listening');
  return {
    port,
    ...(tlsPort === undefined ? {} : { tlsPort }),
    internalPort,
    directory,
    async drain(ms) {
      const told = deps.bus
        .publish(gatewayDrainingV1, { gatewayId: server.instanceId })
        .catch((error: unknown) =>
          deps.logger.warn({ err: error }, 'could not tell the apps that this gateway drains'),
        );
      await Promise.all([told, server.drain(ms)]);
    },
    async close() {
      subscription.unsubscribe();
      await server.close();
      await keyUses.stop();
    },
  };
}
