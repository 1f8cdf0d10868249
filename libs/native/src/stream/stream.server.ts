import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { ANONYMOUS_ORG } from '@router/auth';
import { RouterError } from '@router/contracts';
import { identifiedOrg, type IdentityPolicy, NOT_FROM_GATEWAY } from '@router/service-kit';
import { STREAM_CLOSE, StreamSession, type StreamSessionDeps } from './stream-session';

export const STREAM_PATH = '/v1/stream';
/** One message's limit (docs/stream-protocol.md); a larger one closes the socket with 1009. */
export const STREAM_MAX_MESSAGE_BYTES = 256 * 1024;
/** Above this much audio queued on a socket, a sentence waits for the client to read. */
const SEND_HIGH_WATER_BYTES = 512 * 1024;

export interface StreamServerOptions extends StreamSessionDeps {
  identity: IdentityPolicy;
  idleTimeoutMs: number;
}

/** See StreamSessionDeps.replanAfterMs. */
export const STREAM_REPLAN_MS = 1000;

/**
 * `/v1/stream` on the native API's HTTP server: the upgrade is accepted only with the gateway's fresh
 * signature for this path, and each connection becomes a StreamSession.
 */
export class StreamServer {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: STREAM_MAX_MESSAGE_BYTES });
  private readonly sessions = new Set<StreamSession>();

  constructor(private readonly options: StreamServerOptions) {}

  attach(server: Server): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const refusal = this.check(req);
      if (refusal) {
        const body = JSON.stringify(refusal.toEnvelope());
        socket.end(
          `HTTP/1.1 ${refusal.status} ${refusal.status === 404 ? 'Not Found' : refusal.status === 400 ? 'Bad Request' : 'Unauthorized'}\r\n` +
            `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
        );
        return;
      }
      const orgId = this.orgOf(req);
      this.wss.handleUpgrade(req, socket, head, (ws) => this.open(ws, orgId));
    });
  }

  /** Tells every open connection the router is going away. */
  close(): void {
    for (const session of this.sessions) session.shutdown();
    this.wss.close();
  }

  private check(req: IncomingMessage): RouterError | null {
    const url = new URL(req.url ?? '/', 'http://router');
    if (url.pathname !== STREAM_PATH) return new RouterError('not_found', 'No such route.');
    if (!this.orgOf(req)) {
      return RouterError.unauthorized(NOT_FROM_GATEWAY);
    }
    const unknown = [...url.searchParams.keys()][0];
    if (unknown !== undefined) {
      return RouterError.badRequest(
        `unknown query parameter ${JSON.stringify(unknown)}: /v1/stream takes none (settings go in the settings message)`,
      );
    }
    return null;
  }

  private orgOf(req: IncomingMessage): string {
    const orgId = identifiedOrg(req, this.options.identity, this.options.now());
    return orgId !== undefined && orgId !== ANONYMOUS_ORG ? orgId : '';
  }

  private open(ws: WebSocket, orgId: string): void {
    const { logger, idleTimeoutMs } = this.options;
    const idle = setTimeout(() => ws.close(STREAM_CLOSE.idle, 'idle'), idleTimeoutMs);
    idle.unref();
    const session = new StreamSession(
      orgId,
      {
        sendJson: (message) => {
          idle.refresh();
          ws.send(JSON.stringify(message));
        },
        sendAudio: (chunk) => {
          idle.refresh();
          if (ws.bufferedAmount < SEND_HIGH_WATER_BYTES) {
            ws.send(chunk, { binary: true });
            return Promise.resolve();
          }
          return new Promise((resolve) => ws.send(chunk, { binary: true }, () => resolve()));
        },
        close: (code, reason) => ws.close(code, reason),
      },
      this.options,
      randomUUID(),
    );
    this.sessions.add(session);
    logger.info({ orgId, sessionId: session.sessionId }, 'stream opened');
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      idle.refresh();
      session.receive(data, isBinary);
    });
    ws.on('error', (error) =>
      logger.warn({ err: error, sessionId: session.sessionId }, 'stream socket error'),
    );
    ws.once('close', (code: number) => {
      clearTimeout(idle);
      this.sessions.delete(session);
      session.disconnected();
      logger.info({ orgId, sessionId: session.sessionId, code }, 'stream closed');
    });
  }
}
