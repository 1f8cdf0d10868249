import type { IncomingHttpHeaders, IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { Gauge, type Registry } from 'prom-client';
import { type WebSocket, WebSocketServer } from 'ws';
import { ANONYMOUS_ORG, IDENTITY_HEADER } from '@router/auth';
import { RouterError, type SocketIdle } from '@router/contracts';
import type { Logger } from '@router/observability';
import { type Drain, drainingError } from './drain';
import { identifiedOrg, type IdentityPolicy, refusalOf } from './identity.guard';

/** The close code of a connection the router failed on. */
const CLOSE_INTERNAL = 1011;
/** The close code of a connection whose access ended while it was open (a policy violation). */
const CLOSE_POLICY = 1008;

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
  /**
   * The app (or the gateway in front of it) is going away: what the session has in hand (messages read, the
   * sentences of a turn under way) plays out, then the socket is closed with the surface's going-away code.
   * Resolves once it asked for that close.
   */
  drain(): Promise<void>;
  /** The app is shutting down now: tell the client with the surface's going-away code and stop. */
  shutdown(): void;
  /**
   * The dashboard session the socket was opened with no longer admits it (signed out, expired, or its org
   * disabled): tell the client in the surface's words and close. Without it the socket is closed with 1008.
   */
  revoked?(error: RouterError): void;
}

/** How often an open socket's dashboard session is checked again, unless the surface says. */
const SESSION_RECHECK_MS = 5000;

/**
 * The header with which a gateway names itself on the upgrades it forwards, so that a gateway going away can
 * have the apps behind it drain just the sockets that pass through it (`gateway.draining.v1`).
 */
