import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import { keyHashOf, type ReplyAppDeps, type ReplyServicesConfig, startReplyServices } from '@router/pipeline';
import {
  composeModules,
  Drain,
  drainingError,
  followGatewayDrains,
  type IdentityPolicy,
  listeningPort,
  ServiceKitModule,
  serveInFront,
  SocketServer,
  startHttpApp,
  within,
} from '@router/service-kit';
import type { VendorMirror } from '@router/vendors-core';
import { MirrorHttp } from './mirror-http';
import { MirrorSocketRoutes } from './mirror-socket.routes';
import { MirrorSocketSession, SYSTEM_TIMERS } from './mirror-socket.session';

export interface MirrorAppConfig extends ReplyServicesConfig {
  port: number;
  host?: string;
  /** How the gateway's identity header is checked. */
  identity: IdentityPolicy;
  /** Sentences resolved ahead of the one playing, on sockets. */
  lookAhead: number;
  /** The largest request body taken (the gateway's own limit). */
  maxRequestBodyBytes: number;
  /** One socket message's limit; a larger one closes the socket with 1009. */
  maxSocketMessageBytes: number;
  /** When set, no socket waits longer than this for its client (the vendor's own limit is kept when shorter). */
  socketIdleCapMs?: number;
}

export type MirrorAppDeps = ReplyAppDeps;

export interface RunningMirrorApp {
  port: number;
  /** Fails readiness, refuses new requests and sockets, and waits up to `ms` for the open ones. */
  drain(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** A long-lived socket's plan is re-checked (retention, stored settings) at most this often. */
const SOCKET_REPLAN_MS = 1000;
/** Text a socket's splitter may hold without a sentence end before it is spoken anyway. */
const SOCKET_MAX_HELD_CHARS = 20_000;

/**
 * One vendor's mirror behind the gateway: its REST and HTTP-stream endpoints as whole-request takes, its
 * sockets sentence by sentence through the reply seam, everything else (and every refusal) in the vendor's
 * own shapes, plus the probes every app serves. All that differs between two mirror apps is `mirror`.
 */
export async function startMirrorApp(
  config: MirrorAppConfig,
  deps: MirrorAppDeps,
  mirror: VendorMirror,
): Promise<RunningMirrorApp> {
  const clock = deps.clock;
  const now = clock ? () => clock.now() : Date.now;
  const replies = await startReplyServices(config, deps, [mirror.vendor]);
  const http = new MirrorHttp({
    mirror,
    replies,
    identity: config.identity,
    now,
    logger: deps.logger,
    maxRequestBodyBytes: config.maxRequestBodyBytes,
  });
  const routes = new MirrorSocketRoutes(mirror);
  const drain = new Drain(deps.health);
  const sockets = new SocketServer({
    drain,
    metrics: deps.health.metrics,
    name: `mirror ${mirror.vendor}`,
    identity: config.identity,
    now,
    logger: deps.logger,
    maxPayloadBytes: config.maxSocketMessageBytes,
    check: (url, headers) => routes.check(url, headers),
    refusal: (error) => routes.refusal(error),
    idle: (url, headers) => {
      const { route, handshake } = routes.get(url, headers);
      const idle = route.idle(handshake);
      const cap = config.socketIdleCapMs;
      return cap === undefined ? idle : { ...idle, ms: Math.min(idle.ms, cap) };
    },
    open: (peer, orgId, url, headers) => {
      const { route, handshake } = routes.get(url, headers);
      return new MirrorSocketSession(randomUUID(), orgId, peer, route.open(handshake), {
        resolver: replies.resolver,
        planner: replies.planner,
        lookAhead: config.lookAhead,
        replanAfterMs: SOCKET_REPLAN_MS,
        maxHeldChars: SOCKET_MAX_HELD_CHARS,
        now,
        timers: SYSTEM_TIMERS,
        logger: deps.logger,
        goingAway: route.goingAway,
        requestLog: { writer: replies.requestLog, keyHash: keyHashOf(headers), vendor: mirror.vendor },
      });
    },
  });
  const kit = { logger: deps.logger, health: deps.health, ...(clock ? { clock } : {}) };
  const app = await startHttpApp(
    composeModules(`Mirror_${mirror.vendor}`, [
      ServiceKitModule.forRoot({ ...kit, identity: config.identity }),
    ]),
    {
      logger: deps.logger,
      port: config.port,
      ...(config.host ? { host: config.host } : {}),
      drain,
      // While draining, the vendor's own shape for a failure, with the status that says "retry".
      refuseDraining: (req, res) => http.refuse(req, res, drainingError()),
      beforeListen: (nest: INestApplication) => {
        const server = nest.getHttpServer() as Server;
        serveInFront(server, (req, res) => {
          if (!http.owns(req)) return false;
          http.serve(req, res);
          return true;
        });
        sockets.attach(server);
      },
    },
  );
  const gatewayDrains = followGatewayDrains(deps.bus, sockets);
  const port = listeningPort(app);
  deps.logger.info({ port, vendor: mirror.vendor }, 'mirror listening');
  return {
    port,
    async drain(ms) {
      drain.begin();
      await within(Promise.all([drain.idle(), sockets.drain()]), ms);
    },
    async close() {
      gatewayDrains.unsubscribe();
      sockets.close();
      await app.close();
      replies.close();
    },
  };
}
