import type { IncomingHttpHeaders, IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { ANONYMOUS_ORG, IDENTITY_HEADER } from '@router/auth';
import { RouterError } from '@router/contracts';
import type { Logger } from '@router/observability';
import type { SocketIdle } from '@router/vendors-core';
import { identifiedOrg, type IdentityPolicy, NOT_FROM_GATEWAY } from './identity.guard';

/** The close code of a connection the router failed on. */
const CLOSE_INTERNAL = 1011;

/** Above this much queued on a socket, a send waits for the client to read (flow control). */
const SEND_HIGH_WATER_BYTES = 512 * 1024;

/** One accepted socket as a session sees it. */
export interface SocketPeer {
  /** A text frame (JSON already serialised) or a binary one; resolves once the socket can take more. */
  send(data: string | Buffer): Promise<void>;
  close(code: number, reason: string): void;
}

/** What a session does with its socket's events. */
export interface SocketSession {
  /** The session's id, for logs. */
  readonly id: string;
  receive(frame: Buffer, isBinary: boolean): void;
  /** The client closed the socket or lost it. */
  disconnected(): void;
  /** The app is shutting down: tell the client and stop. */
  shutdown(): void;
}

/** A refused handshake as it goes on the wire. */
export interface HandshakeAnswer {
  status: number;
  contentType: string;
  body: string;
}

export interface SocketServerOptions {
  /** Which surface this is, for logs. */
  name: string;
  identity: IdentityPolicy;
  now: () => number;
  logger: Logger;
  /** One message's limit; a larger one closes the socket with 1009. */
  maxPayloadBytes: number;
  /**
   * The handshake beyond the gateway's identity: null accepts, a RouterError refuses (`not_found` for a path
   * the surface does not have, `bad_request` for a query it does not take), answered by `refusal`; an answer
   * of the surface's own is sent as it is (a vendor's refusal of its query). `headers`: as `open` gets them.
   */
  check(url: URL, headers: IncomingHttpHeaders): RouterError | HandshakeAnswer | null;
  /** How a refused handshake is answered on the wire. */
  refusal(error: RouterError): HandshakeAnswer;
  /** When a quiet connection is closed, and how (`headers`: the handshake's, as `open` gets them). */
  idle(url: URL, headers: IncomingHttpHeaders): SocketIdle;
  /**
   * A session for an accepted socket. `headers` are the client's handshake headers as the gateway forwarded
   * them (it has taken the key's off), without the gateway's identity: a surface reads its settings there.
   */
  open(peer: SocketPeer, orgId: string, url: URL, headers: IncomingHttpHeaders): SocketSession;
}

/**
 * A surface's WebSockets on an app's HTTP server (behind the gateway): an upgrade is accepted only with the
 * gateway's fresh signature, then each connection becomes the surface's session, with flow control on sends
 * and an idle timer (restarted by the client's messages, and by sends where the surface's `SocketIdle` says;
 * when it runs out, the surface's idle frames and close). Every socket surface (native /v1/stream, the
 * mirrors' sockets) is served by one.
 */
export class SocketServer {
  private readonly wss: WebSocketServer;
  private readonly sessions = new Set<SocketSession>();

  constructor(private readonly options: SocketServerOptions) {
    this.wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayloadBytes });
  }

  attach(server: Server): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      socket.on('error', () => socket.destroy()); // a client that resets mid-handshake
      // One upgrade's failure is that connection's: nothing a client sends may reach the process.
      try {
        this.upgrade(req, socket, head);
      } catch (error) {
        this.options.logger.error({ err: error, surface: this.options.name }, 'socket handshake failed');
        this.refuse(socket, RouterError.internal(error));
      }
    });
  }

  /** Tells every open connection the app is going away. */
  close(): void {
    for (const session of this.sessions) session.shutdown();
    this.wss.close();
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://router');
    const orgId = this.orgOf(req);
    const headers = handshakeHeaders(req);
    const refused = orgId ? this.options.check(url, headers) : RouterError.unauthorized(NOT_FROM_GATEWAY);
    if (refused) return this.refuse(socket, refused);
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      try {
        this.open(ws, orgId, url, headers);
      } catch (error) {
        this.options.logger.error({ err: error, surface: this.options.name }, 'socket open failed');
        ws.close(CLOSE_INTERNAL, 'internal error');
      }
    });
  }

  /** A handshake refused in the surface's shape; a socket that cannot take even that is dropped. */
  private refuse(socket: Duplex, refused: RouterError | HandshakeAnswer): void {
    try {
      const { status, contentType, body } =
        refused instanceof RouterError ? this.options.refusal(refused) : refused;
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}\r\n` +
          `content-type: ${contentType}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    } catch (failure) {
      this.options.logger.error({ err: failure, surface: this.options.name }, 'socket refusal failed');
      socket.destroy();
    }
  }

  private orgOf(req: IncomingMessage): string {
    const orgId = identifiedOrg(req, this.options.identity, this.options.now());
    return orgId !== undefined && orgId !== ANONYMOUS_ORG ? orgId : '';
  }

  private open(ws: WebSocket, orgId: string, url: URL, headers: IncomingHttpHeaders): void {
    const { logger, name } = this.options;
    const policy = this.options.idle(url, headers);
    const idle = setTimeout(() => {
      for (const frame of policy.frames ?? []) ws.send(frame, { binary: typeof frame !== 'string' });
      ws.close(policy.code, policy.reason);
    }, policy.ms);
    idle.unref();
    const sendsCount = policy.clock === 'either';
    const session = this.options.open(
      {
        send: (data) => {
          if (sendsCount) idle.refresh();
          const binary = typeof data !== 'string';
          if (ws.bufferedAmount < SEND_HIGH_WATER_BYTES) {
            ws.send(data, { binary });
            return Promise.resolve();
          }
          return new Promise((resolve) => ws.send(data, { binary }, () => resolve()));
        },
        close: (code, reason) => ws.close(code, reason),
      },
      orgId,
      url,
      headers,
    );
    this.sessions.add(session);
    logger.info({ orgId, surface: name, sessionId: session.id }, 'socket opened');
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      idle.refresh();
      // A message's failure ends its connection, never the process.
      try {
        session.receive(data, isBinary);
      } catch (error) {
        logger.error({ err: error, surface: name, sessionId: session.id }, 'socket message failed');
        ws.close(CLOSE_INTERNAL, 'internal error');
      }
    });
    ws.on('error', (error) =>
      logger.warn({ err: error, surface: name, sessionId: session.id }, 'socket error'),
    );
    ws.once('close', (code: number) => {
      clearTimeout(idle);
      this.sessions.delete(session);
      session.disconnected();
      logger.info({ orgId, surface: name, sessionId: session.id, code }, 'socket closed');
    });
  }
}

/** The handshake's headers a surface may read: the gateway's identity is the server's own, checked above. */
function handshakeHeaders(req: IncomingMessage): IncomingHttpHeaders {
  const { [IDENTITY_HEADER]: _identity, ...headers } = req.headers;
  return headers;
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  413: 'Payload Too Large',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};