export const GATEWAY_INSTANCE_HEADER = 'x-router-gateway';

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
  /** While it drains, new handshakes are refused with the surface's retryable "unavailable". */
  drain?: Drain;
  /** The app's metrics, where its open sockets are counted (`router_open_sockets{surface}`). */
  metrics?: Registry;
  /**
   * A session for an accepted socket. `headers` are the client's handshake headers as the gateway forwarded
   * them (it has taken the key's off), without the gateway's identity: a surface reads its settings there.
   */
  open(peer: SocketPeer, orgId: string, url: URL, headers: IncomingHttpHeaders): SocketSession;
  /**
   * For a surface a dashboard session may open (native `/v1/stream`): the org of an upgrade the gateway
   * forwarded as the anonymous org (it saw the session's cookie and no key), from its headers, or a rejection
   * with the RouterError to refuse it with. Without it such an upgrade is refused as not from the gateway.
   */
  sessionOrg?: (headers: IncomingHttpHeaders) => Promise<string>;
  /**
   * How often the session of a socket opened with one is asked again (`sessionOrg`); a 401 or 403 then ends
   * the socket (`SocketSession.revoked`), any other failure (the database away) leaves it open.
   */
  sessionRecheckMs?: number;
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
  /** Open sessions, with when each closed and the gateway its handshake came through. */
  private readonly sessions = new Map<SocketSession, { closed: Promise<void>; via: string | undefined }>();

  /** This surface's count of open sockets, where the app has metrics. */
  private readonly openCount: Gauge<'surface'> | undefined;

  constructor(private readonly options: SocketServerOptions) {
    this.wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayloadBytes });
    this.openCount = options.metrics && openSocketsGauge(options.metrics);
    // Reported from the start (0), so an autoscaler on open sockets sees an idle pod too.
    this.openCount?.set({ surface: options.name }, 0);
  }

  attach(server: Server): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      socket.on('error', () => socket.destroy()); // a client that resets mid-handshake
      // One upgrade's failure is that connection's: nothing a client sends may reach the process.
      try {
        this.upgrade(req, socket, head);
      } catch (error) {
        this.options.logger.error({ err: error, surface: this.options.name }, 'socket handshake failed');
        this.refuse(socket, RouterError.unexpected(error));
      }
    });
  }

  /**
   * Drains the open sessions (those whose handshake came through gateway `via`, when given): each plays out
   * what it has in hand and closes with the surface's going-away code. Resolves once they are all closed.
   */
  async drain(via?: string): Promise<void> {
    const draining = [...this.sessions].filter(([, open]) => via === undefined || open.via === via);
    await Promise.all(
      draining.map(([session, open]) => {
        session.drain().catch((error: unknown) => {
          this.options.logger.error({ err: error, surface: this.options.name }, 'socket drain failed');
          session.shutdown();
        });
        return open.closed;
      }),
    );
  }

  /** Tells every open connection the app is going away. */
  close(): void {
    for (const session of this.sessions.keys()) session.shutdown();
    this.wss.close();
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://router');
    const vouched = identifiedOrg(req, this.options.identity, this.options.now());
    const headers = handshakeHeaders(req);
    const { sessionOrg } = this.options;
    if (vouched === undefined || (vouched === ANONYMOUS_ORG && !sessionOrg)) {
      return this.refuse(socket, refusalOf(req, this.options.identity, this.options.now()));
    }
    const refused =
      methodRefusal(req.method) ??
      (this.options.drain?.draining ? drainingError() : this.options.check(url, headers));
    if (refused) return this.refuse(socket, refused);
    if (vouched !== ANONYMOUS_ORG || !sessionOrg)
      return this.accept(req, socket, head, url, headers, vouched, false);
    // The session is read from the database: the socket waits, unanswered, and may be gone by then (ws then
    // drops it).
    sessionOrg(headers)
      .then((orgId) => this.accept(req, socket, head, url, headers, orgId, true))
      .catch((error: unknown) => {
        if (!(error instanceof RouterError)) {
          this.options.logger.error({ err: error, surface: this.options.name }, 'socket session failed');
        }
        this.refuse(socket, error instanceof RouterError ? error : RouterError.unexpected(error));
      });
  }

  private accept(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    url: URL,
    headers: IncomingHttpHeaders,
    orgId: string,
    bySession: boolean,
  ): void {
    const via =
      typeof req.headers[GATEWAY_INSTANCE_HEADER] === 'string'
        ? req.headers[GATEWAY_INSTANCE_HEADER]
        : undefined;
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      try {
        this.open(ws, orgId, url, headers, via, bySession);
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
      const allow = status === 405 ? 'allow: GET\r\n' : '';
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}\r\n${allow}` +
          `content-type: ${contentType}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    } catch (failure) {
      this.options.logger.error({ err: failure, surface: this.options.name }, 'socket refusal failed');
      socket.destroy();
    }
  }

  private open(
    ws: WebSocket,
    orgId: string,
    url: URL,
    headers: IncomingHttpHeaders,
    via: string | undefined,
    bySession: boolean,
  ): void {
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
    let closed!: () => void;
    this.sessions.set(session, { closed: new Promise<void>((resolve) => (closed = resolve)), via });
    this.openCount?.inc({ surface: name });
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
    const recheck = bySession
      ? this.recheckSession(session, headers, () => ws.close(CLOSE_POLICY, 'unauthorized'))
      : undefined;
    ws.once('close', (code: number) => {
      clearTimeout(idle);
      if (recheck) clearInterval(recheck);
      this.sessions.delete(session);
      this.openCount?.dec({ surface: name });
      closed();
      session.disconnected();
      logger.info({ orgId, surface: name, sessionId: session.id, code }, 'socket closed');
    });
  }

  /**
   * Asks again, every so often, whether the dashboard session a socket was opened with still admits it, as the
   * gateway does for a key's sockets: once it answers 401 or 403 the socket is ended.
   */
  private recheckSession(
    session: SocketSession,
    headers: IncomingHttpHeaders,
    close: () => void,
  ): NodeJS.Timeout {
    const { sessionOrg, logger, name } = this.options;
    let asking = false;
    const timer = setInterval(() => {
      if (asking || !sessionOrg) return;
      asking = true;
      sessionOrg(headers)
        .then(
          () => undefined,
          (error: unknown) => {
            if (!(error instanceof RouterError) || (error.status !== 401 && error.status !== 403)) return;
            clearInterval(timer);
            logger.info({ surface: name, sessionId: session.id }, 'open socket closed: session ended');
            if (session.revoked) session.revoked(error);
            else close();
          },
        )
        // The session's own failure to close ends that connection's check, never the process.
        .catch((failure: unknown) => {
          logger.error(
            { err: failure, surface: name, sessionId: session.id },
            'socket session recheck failed',
          );
          close();
        })
        .finally(() => (asking = false));
    }, this.options.sessionRecheckMs ?? SESSION_RECHECK_MS);
    timer.unref();
    return timer;
  }
}

/**
 * A socket is opened with GET only. The gateway answers any other method itself (keeping the client's
 * connection), so this is for an upgrade that reached the app otherwise: the surface's 405, not ws's bare one.
 */
function methodRefusal(method: string | undefined): RouterError | null {
  if (method === 'GET') return null;
  return RouterError.badRequest(`A WebSocket is opened with a GET request, not ${method ?? 'none'}.`, 405);
}

/** The handshake's headers a surface may read: the gateway's identity and name are the server's own. */
function handshakeHeaders(req: IncomingMessage): IncomingHttpHeaders {
  const { [IDENTITY_HEADER]: _identity, [GATEWAY_INSTANCE_HEADER]: _via, ...headers } = req.headers;
  return headers;
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

const OPEN_SOCKETS = 'router_open_sockets';

/** The app's gauge of open sockets by surface, shared by its socket servers (the standalone has several). */
function openSocketsGauge(registry: Registry): Gauge<'surface'> {
  return (
    (registry.getSingleMetric(OPEN_SOCKETS) as Gauge<'surface'> | undefined) ??
    new Gauge({
      name: OPEN_SOCKETS,
      help: 'WebSockets open on this app (native /v1/stream, the mirrors), by surface: what an autoscaler may follow',
      labelNames: ['surface'],
      registers: [registry],
    })
  );
}
