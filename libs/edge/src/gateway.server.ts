import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:https';
import type { Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import type { Duplex } from 'node:stream';
import { Pool } from 'undici';
import { Counter, Gauge } from 'prom-client';
import { WebSocketServer } from 'ws';
import {
  ANONYMOUS_ORG,
  digestBody,
  EMPTY_BODY_DIGEST,
  hashApiKey,
  hashSecret,
  IDENTITY_HEADER,
  KEY_HASH_HEADER,
  readSessionCookie,
  signIdentity,
} from '@router/auth';
import { RouterError } from '@router/contracts';
import type { Health, Logger } from '@router/observability';
import type { TlsFiles } from '@router/config';
import { cutBody, Drain, drainingError, OPENAPI_PART_PATH, within } from '@router/service-kit';
import { failureCause } from './failure-cause';
import { ForwardedResponse, hasBody, readBody } from './forwarded-response';
import {
  cameOverTls,
  FORWARDED_HOST,
  FORWARDED_PROTO,
  forwardedPath,
  HOP_BY_HOP,
  offeredKey,
  readRequestId,
  REQUEST_ID,
  routeRequest,
} from './forwarding';
import type { KeyDirectory } from './key-directory';
import { ComposedOpenApi, type OpenApiObject } from './openapi-document';
import { type MirrorRevocationKind, PROTOCOL_HEADER } from '@router/vendors-core';
import { type SocketFilter, SocketRegistry } from './socket-registry';
import { refuseUpgradeKeepingConnection, writeRawAnswer } from './refused-upgrade';
import type { LimitedUse, OrgLimiter, OrgLimitOverrides, OrgLimits } from './org-limiter';
import { type RelayGate, relayKeyedSocket } from './socket-relay';
import { type SpliceGate, SplicedSocket } from './spliced-socket';
import { CertificateReloader, readTlsPair } from './tls-certificate';
import {
  type AccessProblem,
  jsonRefusal,
  notFoundRefusal,
  type Refusal,
  type RouteRequest,
  type RouteTable,
  surfaceRefusal,
  type SurfaceRoute,
} from './surface-routes';

export interface GatewayOptions {
  routes: RouteTable;
  directory: KeyDirectory;
  signingSecret: string;
  logger: Logger;
  health: Health;
  now: () => number;
  /** How long to wait for an app's response head; audio bodies themselves may stream for long. */
  upstreamHeadersTimeoutMs: number;
  /**
   * A client that takes nothing of a forwarded answer for this long is cut (its answer stops at the app behind,
   * as when it leaves); absent or 0: it is held for as long as it stays connected.
   */
  clientStallMs?: number;
  /** Connections kept to each app behind (256 unless given); an HTTP answer holds one while its client reads. */
  upstreamConnections?: number;
  /** The largest request body forwarded; each is read whole, since the identity signs its digest. */
  maxRequestBodyBytes: number;
  /** The largest WebSocket message the gateway reads (relayed sockets); a larger one closes the socket with 1009. */
  maxSocketMessageBytes: number;
  /** How often every open socket's key and org are checked again (a change event checks its own at once). */
  socketRecheckMs: number;
  /** Told of every admitted key (by its hash): when each key was last used. */
  keyUses?: { record(keyHash: string): void };
  /** How this gateway names itself on the upgrades it forwards (random unless given). */
  instanceId?: string;
  /** Each org's limits, kept in this process (none without it). */
  limiter?: OrgLimiter;
}

/** The gateway's own TLS: its certificate's files, read again every `reloadMs`. */
export interface GatewayTls extends TlsFiles {
  reloadMs: number;
}

/** How long the sockets still open when a drain's time is up get to take their going-away close. */
const GOING_AWAY_BOUND_MS = 2000;

/** An app behind the gateway that cannot be reached (restarting, draining, down): the client should retry. */
const APP_UNREACHABLE = 'The router could not reach the service behind it; retry.';
/** `Strict-Transport-Security` on every answer of the TLS port: a year, this host only (not its subdomains). */
const HSTS = 'max-age=31536000';

/** How long an idle keep-alive connection of a client stays open (longer than the usual load balancer's 60 s). */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** How long the composed OpenAPI document is served before its parts are read again. */
const OPENAPI_KEEP_MS = 10_000;

/** An admitted use of the router: the org it is for, and what frees its place under the org's limits. */
interface Admitted {
  orgId: string;
  release: () => void;
}

const NOTHING_HELD = (): void => undefined;

/** Whom a dashboard session's uses count against in the limiter: its token's hash (one bucket for no token). */
function sessionLimitId(headers: IncomingMessage['headers']): string {
  const token = readSessionCookie(headers);
  return `session:${token === undefined ? '-' : hashSecret(token)}`;
}

/** How the limit counter names each limit. */
const LIMIT_LABEL: Record<keyof OrgLimits, string> = {
  concurrentSyntheses: 'concurrent_syntheses',
  openSockets: 'open_sockets',
  requestsPerSecond: 'requests_per_second',
};

/** The metrics outcome of each refusal (the native surface's names from before mirrors). */
const OUTCOME_OF: Record<AccessProblem['kind'], string> = {
  'missing-key': 'unauthorized',
  'invalid-key': 'unauthorized',
  'org-disabled': 'unauthorized',
  'no-vendor-key': 'no_vendor_key',
  'out-of-credit': 'insufficient_credits',
  failure: 'auth_error',
};

/**
 * The one public port (and, with TLS of its own, its HTTPS twin serving the same). It finds the surface from
 * the path, authenticates from memory, refuses in the surface's own shape, and forwards to the app behind with
 * a signed identity over keep-alive pools. A request body is read whole first (up to maxRequestBodyBytes:
 * request bodies are JSON documents, never audio), since the identity signs its digest, and sent with the head
 * in one write, so the app reads the whole request at once; every response is piped, never buffered;
 * WebSocket upgrades are spliced as raw sockets after the handshake check.
 */
export class GatewayServer {
  private readonly server: Server;
  /** The public port over TLS, once `listenTls` made it, and what keeps its certificate current. */
  private tls: { server: TlsServer; certificates: CertificateReloader } | undefined;
  /** Readiness and metrics, on a port of their own that is not published (as every app behind serves them). */
  private readonly internal: Server;
  private readonly pools = new Map<string, Pool>();
  private readonly requests: Counter<'surface' | 'outcome'>;
  /** Answers to the requests it forwarded or refused, by surface and status class (2xx … 5xx). */
  private readonly responses: Counter<'surface' | 'status_class'>;
  /** Refusals for an org's limit, by surface and which limit. */
  private readonly limited: Counter<'surface' | 'limit'>;
  /** Completes the handshakes of sockets refused or relayed message by message (a key in the first message). */
  private readonly sockets: WebSocketServer;
  private readonly gate: RelayGate & SpliceGate;
  /** Every open socket (spliced or relayed) with its key's hash and org, closed when either is revoked. */
  private readonly openSockets: SocketRegistry;
  /** The spliced sockets open now, cut when the gateway closes. */
  private readonly splices = new Set<SplicedSocket>();
  /**
   * The sub-protocol a relayed handshake's answer names where the client offered its key in one (the app
   * behind sees no protocols): the first other protocol offered, as ws answers, else the key's own.
   */
  private readonly protocolAnswers = new WeakMap<IncomingMessage, string>();
  /** While draining, new requests and handshakes get the surface's 503; open ones are counted here. */
  private readonly drainState: Drain;
  /** How this gateway names itself to the apps behind on the upgrades it forwards. */
  readonly instanceId: string;
  /** The public `/openapi.json`: the parts of the surfaces that describe themselves, together. */
  private readonly openApi: ComposedOpenApi;

  constructor(private readonly options: GatewayOptions) {
    this.instanceId = options.instanceId ?? randomBytes(8).toString('hex');
    this.drainState = new Drain(options.health);
    this.sockets = new WebSocketServer({
      noServer: true,
      maxPayload: options.maxSocketMessageBytes,
      // As ws answers by default (the first protocol offered), unless a key came in one.
      handleProtocols: (offered, req) =>
        this.protocolAnswers.get(req) ?? offered.values().next().value ?? false,
    });
    this.openSockets = new SocketRegistry(options.directory, options.logger);
    this.openSockets.startSweeps(options.socketRecheckMs);
    this.gate = {
      authorize: (route, request, key, rawHeaders, use) =>
        this.authorize(route, request, key, rawHeaders, use),
      instanceId: this.instanceId,
      identity: (method, path, orgId) =>
        signIdentity(
          { method, path, orgId, bodyDigest: EMPTY_BODY_DIGEST },
          this.options.signingSecret,
          this.options.now(),
        ),
      track: (route, key, orgId, revoke) => this.track(route, key, orgId, revoke),
      logger: options.logger,
      count: (surface, outcome) => this.count(surface, outcome),
      writeHandshakeRefusal,
    };
    const described = options.routes.routes.filter((route) => route.openApiPart === true);
    this.openApi = new ComposedOpenApi(
      () => Promise.all(described.map((route) => this.readOpenApiPart(route))),
      OPENAPI_KEEP_MS,
      options.now,
    );
    this.server = this.servePublic(
      createServer({ keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS }, (req, res) => this.serveRequest(req, res)),
    );
    this.internal = createServer((req, res) => {
      this.onInternalRequest(req, res).catch((error: unknown) => {
        this.logFailure('internal', error);
        const failure = RouterError.unexpected(error);
        if (res.headersSent) return void cutBody(res, failure);
        writeRefusal(res, jsonRefusal(failure.status, failure.toEnvelope()));
      });
    });
    this.requests = new Counter({
      name: 'gateway_requests_total',
      help: 'Requests and WebSocket handshakes seen by the gateway, by surface and outcome',
      labelNames: ['surface', 'outcome'],
      registers: [options.health.metrics],
    });
    this.limited = new Counter({
      name: 'gateway_rate_limited_total',
      help: "Requests and handshakes refused with 429 for an org's limit on this replica, by surface and limit",
      labelNames: ['surface', 'limit'],
      registers: [options.health.metrics],
    });
    this.responses = new Counter({
      name: 'gateway_responses_total',
      help: 'HTTP answers the gateway sent (forwarded or its own refusals), by surface and status class',
      labelNames: ['surface', 'status_class'],
      registers: [options.health.metrics],
    });
    const openSockets = this.openSockets;
    new Gauge({
      name: 'gateway_open_sockets',
      help: 'WebSockets open through this gateway (spliced or relayed), by surface',
      labelNames: ['surface'],
      registers: [options.health.metrics],
      collect() {
        this.reset();
        for (const [surface, count] of openSockets.countBySurface()) this.set({ surface }, count);
      },
    });
  }

  /** The public port: the surfaces, and `/healthz` for a load balancer in front. */
  listen(port: number, host = '0.0.0.0'): Promise<number> {
    return listenOn(this.server, port, host);
  }

  /**
   * The public port's twin over TLS (HTTPS and wss://), with the certificate and key from `tls`'s files, which
   * must make a pair; they are read again every `tls.reloadMs`, and a changed pair is served from the next
   * connection on.
   */
  listenTls(port: number, host: string, tls: GatewayTls): Promise<number> {
    const pair = readTlsPair(tls);
    const server = this.servePublic(
      createTlsServer({ keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS, ...pair }, (req, res) =>
        this.serveRequest(req, res),
      ),
    );
    const certificates = new CertificateReloader(
      tls,
      pair,
      (next) => server.setSecureContext(next),
      this.options.logger,
    );
    certificates.start(tls.reloadMs);
    this.tls = { server, certificates };
    return listenOn(server, port, host);
  }

  /** The internal port: `/healthz`, `/readyz` and `/metrics`, for probes and scrapers inside the cluster. */
  listenInternal(port: number, host = '0.0.0.0'): Promise<number> {
    return listenOn(this.internal, port, host);
  }

  /**
   * Checks the open sockets a change concerns (a key's, an org's) against the key directory at once, closing
   * those it no longer admits; the periodic sweep does the same for every socket, for changes whose event was lost.
   */
  recheckSockets(filter: SocketFilter): Promise<void> {
    return this.openSockets.recheck(filter);
  }

  /**
   * Fails readiness and takes no new work (requests and handshakes get the surface's 503 `unavailable`), then
   * waits, up to `ms`, for the forwarded requests to be answered and the open sockets to close (the apps behind
   * close the ones through this gateway once they have played out what they were given: `gateway.draining.v1`).
   */
  async drain(ms: number): Promise<void> {
    this.drainState.begin();
    await within(Promise.all([this.drainState.idle(), this.socketsClosed()]), ms);
  }

  /** Resolves once no spliced or relayed socket is open. */
  private async socketsClosed(): Promise<void> {
    while (this.splices.size > 0 || this.sockets.clients.size > 0) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Closes the sockets still open with their surface's going-away, each at a message boundary. */
  private async sayGoingAway(): Promise<void> {
    if (this.splices.size === 0 && this.sockets.clients.size === 0) return;
    for (const splice of this.splices) splice.goAway();
    for (const client of this.sockets.clients) client.close(1001, 'going away');
    await within(this.socketsClosed(), GOING_AWAY_BOUND_MS);
  }

  async close(): Promise<void> {
    await this.sayGoingAway();
    this.openSockets.stop();
    this.tls?.certificates.stop();
    if (this.internal.listening) await new Promise<void>((resolve) => this.internal.close(() => resolve()));
    const publics = [this.server, ...(this.tls ? [this.tls.server] : [])];
    const closed = Promise.all(
      publics.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
    );
    // Sockets are connections of the server too, and would hold its close until their clients left.
    for (const client of this.sockets.clients) client.terminate();
    for (const splice of this.splices) splice.destroy();
    await closed;
    for (const server of publics) server.closeAllConnections();
    await new Promise<void>((resolve) => this.sockets.close(() => resolve()));
    await Promise.all([...this.pools.values()].map((pool) => pool.close()));
  }

  /** Wires a public server (plain or TLS) to the gateway's handling, the same for both. */
  private servePublic<S extends Server | TlsServer>(server: S): S {
    // A client that half-closes once its request is sent (HTTP/1.0 tools, nc) still reads the answer: without
    // this, Node aborts the request on the client's FIN and the answer, though the app made it, never leaves.
    // (Node's own switch for it: undocumented, absent from its types, there since Node 0.x.)
    (server as S & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
    // Node would answer `Expect: 100-continue` itself; a body declared too large is refused without it instead.
    server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
      if (!(Number(req.headers['content-length']) > this.options.maxRequestBodyBytes)) res.writeContinue();
      this.serveRequest(req, res);
    });
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) =>
      this.serveUpgrade(server, req, socket as Socket, head),
    );
    return server;
  }

  /**
   * One request inside its own boundary: whatever fails in the gateway's handling of it (a request target no
   * URL parser takes, a surface's reader) is logged with its cause and answered with the surface's refusal
   * for a failure of the router (the native envelope's 500 when no surface is known), or the answer begun is
   * cut; the process and every other connection go on.
   */
  private serveRequest(req: IncomingMessage, res: ServerResponse): void {
    this.onRequest(req, res).catch((error: unknown) => {
      this.logFailure('request', error);
      if (res.headersSent) return void cutBody(res, RouterError.unexpected(error));
      writeRefusal(res, this.failureRefusal(req, error));
    });
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://gateway');
    const requestId = readRequestId(req);
    const route = this.options.routes.find(url.pathname);
    // A mirror answers with the vendor's headers alone (a vendor may name its own request id so); the router's
    // id still reaches the app and its logs.
    if (!route?.vendor) res.setHeader(REQUEST_ID, requestId);
    // Browsers that reached the TLS port once keep to it (a page of the dashboard is never fetched in clear).
    if (cameOverTls(req)) res.setHeader('strict-transport-security', HSTS);
    if (req.method === 'GET' && url.pathname === '/healthz') return void this.answerLiveness(res);
    if (this.drainState.draining) {
      this.count(route?.name ?? 'none', 'draining');
      res.shouldKeepAlive = false;
      req.resume();
      const failure: AccessProblem = { kind: 'failure', error: drainingError(), retryAfterS: 1 };
      writeRefusal(res, surfaceRefusal(route, failure, routeRequest(req, url)));
      return;
    }
    res.once('close', this.drainState.enter());
    if ((req.method === 'GET' || req.method === 'HEAD') && url.pathname === OPENAPI_PART_PATH) {
      return this.answerOpenApi(req, res);
    }
    if (!route) {
      this.count('none', 'not_found');
      writeRefusal(res, notFoundRefusal());
      return;
    }
    res.once('finish', () =>
      this.responses.inc({ surface: route.name, status_class: `${Math.floor(res.statusCode / 100)}xx` }),
    );
    const request = routeRequest(req, url);
    const use = req.method === 'GET' || req.method === 'HEAD' ? 'request' : 'synthesis';
    const admitted = await this.authorize(route, request, route.readKey(request), req.rawHeaders, use);
    if ('kind' in admitted) {
      writeRefusal(res, surfaceRefusal(route, admitted, request));
      return;
    }
    res.once('close', admitted.release);
    try {
      const body = hasBody(req) ? await readBody(req, this.options.maxRequestBodyBytes) : null;
      if (body === undefined) {
        this.count(route.name, 'too_large');
        // What is left of the body stays unread: the connection cannot carry another request.
        res.setHeader('connection', 'close');
        const limit = this.options.maxRequestBodyBytes;
        const error = RouterError.badRequest(
          `The request body is larger than the limit of ${limit} bytes.`,
          413,
        );
        writeRefusal(res, route.refuse({ kind: 'failure', error }, request));
        return;
      }
      const key = route.readKey(request);
      const keyHash = key === undefined ? undefined : hashApiKey(key);
      await this.forward(route, req, res, { orgId: admitted.orgId, requestId, body, url, keyHash });
      this.count(route.name, 'forwarded');
    } catch (error) {
      this.count(route.name, 'upstream_error');
      if (isClientGone(res)) return;
      this.options.logger.warn({ err: error, surface: route.name, requestId }, 'forwarding failed');
      // No answer began: the app behind could not be reached or failed before its head (a restart), which a
      // retry may not meet; after its head, the body can only be cut.
      if (!res.headersSent) {
        const failure = RouterError.unavailable(APP_UNREACHABLE, error);
        writeRefusal(res, route.refuse({ kind: 'failure', error: failure }, request));
      } else cutBody(res, RouterError.unexpected(error));
    }
  }

  /**
   * Who is asking, or why not: the key (read by the caller, from the request or a socket's first message)
   * checked from memory, then the org's state; a mirror also needs the org's stored key for its vendor.
   */
  private async authorize(
    route: SurfaceRoute,
    request: RouteRequest,
    key: string | undefined,
    rawHeaders: string[],
    use: LimitedUse,
  ): Promise<Admitted | AccessProblem> {
    if (route.isOpen(request.method, request.path)) return { orgId: ANONYMOUS_ORG, release: NOTHING_HELD };
    // No key but a dashboard session: the app behind checks the session (the gateway keeps no sessions).
    if (key === undefined && route.takesSession?.(request)) {
      // Not knowing the session's org, the gateway holds each session to the default org limits on its own.
      const held = this.limit(route, sessionLimitId(request.headers), undefined, use);
      return 'kind' in held ? held : { orgId: ANONYMOUS_ORG, release: held.release };
    }
    const problem = await this.checkKey(route, request, key, rawHeaders);
    if ('kind' in problem) {
      this.count(route.name, OUTCOME_OF[problem.kind]);
      return problem;
    }
    return this.limit(route, problem.orgId, problem.limits, use);
  }

  /** The org's limits on this replica: admitted (holding its place until `release`), or the surface's 429. */
  private limit(
    route: SurfaceRoute,
    orgId: string,
    overrides: OrgLimitOverrides | undefined,
    use: LimitedUse,
  ): Admitted | AccessProblem {
    const verdict = this.options.limiter?.admit(orgId, overrides, use);
    if (!verdict) return { orgId, release: NOTHING_HELD };
    if (verdict.ok) return { orgId, release: verdict.release };
    this.count(route.name, 'rate_limited');
    this.limited.inc({ surface: route.name, limit: LIMIT_LABEL[verdict.limit] });
    return { kind: 'failure', error: verdict.error, retryAfterS: verdict.retryAfterS };
  }

  private async checkKey(
    route: SurfaceRoute,
    request: RouteRequest,
    key: string | undefined,
    rawHeaders: string[],
  ): Promise<{ orgId: string; limits?: OrgLimitOverrides } | AccessProblem> {
    // Node keeps the first of two Authorization headers; which key is meant is ambiguous, so neither is used.
    const repeated = route.keyHeaders.find((name) => headerCount(rawHeaders, name) > 1);
    if (repeated !== undefined) {
      const error = RouterError.unauthorized(
        `The ${repeated} header came more than once: send the key once.`,
      );
      return { kind: 'invalid-key', error };
    }
    if (
      route.keyQueryParams.some((name) => request.query.getAll(name).length > 1) ||
      (offeredKey(route, request.headers)?.count ?? 0) > 1
    ) {
      return { kind: 'invalid-key', error: RouterError.unauthorized('The key came more than once.') };
    }
    let verdict;
    try {
      verdict = await this.options.directory.authenticate(key, route.vendor);
    } catch (error) {
      this.options.logger.error({ err: error, surface: route.name }, 'key directory unavailable');
      return { kind: 'failure', error: RouterError.unexpected(error) };
    }
    if (!verdict.ok) {
      if (verdict.reason === 'no-vendor-key') {
        const message = `No ${route.vendor ?? ''} key is stored for this org.`;
        return { kind: 'no-vendor-key', error: new RouterError('provider_key_missing', message) };
      }
      const kind =
        key === undefined
          ? 'missing-key'
          : verdict.reason === 'org-disabled'
            ? 'org-disabled'
            : 'invalid-key';
      return { kind, error: RouterError.unauthorized() };
    }
    if (key !== undefined) this.options.keyUses?.record(hashApiKey(key));
    if (verdict.outOfCredit) {
      return { kind: 'out-of-credit', error: RouterError.outOfCredit() };
    }
    return { orgId: verdict.orgId, ...(verdict.limits ? { limits: verdict.limits } : {}) };
  }

  private async forward(
    route: SurfaceRoute,
    req: IncomingMessage,
    res: ServerResponse,
    {
      orgId,
      requestId,
      body,
      url,
      keyHash,
    }: { orgId: string; requestId: string; body: Buffer | null; url: URL; keyHash: string | undefined },
  ): Promise<void> {
    const method = req.method ?? 'GET';
    const path = forwardedPath(route, req, url);
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || HOP_BY_HOP.has(name) || route.keyHeaders.includes(name)) continue;
      headers[name] = value;
    }
    const offered = offeredKey(route, req.headers);
    if (offered) {
      delete headers[PROTOCOL_HEADER];
      if (offered.rest.length > 0) headers[PROTOCOL_HEADER] = offered.rest.join(', ');
    }
    if (body) headers['content-length'] = String(body.length);
    headers[IDENTITY_HEADER] = signIdentity(
      { method, path, orgId, bodyDigest: body ? digestBody(body) : EMPTY_BODY_DIGEST },
      this.options.signingSecret,
      this.options.now(),
    );
    headers[REQUEST_ID] = requestId;
    delete headers[KEY_HASH_HEADER];
    if (keyHash !== undefined) headers[KEY_HASH_HEADER] = keyHash;
    headers['x-forwarded-for'] = req.socket.remoteAddress ?? '';
    // The host the client asked for (a proxy in front may have said so already): the dashboard compares a
    // browser's Origin with it.
    if (headers[FORWARDED_HOST] === undefined && req.headers.host) headers[FORWARDED_HOST] = req.headers.host;
    if (cameOverTls(req)) headers[FORWARDED_PROTO] = 'https';

    await new Promise<void>((resolve, reject) => {
      this.pool(route.upstream).dispatch(
        {
          method,
          path,
          headers,
          body,
          headersTimeout: this.options.upstreamHeadersTimeoutMs,
          bodyTimeout: 0,
        },
        new ForwardedResponse(res, resolve, reject, {
          ms: this.options.clientStallMs ?? 0,
          onStalled: () =>
            this.options.logger.info(
              { surface: route.name, requestId, stallMs: this.options.clientStallMs },
              'client took nothing of its answer for the stall bound; cut',
            ),
        }),
      );
    });
  }

  /**
   * One WebSocket handshake inside its own boundary, as a request is: a failure before anything was answered
   * gets the surface's refusal for a failure of the router (the native envelope's 500 when no surface is
   * known), one after is a cut connection; either way it is logged with its cause.
   */
  private serveUpgrade(server: Server | TlsServer, req: IncomingMessage, socket: Socket, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    this.onUpgrade(server, req, socket, head).catch((error: unknown) => {
      this.logFailure('handshake', error);
      if (socket.destroyed || socket.bytesWritten > 0) return void socket.destroy();
      writeHandshakeRefusal(socket, this.failureRefusal(req, error));
    });
  }

  /** A failure of the gateway's own on one connection, logged with its cause (never its message). */
  private logFailure(stage: string, error: unknown): void {
    this.options.logger.error({ stage, cause: failureCause(error) }, 'gateway failed on a connection');
  }

  /**
   * The answer to a failure of the gateway's own: the surface's refusal for it, or the native envelope's 500
   * when no surface can be told from the request (its target is what failed).
   */
  private failureRefusal(req: IncomingMessage, error: unknown): Refusal {
    const failure: AccessProblem = { kind: 'failure', error: RouterError.unexpected(error) };
    try {
      const url = new URL(req.url ?? '/', 'http://gateway');
      const route = this.options.routes.find(url.pathname);
      if (route) return route.refuse(failure, routeRequest(req, url));
    } catch {
      // no surface to answer in: the router's own answer below
    }
    return jsonRefusal(failure.error.status, failure.error.toEnvelope());
  }

  /** `server`: the public server (plain or TLS) the upgrade came to, which takes a refused one's connection back. */
  private async onUpgrade(
    server: Server | TlsServer,
    req: IncomingMessage,
    socket: Socket,
    head: Buffer,
  ): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://gateway');
    const route = this.options.routes.find(url.pathname);
    if (this.drainState.draining) {
      this.count(route?.name ?? 'none', 'draining');
      const failure: AccessProblem = { kind: 'failure', error: drainingError(), retryAfterS: 1 };
      return writeHandshakeRefusal(socket, surfaceRefusal(route, failure, routeRequest(req, url)));
    }
    if (!route) {
      this.count('none', 'not_found');
      return writeHandshakeRefusal(socket, notFoundRefusal());
    }
    // Before any key is read: a path the surface has no socket on is the surface's 404, whoever asks.
    if (!route.hasSocket(url.pathname)) {
      this.count(route.name, 'not_found');
      return writeHandshakeRefusal(socket, route.notFound(routeRequest(req, url)));
    }
    // A socket is opened with GET only: any other method is the surface's 405, and the connection goes on.
    if (req.method !== 'GET') {
      this.count(route.name, 'method_not_allowed');
      return refuseUpgradeKeepingConnection(
        req,
        socket,
        head,
        methodNotAllowed(route, routeRequest(req, url)),
        this.options.maxRequestBodyBytes,
        (kept) => void server.emit(kept instanceof TLSSocket ? 'secureConnection' : 'connection', kept),
      );
    }
    const offered = offeredKey(route, req.headers);
    if (route.socket.refusal === 'after-accept') {
      const answer = offered?.rest[0] ?? offered?.answer;
      if (answer !== undefined) this.protocolAnswers.set(req, answer);
      this.sockets.handleUpgrade(req, socket, head, (client) =>
        relayKeyedSocket(this.gate, route, req, url, client),
      );
      return;
    }
    const request = routeRequest(req, url);
    const key = route.readKey(request);
    const admitted = await this.authorize(route, request, key, req.rawHeaders, 'socket');
    if ('kind' in admitted) {
      writeHandshakeRefusal(socket, surfaceRefusal(route, admitted, request));
      return;
    }
    const keyHash = key === undefined ? undefined : hashApiKey(key);
    const splice = new SplicedSocket(
      this.gate,
      route,
      req,
      url,
      socket,
      head,
      admitted.orgId,
      offered,
      keyHash,
    );
    const untrack = this.track(route, key, admitted.orgId, (kind) => splice.revoke(route.refuseOpen(kind)));
    this.splices.add(splice);
    splice.onClose(() => {
      admitted.release();
      untrack();
      this.splices.delete(splice);
    });
    splice.start();
  }

  /**
   * Registers an admitted socket for re-checks by its key's hash (the key itself is not kept); returns the
   * function that forgets it. A socket admitted without a key (an open route) has nothing to revoke.
   */
  private track(
    route: SurfaceRoute,
    key: string | undefined,
    orgId: string,
    revoke: (kind: MirrorRevocationKind) => void,
  ): () => void {
    if (key === undefined || orgId === ANONYMOUS_ORG) return () => undefined;
    return this.openSockets.add({ keyHash: hashApiKey(key), orgId, surface: route.name, revoke });
  }

  /** The gateway's own health, readiness and metrics; they need no key. Nothing else is served here. */
  private async onInternalRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://gateway').pathname;
    if (req.method !== 'GET') {
      writeRefusal(res, notFoundRefusal());
    } else if (path === '/healthz') {
      this.answerLiveness(res);
    } else if (path === '/readyz') {
      const report = await this.options.health.readiness();
      const failing = Object.keys(report.checks).filter((name) => report.checks[name] === 'failing');
      const body = report.ready
        ? { status: 'ready', checks: report.checks }
        : { status: 'unavailable', failing, checks: report.checks };
      writeRefusal(res, jsonRefusal(report.ready ? 200 : 503, body));
    } else if (path === '/metrics') {
      const text = await this.options.health.metrics.metrics();
      res.writeHead(200, { 'content-type': this.options.health.metrics.contentType });
      res.end(text);
    } else {
      writeRefusal(res, notFoundRefusal());
    }
  }

  /** The router's OpenAPI document, made of every surface's part; anyone may read it. */
  private async answerOpenApi(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let document: Buffer;
    try {
      document = await this.openApi.document();
    } catch (error) {
      this.count('openapi', 'upstream_error');
      this.options.logger.warn({ err: error }, 'the OpenAPI document could not be made from its parts');
      const failure = RouterError.unexpected(error);
      return writeRefusal(res, jsonRefusal(failure.status, failure.toEnvelope()));
    }
    this.count('openapi', 'answered');
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(document.length),
    });
    res.end(req.method === 'HEAD' ? undefined : document);
  }

  /** A surface's part of the OpenAPI document, asked of its app as the anonymous org. */
  private async readOpenApiPart(route: SurfaceRoute): Promise<OpenApiObject> {
    const path = OPENAPI_PART_PATH;
    const identity = signIdentity(
      { method: 'GET', path, orgId: ANONYMOUS_ORG, bodyDigest: EMPTY_BODY_DIGEST },
      this.options.signingSecret,
      this.options.now(),
    );
    const answer = await this.pool(route.upstream).request({
      method: 'GET',
      path,
      headers: { [IDENTITY_HEADER]: identity },
      headersTimeout: this.options.upstreamHeadersTimeoutMs,
      bodyTimeout: this.options.upstreamHeadersTimeoutMs,
    });
    if (answer.statusCode !== 200) {
      await answer.body.dump();
      throw new Error(`the ${route.name} app answered its OpenAPI part with ${answer.statusCode}`);
    }
    return (await answer.body.json()) as OpenApiObject;
  }

  private answerLiveness(res: ServerResponse): void {
    writeRefusal(res, jsonRefusal(200, { status: 'ok', service: this.options.health.service }));
  }

  private pool(origin: string): Pool {
    let pool = this.pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, {
        connections: this.options.upstreamConnections ?? 256,
        pipelining: 1,
        keepAliveTimeout: 30_000,
      });
      this.pools.set(origin, pool);
    }
    return pool;
  }

  private count(surface: string, outcome: string): void {
    this.requests.inc({ surface, outcome });
  }
}

