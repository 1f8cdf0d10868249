import type { IncomingHttpHeaders } from 'node:http';
import { readBearer } from '@router/auth';
import { type RouterError } from '@router/contracts';

/** A refusal ready to write, on an HTTP response or on a socket during a WebSocket handshake. */
export interface Refusal {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
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
  readKey(headers: IncomingHttpHeaders, query: URLSearchParams): string | undefined;
  /** Headers that carry the router key, removed before forwarding: apps behind never see keys. */
  keyHeaders: string[];
  /** Requests that need no key (still forwarded with a signed, anonymous identity). */
  isOpen(method: string, path: string): boolean;
  refuse(error: RouterError): Refusal;
}

export function jsonRefusal(status: number, body: unknown, headers: Record<string, string> = {}): Refusal {
  return {
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: Buffer.from(JSON.stringify(body)),
  };
}

const OPEN_NATIVE = new Set(['GET /v1/models', 'GET /openapi.json', 'HEAD /v1/models', 'HEAD /openapi.json']);

export function nativeRoute(upstream: string): SurfaceRoute {
  return {
    name: 'native',
    prefixes: ['/v1/', '/v1', '/openapi.json'],
    upstream,
    readKey: (headers) => readBearer(headers.authorization),
    keyHeaders: ['authorization'],
    isOpen: (method, path) => OPEN_NATIVE.has(`${method} ${path}`),
    refuse: (error) => jsonRefusal(error.status, error.toEnvelope()),
  };
}

/** Finds the surface for a path; the longest matching prefix wins. */
export class RouteTable {
  private readonly entries: Array<{ prefix: string; route: SurfaceRoute }>;

  constructor(routes: SurfaceRoute[]) {
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
