import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';

/** One request the fake HTTP router received. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Handler = (req: ReceivedRequest, res: ServerResponse) => void | Promise<void>;

/**
 * An in-process HTTP server standing in for the router: each test sets the handler, and the requests it
 * received are kept for assertions. WebSocket upgrades to `/v1/stream` go to a `ws` server whose
 * connections are handed out as FakeStreamConnection.
 */
export class FakeRouter {
  readonly requests: ReceivedRequest[] = [];
  handler: Handler = (_req, res) => {
    res.statusCode = 404;
    res.end();
  };
  /** When set, the next handshakes are refused with this status and JSON body. */
  refuseHandshake: { status: number; body: unknown } | null = null;
  readonly handshakes: IncomingMessage[] = [];
  private readonly server: Server;
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly waiting: Array<(c: FakeStreamConnection) => void> = [];
  private readonly arrived: FakeStreamConnection[] = [];

  private constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const received = {
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        this.requests.push(received);
        void this.handler(received, res);
      });
    });
    this.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      this.handshakes.push(req);
      if (this.refuseHandshake) {
        const body = JSON.stringify(this.refuseHandshake.body);
        socket.end(
          `HTTP/1.1 ${this.refuseHandshake.status} Refused\r\ncontent-type: application/json\r\n` +
            `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
        );
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => {
        const connection = new FakeStreamConnection(ws);
        const waiter = this.waiting.shift();
        if (waiter) waiter(connection);
        else this.arrived.push(connection);
      });
    });
  }

  static async start(): Promise<FakeRouter> {
    const router = new FakeRouter();
    await new Promise<void>((resolve) => router.server.listen(0, '127.0.0.1', resolve));
    return router;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The next WebSocket connection a client opens. */
  connection(): Promise<FakeStreamConnection> {
    const ready = this.arrived.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  async stop(): Promise<void> {
    for (const client of this.wss.clients) client.terminate();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The router's end of one `/v1/stream` connection, driven by a test. */
export class FakeStreamConnection {
  private readonly messages: unknown[] = [];
  private readonly waiters: Array<(m: unknown) => void> = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer, isBinary) => {
      const message: unknown = isBinary ? { binary: data } : JSON.parse(data.toString('utf8'));
      const waiter = this.waiters.shift();
      if (waiter) waiter(message);
      else this.messages.push(message);
    });
    this.closed = new Promise((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })),
    );
  }

  /** The next message the client sent, parsed. */
  next(): Promise<any> {
    if (this.messages.length > 0) return Promise.resolve(this.messages.shift());
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Messages already received and not yet taken with `next()`. */
  pending(): unknown[] {
    return this.messages.splice(0);
  }

  send(message: Record<string, unknown>): void {
    this.ws.send(JSON.stringify(message));
  }

  audio(bytes: number[]): void {
    this.ws.send(Buffer.from(bytes), { binary: true });
  }

  /** Answers the settings message the client sends first, as the router does. */
  async accept(sessionId = 'session-1'): Promise<any> {
    const settings = await this.next();
    const { type: _type, ...rest } = settings;
    this.send({ type: 'ready', session_id: sessionId, settings: resolved(rest) });
    return settings;
  }

  close(code: number, reason = ''): void {
    this.ws.close(code, reason);
  }
}

/** Settings as the router's `ready` resolves them: every field present, defaults filled in. */
export function resolved(settings: Record<string, unknown>): Record<string, unknown> {
  return {
    language: null,
    response_format: 'mp3',
    speed: null,
    sample_rate: 24000,
    ...settings,
    options: { sync_alignment: true, ...(settings.options as object | undefined) },
  };
}