/**
 * The surface's refusal of an upgrade sent with a method other than GET: its own error shape (the native
 * envelope's `bad_request`, a vendor's error body) with status 405 and `Allow: GET`.
 */
function methodNotAllowed(route: SurfaceRoute, request: RouteRequest): Refusal {
  const error = RouterError.badRequest(
    `A WebSocket is opened with a GET request; ${request.method} is not allowed on ${request.path}.`,
    405,
  );
  const refusal = route.refuse({ kind: 'failure', error }, request);
  return { ...refusal, headers: { ...refusal.headers, allow: 'GET' } };
}

function listenOn(server: Server | TlsServer, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

function headerCount(rawHeaders: string[], lowerCaseName: string): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]?.toLowerCase() === lowerCaseName) count += 1;
  }
  return count;
}

function isClientGone(res: ServerResponse): boolean {
  return res.destroyed || res.socket === null || res.socket.destroyed;
}

function writeRefusal(res: ServerResponse, refusal: Refusal): void {
  // A 503 is something out of reach for now (a drain, the database in an outage): the client is told when
  // to try again, in every surface's shape.
  const retry = refusal.status === 503 && !refusal.headers['retry-after'] ? { 'retry-after': '1' } : {};
  res.writeHead(refusal.status, {
    ...refusal.headers,
    ...retry,
    'content-length': String(refusal.body.length),
  });
  res.end(refusal.body);
}

function writeHandshakeRefusal(socket: Socket, refusal: Refusal): void {
  writeRawAnswer(socket, refusal, true);
}
