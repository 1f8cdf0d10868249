import type { IncomingHttpHeaders } from 'node:http';
import { RouterError } from '@router/contracts';
import type { HandshakeAnswer } from '@router/service-kit';
import {
  decodePathSegment,
  type MirrorReply,
  type MirrorSocketRoute,
  type SocketHandshake,
  type VendorMirror,
} from '@router/vendors-core';

/**
 * A vendor's socket routes as its app's `SocketServer` asks about a handshake: which route a path is (under the
 * mirror's `/<vendor token>` prefix), with the handshake its codec reads, and every refusal in the vendor's
 * shape: a path the vendor does not have, its own refusal of a handshake (`MirrorSocketRoute.refuse`), a
 * failure of the router's own.
 */
export class MirrorSocketRoutes {
  private readonly prefix: string;

  constructor(private readonly mirror: VendorMirror) {
    this.prefix = `/${mirror.vendor}`;
  }

  /** The route at `url` and its handshake, or undefined for a path the vendor has no socket at. */
  find(
    url: URL,
    headers: IncomingHttpHeaders,
  ): { route: MirrorSocketRoute; handshake: SocketHandshake } | undefined {
    if (!url.pathname.startsWith(`${this.prefix}/`)) return undefined;
    const path = url.pathname.slice(this.prefix.length);
    for (const route of this.mirror.sockets) {
      const match = route.path.exec(path);
      if (match) {
        const params = match.slice(1).map(decodePathSegment);
        return { route, handshake: { params, query: url.searchParams, headers } };
      }
    }
    return undefined;
  }

  /** The route at a path `check` accepted. */
  get(url: URL, headers: IncomingHttpHeaders): { route: MirrorSocketRoute; handshake: SocketHandshake } {
    const found = this.find(url, headers);
    if (!found) throw new Error('a socket opened on a path check() refused');
    return found;
  }

  /** `SocketServer`'s check: null accepts; a path the vendor lacks, or its refusal of the handshake, does not. */
  check(url: URL, headers: IncomingHttpHeaders): RouterError | HandshakeAnswer | null {
    const found = this.find(url, headers);
    if (!found) return new RouterError('not_found', 'No such socket.');
    const refused = found.route.refuse?.(found.handshake);
    return refused ? onTheWire(refused) : null;
  }

  /** `SocketServer`'s refusal: the vendor's 404, or its answer to a failure of the router's own. */
  refusal(error: RouterError): HandshakeAnswer {
    const request = { method: 'GET', path: '/', headers: {}, query: new URLSearchParams() };
    const { access } = this.mirror;
    return onTheWire(
      error.code === 'not_found'
        ? access.notFound(request)
        : access.fail(error.status, error.message, request),
    );
  }
}

function onTheWire(reply: MirrorReply): HandshakeAnswer {
  return {
    status: reply.status,
    contentType: reply.headers['content-type'] ?? 'text/plain',
    body: reply.body,
  };
}
