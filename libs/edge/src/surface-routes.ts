import type { IncomingHttpHeaders } from 'node:http';
import { hasSessionCookie, readBearer } from '@router/auth';
import { RouterError } from '@router/contracts';
import {
  type MirrorRefusalKind,
  type MirrorRevocationKind,
  type MirrorSocketAccess,
  type MirrorSocketRefusal,
  PROTOCOL_GOING_AWAY,
  type ProtocolKey,
  type VendorId,
} from '@router/vendors-core';

/** A refusal ready to write, on an HTTP response or on a socket during a WebSocket handshake. */
export interface Refusal {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Why the gateway refuses: a key or org problem (answered in the surface's own shape for that kind), or a
 * failure of the router's own. `error` is the native envelope's error for it, which the native surface sends.
 */
export interface AccessProblem {
  kind: MirrorRefusalKind | 'failure';
  error: RouterError;
  /** Whole seconds after which a retry may be admitted (a limit, a drain): sent as `Retry-After`. */
  retryAfterS?: number;
}

/** A request as a surface reads it before anything is forwarded. */
export interface RouteRequest {
  method: string;
  /** The path without its query. */
  path: string;
  headers: IncomingHttpHeaders;
  query: URLSearchParams;
}

/**
 * One way into the router: which paths it owns, where its router key travels, how it refuses and which
 * app serves it. The native API is one; each vendor mirror adds one, and nothing else in the gateway changes.
 */
export interface SurfaceRoute {
  name: string;
  /** Path prefixes (exact, or ending in '/') this surface owns. */
  prefixes: string[];
  upstream: string;
  /** The router key as the surface's clients send it. */
  readKey(request: RouteRequest): string | undefined;
  /** Headers that carry the router key, removed before forwarding: apps behind never see keys. */
  keyHeaders: readonly string[];
  /** Query parameters that carry the router key, removed from the forwarded path likewise. */
  keyQueryParams: readonly string[];
  /**
   * The key among a handshake's offered sub-protocols, for a surface whose clients may offer it there: those
   * protocols are taken off what is forwarded, and the handshake's answer names the one the client expects.
   */
  readProtocolKey?(offered: readonly string[]): ProtocolKey;
  /** A mirror's vendor: an org needs a stored key for it. */
  vendor?: VendorId;
  /** Requests that need no key (still forwarded with a signed, anonymous identity). */
  isOpen(method: string, path: string): boolean;
  /**
   * Requests sent without a key that the app behind authenticates by their dashboard session instead
   * (forwarded with the anonymous identity and their cookie; the app refuses a missing or expired session).
   */
  takesSession?(request: RouteRequest): boolean;
  refuse(problem: AccessProblem, request: RouteRequest): Refusal;
  /** How a WebSocket is refused: at the handshake (spliced once admitted), or after accepting (relayed). */
  socket: MirrorSocketAccess;
  /** Whether `path` (as the client sent it, without its query) is one of the surface's WebSocket paths. */
  hasSocket(path: string): boolean;
  /** The surface's answer to a path it does not have; a handshake on any other path gets it at once. */
  notFound(request: RouteRequest): Refusal;
  /** How the gateway closes one of the surface's open sockets when its key is revoked or its org disabled. */
  refuseOpen(kind: MirrorRevocationKind): MirrorSocketRefusal;
  /**
   * How the gateway closes a socket on `path` (as the client sent it) still open when its drain's time is up:
   * the surface's going-away (the vendor's, declared in its folder, on a mirror).
   */
  goingAway(path: string): MirrorSocketRefusal;
  /**
   * Whether the app serves its part of the router's OpenAPI document (at its own `OPENAPI_PART_PATH`): the
   * gateway's public `/openapi.json` is made of every such part, in the route table's order.
   */
  openApiPart?: boolean;
}

/** The WebSocket protocol's "going away", the router's own sockets' close when a process goes away. */
export const GOING_AWAY_CLOSE: MirrorSocketRefusal = {
  messages: [],
  closeCode: PROTOCOL_GOING_AWAY.code,
  closeReason: PROTOCOL_GOING_AWAY.reason,
};

export function jsonRefusal(status: number, body: unknown, headers: Record<string, string> = {}): Refusal {
  return {
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: Buffer.from(JSON.stringify(body)),
  };
}

const OPEN_NATIVE = new Set(['GET /v1/models', 'HEAD /v1/models']);

/** The native API's one WebSocket (libs/native's `STREAM_PATH`, which the gateway may not import). */
const NATIVE_SOCKET_PATH = '/v1/stream';

/** /v1/stream's close for a policy violation: the key or org no longer admits the connection. */
const NATIVE_REVOKED_CLOSE = 1008;

const NATIVE_REVOKED_MESSAGE: Readonly<Record<MirrorRevocationKind, string>> = {
  'invalid-key': 'The API key was revoked or deleted while the connection was open.',
  'org-disabled': 'The org was disabled while the connection was open.',
};

/**
 * /v1/stream closed by the router (docs/stream-protocol.md): an `error` message with the envelope's
 * `unauthorized` error object, then close 1008.
 */
function nativeOpenSocketRefusal(kind: MirrorRevocationKind): MirrorSocketRefusal {
  const { error } = RouterError.unauthorized(NATIVE_REVOKED_MESSAGE[kind]).toEnvelope();
  return {
    messages: [JSON.stringify({ type: 'error', error })],
    closeCode: NATIVE_REVOKED_CLOSE,
    closeReason: 'unauthorized',
  };
}

/**
 * The refusal of `problem` in the surface's shape (the native envelope when no surface is known), with its
 * `Retry-After` when it has one: the one place a refusal of the gateway's gets its headers.
 */
export function surfaceRefusal(
  route: SurfaceRoute | undefined,
  problem: AccessProblem,
  request: RouteRequest,
): Refusal {
  const refusal = route
    ? route.refuse(problem, request)
    : jsonRefusal(problem.error.status, problem.error.toEnvelope());
  if (problem.retryAfterS === undefined) return refusal;
  return { ...refusal, headers: { ...refusal.headers, 'retry-after': String(problem.retryAfterS) } };
}

/** The router's own 404, in the native envelope: unknown routes, and native paths that are no socket. */
export function notFoundRefusal(): Refusal {
  return jsonRefusal(404, new RouterError('not_found', 'No such route.').toEnvelope());
}

/**
 * The native paths a dashboard session may use instead of an API key: the spec's provider-key endpoints, and
 * the voice list and stream the dashboard's playground speaks with (native-api checks the stream handshake's
 * `Origin` in place of the CSRF token a browser cannot send there).
 */
const SESSION_NATIVE = /^\/v1\/(provider-keys(\/[^/]*|\/[^/]+\/test)?|voices|stream)$/;

export function nativeRoute(upstream: string): SurfaceRoute {
  return {
    name: 'native',
    prefixes: ['/v1/', '/v1'],
    upstream,
    readKey: ({ headers }) => readBearer(headers.authorization),
    keyHeaders: ['authorization'],
    keyQueryParams: [],
    isOpen: (method, path) => OPEN_NATIVE.has(`${method} ${path}`),
    takesSession: ({ path, headers }) => SESSION_NATIVE.test(path) && hasSessionCookie(headers),
    refuse: ({ error }) => jsonRefusal(error.status, error.toEnvelope()),
    socket: { refusal: 'handshake' },
    hasSocket: (path) => path === NATIVE_SOCKET_PATH,
    notFound: notFoundRefusal,
    refuseOpen: nativeOpenSocketRefusal,
    goingAway: () => GOING_AWAY_CLOSE,
    openApiPart: true,
  };
}

/**
 * The dashboard app: its pages under `/dashboard`, its session endpoints under `/api/`, and the site's icon
 * (`/favicon.ico`, which browsers ask the root for). It takes no API
 * key, so the gateway checks none (the app checks its sign-in cookie) and strips any `Authorization` header,
 * so a key sent there never reaches the app.
 */
export function dashboardRoute(upstream: string): SurfaceRoute {
  return {
    name: 'dashboard',
    prefixes: ['/dashboard', '/dashboard/', '/api/', '/favicon.ico'],
    upstream,
    readKey: () => undefined,
    keyHeaders: ['authorization'],
    keyQueryParams: [],
    isOpen: () => true,
    refuse: ({ error }) => jsonRefusal(error.status, error.toEnvelope()),
    socket: { refusal: 'handshake' },
    hasSocket: () => false,
    notFound: notFoundRefusal,
    refuseOpen: nativeOpenSocketRefusal,
    goingAway: () => GOING_AWAY_CLOSE,
    openApiPart: true,
  };
}

/** Finds the surface for a path; the longest matching prefix wins. */
export class RouteTable {
  private readonly entries: Array<{ prefix: string; route: SurfaceRoute }>;

  constructor(readonly routes: readonly SurfaceRoute[]) {
    this.entries = routes
      .flatMap((route) => route.prefixes.map((prefix) => ({ prefix, route })))
      .sort((a, b) => b.prefix.length - a.prefix.length);
  }

  find(path: string): SurfaceRoute | undefined {
    for (const { prefix, route } of this.entries) {
      if (prefix.endsWith('/') ? path.startsWith(prefix) : path === prefix) return route;
    }
    return undefined;
  }
}
