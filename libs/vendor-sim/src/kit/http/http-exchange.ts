import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { MirrorReply } from '@router/vendors-core';

/** One HTTP request to a simulated vendor, with the helpers every handler needs. */
export class HttpExchange {
  private readonly gone = new AbortController();

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    /** The path inside the vendor's mount, e.g. `/v1/voices`. */
    readonly path: string,
    readonly query: URLSearchParams,
    readonly body: Buffer,
    readonly params: Readonly<Record<string, string>> = {},
  ) {
    res.once('close', () => {
      if (!res.writableFinished) this.gone.abort();
    });
    // A client can leave while its body is still being read; writes after that must not crash the process.
    res.on('error', () => this.gone.abort());
    if (req.socket.destroyed) this.gone.abort();
  }

  get method(): string {
    return this.req.method ?? 'GET';
  }

  /** Aborted when the client goes away before the response is complete. */
  get signal(): AbortSignal {
    return this.gone.signal;
  }

  /** A request header (case-insensitive); the first value where the header was sent several times. */
  header(name: string): string | undefined {
    const value = this.req.headers[name.toLowerCase()];
    return Array.isArray(value) ? value[0] : value;
  }

  /** The body as JSON, or `undefined` when it is empty or not JSON. */
  json(): unknown {
    if (this.body.length === 0) return undefined;
    try {
      return JSON.parse(this.body.toString('utf8')) as unknown;
    } catch {
      return undefined;
    }
  }

  sendJson(status: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
    this.send(status, 'application/json', Buffer.from(JSON.stringify(body)), headers);
  }

  /** A whole answer built by a vendor folder (its 404, for one). */
  sendReply(reply: MirrorReply): void {
    const { 'content-type': contentType = 'application/octet-stream', ...headers } = reply.headers;
    this.send(reply.status, contentType, reply.body, headers);
  }

  send(status: number, contentType: string, body: Buffer | string, headers: OutgoingHttpHeaders = {}): void {
    if (this.res.headersSent) {
      this.res.end();
      return;
    }
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    this.res.writeHead(status, { ...headers, 'content-type': contentType, 'content-length': bytes.length });
    this.res.end(bytes);
  }

  /** Starts a chunked response (no content-length). */
  open(status: number, contentType: string, headers: OutgoingHttpHeaders = {}): void {
    if (this.res.headersSent) return;
    this.res.writeHead(status, { ...headers, 'content-type': contentType, 'cache-control': 'no-store' });
    this.res.flushHeaders();
  }

  /** Writes and waits for the socket to drain, so a slow client slows the stream instead of buffering it. */
  async write(chunk: Buffer | string): Promise<void> {
    if (this.res.destroyed || this.signal.aborted) return;
    if (this.res.write(chunk)) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.once('drain', done);
      this.res.once('close', done);
    });
  }

  end(): void {
    if (!this.res.destroyed) this.res.end();
  }

  /** Ends a chunked response with HTTP trailers (their names announced in a `trailer` header at open). */
  endWithTrailers(trailers: Readonly<Record<string, string>>): void {
    if (this.res.destroyed) return;
    this.res.addTrailers(trailers);
    this.res.end();
  }

  /**
   * Drops the connection without ending the response (a cut): bytes already written still reach the client,
   * then the socket closes mid-body, so the client sees a truncated body rather than a clean end.
   */
  destroy(): void {
    const socket = this.req.socket;
    if (socket.destroyed) return;
    if (!this.res.headersSent) {
      socket.destroy();
      return;
    }
    const force = setTimeout(() => socket.destroy(), 1000);
    force.unref();
    socket.once('close', () => clearTimeout(force));
    socket.destroySoon();
  }
}
