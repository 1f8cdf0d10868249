import WebSocket from 'ws';

/** An HTTP answer as it came: a refused handshake's. */
export interface RawAnswer {
  status: number;
  contentType: string | undefined;
  /** Every header of the answer (lower-case names, as Node reads them), where the reader kept them. */
  headers?: Readonly<Record<string, string | string[] | undefined>>;
  body: Buffer;
}

/** A text frame read as JSON (the vendors' frames are objects); `any`: its fields are each test's to read. */
export type JsonFrame = Record<string, any>;

/** One frame from the server, in the order frames came. */
export type ReceivedFrame = { binary: false; text: string } | { binary: true; data: Buffer };

/** How the socket ended, and which side closed it first. */
export interface SocketEnd {
  code: number;
  reason: string;
  by: 'server' | 'client';
}

export interface SocketOptions {
  /** Handshake headers (a vendor's key header, a version header). */
  headers?: Readonly<Record<string, string>>;
  /** Subprotocols the client offers (some vendors' clients put the key there). */
  protocols?: readonly string[];
  /** The certificate a `wss://` client trusts (the stack gateway's self-signed `tlsCertFile`, read). */
  ca?: Buffer;
}

interface Waiter {
  settled(frames: readonly JsonFrame[], latest: JsonFrame): boolean;
  fail(error: Error): void;
}

/**
 * A client's WebSocket as tests drive it, usually a mirror's socket through the gateway (`mirrorSocketUrl`):
 * the handshake (accepted, or refused with an HTTP answer), messages sent as JSON, text or bytes, every frame
 * kept in order, waits for a frame or a state of the frames (no deadline of their own: the test's timeout
 * bounds them, and a close before they are met fails them at once), and the close with its code.
 */
export class TestSocket {
  /** Every frame, text and binary, in order. */
  readonly received: ReceivedFrame[] = [];
  /** The text frames read as JSON, in order (a text frame that is not JSON is in `received` only). */
  readonly frames: JsonFrame[] = [];
  /** Settles when the handshake does: the socket open, or the server's refusal. */
  readonly handshake: Promise<{ kind: 'open' } | { kind: 'refused'; answer: RawAnswer }>;
  /** Settles when the socket has closed (never, for a refused handshake). */
  readonly closed: Promise<SocketEnd>;
  private readonly ws: WebSocket;
  private readonly waiters = new Set<Waiter>();
  private closedByClient = false;

  constructor(url: string, options: SocketOptions = {}) {
    this.ws = new WebSocket(url, [...(options.protocols ?? [])], {
      headers: { ...options.headers },
      perMessageDeflate: false,
      ...(options.ca ? { ca: options.ca } : {}),
    });
    this.ws.on('message', (data: Buffer, isBinary: boolean) => this.receive(data, isBinary));
    this.handshake = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve({ kind: 'open' }));
      this.ws.once('unexpected-response', (_req, res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.once('end', () => {
          const answer = {
            status: res.statusCode ?? 0,
            contentType: res.headers['content-type'],
            headers: res.headers,
            body: Buffer.concat(chunks),
          };
          resolve({ kind: 'refused', answer });
        });
      });
      this.ws.once('error', reject);
    });
    // Whoever awaits the handshake sees its failure; a socket nobody asks about fails quietly.
    this.handshake.catch(() => undefined);
    this.closed = new Promise((resolve) =>
      this.ws.once('close', (code: number, reason: Buffer) => {
        const end: SocketEnd = {
          code,
          reason: reason.toString(),
          by: this.closedByClient ? 'client' : 'server',
        };
        for (const waiter of this.waiters) {
          waiter.fail(new Error(`the socket closed (${code}) before the frames awaited came`));
        }
        this.waiters.clear();
        resolve(end);
      }),
    );
    // A failure after the handshake shows as the close (1006); the handshake reports one before it.
    this.ws.on('error', () => undefined);
  }

  /** Whether messages can be sent now. */
  get open(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  /** The subprotocol the server's handshake answer named (empty for none). */
  get protocol(): string {
    return this.ws.protocol;
  }

  /** The text frames as they came. */
  get texts(): string[] {
    return this.received.flatMap((frame) => (frame.binary ? [] : [frame.text]));
  }

  /** The binary frames as they came (audio, on vendors that send it raw). */
  get binaries(): Buffer[] {
    return this.received.flatMap((frame) => (frame.binary ? [frame.data] : []));
  }

  /** An object goes as JSON text, a string as text, bytes as a binary frame. */
  send(message: object | string | Buffer): void {
    if (Buffer.isBuffer(message)) this.ws.send(message, { binary: true });
    else this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The first JSON frame, from now on, that `matches`. */
  next(matches: (frame: JsonFrame) => boolean): Promise<JsonFrame> {
    return new Promise((resolve, reject) => {
      this.wait({
        settled: (_frames, latest) => {
          if (!matches(latest)) return false;
          resolve(latest);
          return true;
        },
        fail: reject,
      });
    });
  }

  /** Resolves once `holds` is true of the JSON frames so far (at once, when it already is). */
  until(holds: (frames: readonly JsonFrame[]) => boolean): Promise<void> {
    if (holds(this.frames)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.wait({
        settled: (frames) => {
          if (!holds(frames)) return false;
          resolve();
          return true;
        },
        fail: reject,
      });
    });
  }

  close(code = 1000): void {
    this.closedByClient = true;
    this.ws.close(code);
  }

  /** Drops the connection without a close handshake (a test giving up on a server that hangs). */
  terminate(): void {
    this.closedByClient = true;
    this.ws.terminate();
  }

  private wait(waiter: Waiter): void {
    if (this.ws.readyState === WebSocket.CLOSED) {
      waiter.fail(new Error('the socket is closed'));
      return;
    }
    this.waiters.add(waiter);
  }

  private receive(data: Buffer, isBinary: boolean): void {
    if (isBinary) {
      this.received.push({ binary: true, data });
      return;
    }
    const text = data.toString('utf8');
    this.received.push({ binary: false, text });
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof parsed !== 'object' || parsed === null) return;
    const frame: JsonFrame = parsed;
    this.frames.push(frame);
    for (const waiter of this.waiters) {
      if (waiter.settled(this.frames, frame)) this.waiters.delete(waiter);
    }
  }
}

/** Opens a socket; a refused handshake rejects with its status and body. */
export async function openSocket(url: string, options: SocketOptions = {}): Promise<TestSocket> {
  const socket = new TestSocket(url, options);
  const handshake = await socket.handshake;
  if (handshake.kind === 'refused') {
    const { status, body } = handshake.answer;
    throw new Error(`the socket was refused: ${status} ${body.toString('utf8').slice(0, 300)}`);
  }
  return socket;
}

/**
 * A mirror socket's URL through the gateway: `path` under the vendor's base (`/v1/text-to-speech/v1/stream-input`),
 * with the query given (as pairs, or as a string already encoded).
 */
export function mirrorSocketUrl(
  gatewayUrl: string,
  vendor: string,
  path: string,
  query: Readonly<Record<string, string>> | string = '',
): string {
  const search = typeof query === 'string' ? query : new URLSearchParams(query).toString();
  return `${gatewayUrl.replace(/^http/, 'ws')}/${vendor}${path}${search === '' ? '' : `?${search}`}`;
}
