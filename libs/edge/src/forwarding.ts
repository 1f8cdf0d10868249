import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import { offeredProtocols, PROTOCOL_HEADER, type ProtocolKey } from '@router/vendors-core';
import type { RouteRequest, SurfaceRoute } from './surface-routes';

/** Headers of one hop only: never forwarded either way. */
export const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  // The gateway has answered `100-continue` itself (Node does before the request is seen) and holds the body.
  'expect',
]);
export const REQUEST_ID = 'x-request-id';
/** The host the client sent the request to, for an app that checks a browser's `Origin` (the dashboard). */
export const FORWARDED_HOST = 'x-forwarded-host';
/** Tells an app a request came over TLS (the dashboard's cookies are `Secure` then). */
export const FORWARDED_PROTO = 'x-forwarded-proto';
const SANE_REQUEST_ID = /^[\w.-]{1,64}$/;

export function routeRequest(req: IncomingMessage, url: URL): RouteRequest {
  return { method: req.method ?? 'GET', path: url.pathname, headers: req.headers, query: url.searchParams };
}

/** The path the app behind gets: as sent, less the query parameters that carried the router key. */
export function forwardedPath(route: SurfaceRoute, req: IncomingMessage, url: URL): string {
  const path = req.url ?? '/';
  if (!route.keyQueryParams.some((name) => url.searchParams.has(name))) return path;
  const query = new URLSearchParams(url.searchParams);
  for (const name of route.keyQueryParams) query.delete(name);
  const rest = query.toString();
  return rest === '' ? url.pathname : `${url.pathname}?${rest}`;
}

export function readRequestId(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID];
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * What a request's offered sub-protocols hold of the router key on `route`; undefined when the surface takes
 * no key there or none is offered, and the header goes on as it came.
 */
export function offeredKey(route: SurfaceRoute, headers: IncomingHttpHeaders): ProtocolKey | undefined {
  const header = headers[PROTOCOL_HEADER];
  if (!route.readProtocolKey || header === undefined) return undefined;
  const offered = route.readProtocolKey(offeredProtocols(header));
  return offered.count > 0 ? offered : undefined;
}

/**
 * Whether the request came over the gateway's own TLS: the app is then told `x-forwarded-proto: https`, as a
 * proxy in front that ends TLS tells it (on the plain port, what such a proxy said goes on as it came).
 */
export function cameOverTls(req: IncomingMessage): boolean {
  return (req.socket as { encrypted?: unknown }).encrypted === true;
}
