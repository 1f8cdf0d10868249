import {
  type MirrorAccess,
  type MirrorReply,
  type MirrorRequest,
  openSocketRefusal,
  readProtocolKey,
  type SocketClose,
} from '@router/vendors-core';
import { GOING_AWAY_CLOSE, type Refusal, type RouteRequest, type SurfaceRoute } from './surface-routes';

/**
 * A vendor mirror's way in, built from its access and its mirror's socket paths: it owns `/<vendor token>` and
 * everything under it, reads the router key where the vendor's clients send it, refuses in the vendor's
 * shape, and answers a WebSocket handshake on any path but `socketPaths` (as the vendor sees paths, e.g.
 * `/v1/text-to-speech/{voice}/stream-input`) with the vendor's 404. The app behind gets the path as the
 * client sent it (prefix included), without the key's headers, query parameters and sub-protocols.
 */
export function mirrorRoute(
  access: MirrorAccess,
  upstream: string,
  socketPaths: readonly RegExp[],
  /** The vendor's close for a server going away, by socket path as the vendor sees it (its folder's). */
  goingAway: (vendorPath: string) => SocketClose | undefined = () => undefined,
): SurfaceRoute {
  const prefix = `/${access.vendor}`;
  const asVendorSees = (request: RouteRequest): MirrorRequest => ({
    method: request.method,
    path: request.path.slice(prefix.length) || '/',
    headers: request.headers,
    query: request.query,
  });
  return {
    name: access.vendor,
    prefixes: [`${prefix}/`, prefix],
    upstream,
    readKey: (request) => access.readKey(asVendorSees(request)),
    keyHeaders: access.keyHeaders,
    keyQueryParams: access.keyQueryParams,
    ...(access.keyPlacements.some((placement) => placement.in === 'protocol')
      ? { readProtocolKey: (offered) => readProtocolKey(access.keyPlacements, offered) }
      : {}),
    vendor: access.vendor,
    isOpen: () => false,
    refuse: ({ kind, error }, request) =>
      toRefusal(
        kind === 'failure'
          ? access.fail(error.status, error.message, asVendorSees(request))
          : access.refuse(kind, asVendorSees(request)),
      ),
    socket: access.socket,
    hasSocket: (path) => {
      const vendorPath = path.slice(prefix.length) || '/';
      return socketPaths.some((socketPath) => socketPath.test(vendorPath));
    },
    notFound: (request) => toRefusal(access.notFound(asVendorSees(request))),
    refuseOpen: (kind) => openSocketRefusal(access.socket, kind),
    goingAway: (path) => {
      const close = goingAway(path.slice(prefix.length) || '/');
      return close ? { messages: [], closeCode: close.code, closeReason: close.reason } : GOING_AWAY_CLOSE;
    },
  };
}

export function toRefusal(reply: MirrorReply): Refusal {
  return { status: reply.status, headers: { ...reply.headers }, body: Buffer.from(reply.body) };
}
