import type { Server } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import {
  AdminModule,
  AuditLog,
  authenticateSocketSession,
  MembersService,
  type MembersSettings,
} from '@router/admin';
import { type ReplyAppDeps, type ReplyServicesConfig, startReplyServices } from '@router/pipeline';
import { ProviderKeyStore } from '@router/provider-keys';
import {
  BusChangeNotifier,
  composeModules,
  Drain,
  followGatewayDrains,
  fillOpenApiPart,
  type IdentityPolicy,
  listeningPort,
  ServiceKitModule,
  startHttpApp,
  within,
} from '@router/service-kit';
import { VENDOR_IDS } from '@router/vendors';
import { CacheEviction } from './cache/cache-eviction.service';
import { NativeApiModule } from './native-api.module';
import { ProviderKeyCheck } from './provider-keys/provider-key-check.service';
import { nativeOpenApiPart } from './openapi/openapi';
import { SPEECH_PATH } from './speech/speech.controller';
import { SpeechService } from './speech/speech.service';
import { STREAM_REPLAN_MS, StreamServer } from './stream/stream.server';
import { VoicesService } from './voices/voices.service';

export interface NativeApiConfig extends ReplyServicesConfig {
  port: number;
  host?: string;
  /** How the gateway's identity header is checked. */
  identity: IdentityPolicy;
  admin: { port: number; host: string; token?: string };
  /** Dashboard sign-in: the admin API prints codes, the provider-key endpoints take sessions. */
  sessions: MembersSettings;
  /** Pieces resolved ahead of the one playing. */
  lookAhead: number;
  /** A /v1/stream connection quiet both ways for this long is closed. */
  streamIdleTimeoutMs: number;
  /** A vendor that has not answered a whole voice list within this fails with provider_timeout. */
  voiceListTimeoutMs: number;
}

export type NativeApiDeps = ReplyAppDeps;

export interface RunningNativeApi {
  port: number;
  adminPort: number;
  /** Fails readiness, refuses new requests and sockets, and waits up to `ms` for the open ones. */
  drain(ms: number): Promise<void>;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** Starts the native API behind the gateway and, on its own listener, the admin API the CLI uses. */
export async function startNativeApi(
  config: NativeApiConfig,
  deps: NativeApiDeps,
): Promise<RunningNativeApi> {
  if (!LOOPBACK.has(config.admin.host) && !config.admin.token) {
    throw new Error('ADMIN_TOKEN is required when ADMIN_HOST is not a loopback address');
  }
  const changes = new BusChangeNotifier(deps.bus, deps.logger);
  const clock = deps.clock;
  const now = clock ? () => clock.now() : Date.now;
  // The native API speaks for every vendor, so its key filters hear of every vendor's commits.
  const replies = await startReplyServices(config, deps, VENDOR_IDS);
  const members = new MembersService(deps.prisma, config.sessions, now);
  const { resolver, planner, keys, upstream } = replies;
  const drain = new Drain(deps.health);
  const speech = new SpeechService({
    resolver,
    planner,
    lookAhead: config.lookAhead,
    logger: deps.logger,
    requestLog: replies.requestLog,
  });
  const voices = new VoicesService({ keys, upstream, timeoutMs: config.voiceListTimeoutMs });
  const eviction = new CacheEviction({ bus: deps.bus, planner, cacheKeySecret: config.cacheKeySecret });
  const streams = new StreamServer({
    resolver,
    planner,
    lookAhead: config.lookAhead,
    logger: deps.logger,
    identity: config.identity,
    idleTimeoutMs: config.streamIdleTimeoutMs,
    replanAfterMs: STREAM_REPLAN_MS,
    now,
    requestLog: replies.requestLog,
    drain,
    metrics: deps.health.metrics,
    // The dashboard's playground speaks through the member's session, never a pasted key.
    sessionOrg: async (headers) => (await authenticateSocketSession(members, headers)).orgId,
  });
  const gatewayDrains = followGatewayDrains(deps.bus, streams);
  const kit = { logger: deps.logger, health: deps.health, ...(deps.clock ? { clock: deps.clock } : {}) };
  const api = await startHttpApp(
    composeModules('NativeApiRoot', [
      ServiceKitModule.forRoot({ ...kit, identity: config.identity }),
      NativeApiModule.forRoot({
        providerKeys: new ProviderKeyStore(deps.prisma, deps.keyRing),
        changes,
        members,
        audit: new AuditLog(deps.prisma),
        speech,
        voices,
        eviction,
        keyCheck: new ProviderKeyCheck({
          voices,
          upstream,
          planner,
          resolver,
          timeoutMs: config.voiceListTimeoutMs,
        }),
      }),
    ]),
    {
      logger: deps.logger,
      port: config.port,
      ...(config.host ? { host: config.host } : {}),
      drain,
      plainRoutes: {
        routes: [
          { method: 'POST', path: SPEECH_PATH, serve: (org, body, res) => speech.serve(org, body, res) },
        ],
        identity: config.identity,
        now,
      },
      beforeListen: (app: INestApplication) => {
        fillOpenApiPart(app, nativeOpenApiPart(app));
        streams.attach(app.getHttpServer() as Server);
      },
    },
  );
  const admin = await startHttpApp(
    composeModules('AdminRoot', [
      ServiceKitModule.forRoot(kit),
      AdminModule.forRoot({
        prisma: deps.prisma,
        changes,
        members,
        evict: (orgId, body) => eviction.evict(orgId, CacheEviction.parse(body)),
        ...(config.admin.token ? { token: config.admin.token } : {}),
      }),
    ]),
    { logger: deps.logger, port: config.admin.port, host: config.admin.host },
  );
  const port = listeningPort(api);
  const adminPort = listeningPort(admin);
  deps.logger.info({ port, adminPort, adminHost: config.admin.host }, 'native api listening');
  return {
    port,
    adminPort,
    async drain(ms) {
      drain.begin();
      await within(Promise.all([drain.idle(), streams.drain()]), ms);
    },
    async close() {
      gatewayDrains.unsubscribe();
      streams.close();
      await Promise.all([api.close(), admin.close()]);
      replies.close();
    },
  };
}
