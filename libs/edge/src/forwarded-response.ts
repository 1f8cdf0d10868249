import type { IncomingMessage, ServerResponse } from 'node:http';
import { cutBody } from '@router/service-kit';
import type { Dispatcher } from 'undici';
import { HOP_BY_HOP } from './forwarding';

/**
 * The app's answer written straight into the client's response as undici parses it: no body stream, no
 * promise pipeline or AbortController per request (each was a measurable share of the gateway's CPU).
 * The client's backpressure pauses the upstream; a client that leaves aborts it; an app that aborts its body
 * after the head (an error after audio started) aborts the client's.
 */
export class ForwardedResponse implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private clientGone = false;
  private settled = false;
  /** Runs while the client takes none of what is written to it (see `stall`). */
  private stallTimer: NodeJS.Timeout | undefined;

  /**
   * `stall`: a client that takes nothing of the answer for `ms` (0: no bound) is cut, as one that left, and
   * `onStalled` is told; one that reads at any pace, pausing for less, is held as long as its answer lasts.
   * What it takes is seen a write at a time (a chunk of the answer, some KiB to 64 KiB).
   */
  constructor(
    private readonly res: ServerResponse,
    private readonly resolve: () => void,
    private readonly reject: (error: Error) => void,
    private readonly stall: { ms: number; onStalled: () => void } = { ms: 0, onStalled: () => undefined },
  ) {
    // The server keeps half-open sockets (a client may half-close once its request is sent), so a FIN is not
    // a close: one that comes once the answer has begun is a client that stopped listening mid-answer.
    const socket = res.socket;
    const onEnd = (): void => {
      if (res.headersSent && !res.writableFinished) socket?.destroy();
    };
    socket?.once('end', onEnd);
    res.once('close', () => {
      socket?.off('end', onEnd);
      clearTimeout(this.stallTimer);
      if (res.writableFinished) return;
      this.clientGone = true;
      this.controller?.abort(new Error('the client went away'));
    });
    res.on('drain', () => {
      clearTimeout(this.stallTimer);
      this.stallTimer = undefined;
      this.controller?.resume();
    });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.clientGone) controller.abort(new Error('the client went away'));
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    if (statusCode < 200) return; // an informational head; the real one follows
    const responseHeaders: Record<string, string | string[]> = {};
    for (const name of Object.keys(headers)) {
      const value = headers[name];
      if (value !== undefined && !HOP_BY_HOP.has(name)) responseHeaders[name] = value;
    }
    this.res.writeHead(statusCode, responseHeaders);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.res.write(chunk)) return;
    controller.pause();
    if (this.stall.ms > 0 && this.stallTimer === undefined) this.watchStall(this.unsent());
  }

  /**
   * While the upstream is paused, what is still to go out only shrinks as the client takes it: a bound that
   * passes with less unsent than when it began is progress, and starts again; one with nothing taken cuts.
   */
  private watchStall(unsentAtStart: number): void {
    this.stallTimer = setTimeout(() => {
      const unsent = this.unsent();
      if (unsent < unsentAtStart) return this.watchStall(unsent);
      this.stall.onStalled();
      this.res.destroy();
    }, this.stall.ms);
  }

  /** Bytes written to the client's response that its socket has not yet handed to the kernel. */
  private unsent(): number {
    return this.res.writableLength;
  }

  onResponseEnd(): void {
    this.res.end();
    this.settle();
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.settled) return;
    this.settled = true;
    // The app aborted its body or the client left: pass the abort on. A client that left once audio flowed
    // ends a forwarded request; before the head it is an upstream error nobody is told about (onRequest).
    if (this.res.headersSent) cutBody(this.res, error);
    if (this.clientGone && this.res.headersSent) this.resolve();
    else this.reject(error);
  }

  private settle(): void {
    if (this.settled) return;
    this.settled = true;
    this.resolve();
  }
}

/**
 * A request body whole, or undefined once it is longer than maxBytes (declared so, or sent so in chunks: the
 * HTTP parser bounds neither), without holding more than that; rejects if the client goes away first.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | undefined> {
  if (Number(req.headers['content-length']) > maxBytes) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const onData = (chunk: Buffer): void => {
      length += chunk.length;
      if (length <= maxBytes) return void chunks.push(chunk);
      req.off('data', onData);
      req.pause();
      resolve(undefined);
    };
    req.on('data', onData);
    req.once('end', () => resolve(chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks)));
    req.once('error', reject);
    req.once('close', () => {
      if (!req.complete) reject(new Error('the client went away while sending its request'));
    });
  });
}

export function hasBody(req: IncomingMessage): boolean {
  return req.method !== 'GET' && req.method !== 'HEAD';
}
