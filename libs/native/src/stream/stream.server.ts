import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { Registry } from 'prom-client';
import { RouterError } from '@router/contracts';
import { keyHashOf } from '@router/pipeline';
import { type Drain, type IdentityPolicy, SocketServer } from '@router/service-kit';
import { STREAM_CLOSE, StreamSession, type StreamSessionDeps } from './stream-session';

export const STREAM_PATH = '/v1/stream';
/** One message's limit (docs/stream-protocol.md); a larger one closes the socket with 1009. */
export const STREAM_MAX_MESSAGE_BYTES = 256 * 1024;

export interface StreamServerOptions extends StreamSessionDeps {
  identity: IdentityPolicy;
  idleTimeoutMs: number;
  /** The app's drain: while it drains, handshakes get 503 `unavailable`. */
  drain?: Drain;
  /** Where its open sockets are counted. */
  metrics?: Registry;
  /** The org of a handshake made with a dashboard session instead of a key (SocketServerOptions.sessionOrg). */
  sessionOrg?: (headers: IncomingHttpHeaders) => Promise<string>;
}

/** See StreamSessionDeps.replanAfterMs. */
export const STREAM_REPLAN_MS = 1000;

/**
 * `/v1/stream` on the native API's HTTP server: the upgrade is accepted only with the gateway's fresh
 * signature for this path (for a key's org, or anonymous with a dashboard session) and no query, and each
 * connection becomes a StreamSession.
 */
export class StreamServer {
  private readonly sockets: SocketServer;

  constructor(options: StreamServerOptions) {
    this.sockets = new SocketServer({
      name: 'stream',
      identity: options.identity,
      now: options.now,
      logger: options.logger,
      maxPayloadBytes: STREAM_MAX_MESSAGE_BYTES,
      ...(options.drain ? { drain: options.drain } : {}),
      ...(options.metrics ? { metrics: options.metrics } : {}),
      ...(options.sessionOrg ? { sessionOrg: options.sessionOrg } : {}),
      check: checkHandshake,
      refusal: (error) => ({
        status: error.status,
        contentType: 'application/json',
        body: JSON.stringify(error.toEnvelope()),
      }),
      // Idle means no message from the client and no audio to send (docs/stream-protocol.md).
      idle: () => ({ ms: options.idleTimeoutMs, code: STREAM_CLOSE.idle, reason: 'idle', clock: 'either' }),
      open: (peer, orgId, _url, headers) =>
        new StreamSession(orgId, peer, options, randomUUID(), keyHashOf(headers)),
    });
  }

  attach(server: Server): void {
    this.sockets.attach(server);
  }

  /** Drains the open connections (those through gateway `via` when given); see SocketServer.drain. */
  drain(via?: string): Promise<void> {
    return this.sockets.drain(via);
  }

  /** Tells every open connection the router is going away. */
  close(): void {
    this.sockets.close();
  }
}

function checkHandshake(url: URL): RouterError | null {
  if (url.pathname !== STREAM_PATH) return new RouterError('not_found', 'No such route.');
  const unknown = [...url.searchParams.keys()][0];
  if (unknown !== undefined) {
    return RouterError.badRequest(
      `unknown query parameter ${JSON.stringify(unknown)}: /v1/stream takes none (settings go in the settings message)`,
    );
  }
  return null;
}
