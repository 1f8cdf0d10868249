import { checkPayload, type StreamDef } from '@router/contracts';
import { BusError, BusErrorCode, BusRemoteError } from './bus.error';
import type { BusStream } from './bus.interface';

/** How a receiver talks back to its server; each transport supplies one. */
export interface ReceiverLink {
  /** Grants the server `chunks` more chunks. */
  credit(chunks: number): void;
  /** Tells the server to stop. */
  cancel(): void;
  /** The stream is over on this side: forget it (subscriptions, timers). Called once. */
  dispose(): void;
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(err: unknown): void;
  settled: boolean;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Callers may never ask for the header or trailer; their failure is reported through iteration as well.
  promise.catch(() => undefined);
  const d: Deferred<T> = {
    promise,
    settled: false,
    resolve: (value) => {
      d.settled = true;
      resolve(value);
    },
    reject: (err) => {
      d.settled = true;
      reject(err);
    },
  };
  return d;
}

export interface ReceiverOptions {
  window: number;
  /** Silence allowed while the server owes data. */
  timeoutMs: number;
  /** Silence allowed before the server's first frame; `timeoutMs` when absent. */
  firstFrameTimeoutMs?: number;
  signal?: AbortSignal | undefined;
}

/**
 * The requester's end of one streamed reply, independent of the transport: buffers at most `window` chunks,
 * grants credit as the consumer takes them, checks header and trailer, and turns silence, cancels and
 * server errors into the iteration's outcome.
 */
export class StreamReceiver<Header, Trailer>
  implements BusStream<Header, Trailer>, AsyncIterator<Uint8Array>
{
  private readonly queue: Uint8Array[] = [];
  private state: 'open' | 'ended' | 'failed' = 'open';
  private failure: Error | undefined;
  private returned = false;
  private headerSeen = false;
  private waiter: Deferred<IteratorResult<Uint8Array>> | undefined;
  private consumedSinceGrant = 0;
  private readonly grantBatch: number;
  private progressTimer: NodeJS.Timeout | undefined;
  /** The running timer's length (the first frame may be given longer than the frames after it). */
  private progressTimerMs = 0;
  private heard = false;
  private readonly headerValue = deferred<Header>();
  private readonly trailerValue = deferred<Trailer>();
  private link: ReceiverLink | undefined;
  private readonly onAbort = (): void => {
    this.fail(
      new BusError(BusErrorCode.cancelled, 'stream cancelled by its signal', undefined, {
        cause: this.signal?.reason,
      }),
      true,
    );
  };
  private readonly signal: AbortSignal | undefined;

  constructor(
    private readonly def: StreamDef<unknown, Header, Trailer>,
    private readonly options: ReceiverOptions,
  ) {
    // Granting in batches of half the window keeps credit messages rare while the server never runs dry.
    this.grantBatch = Math.max(1, Math.floor(options.window / 2));
    this.signal = options.signal;
  }

  /** Connects the transport; the stream starts counting silence from here. */
  attach(link: ReceiverLink): this {
    this.link = link;
    if (this.signal?.aborted) {
      this.onAbort();
      return this;
    }
    this.signal?.addEventListener('abort', this.onAbort, { once: true });
    this.refreshProgressTimer();
    return this;
  }

  get isOpen(): boolean {
    return this.state === 'open';
  }

  // ---- from the transport ----

  /** Any sign of life from the server that is not data (e.g. a fragment of a chunk). */
  onActivity(): void {
    this.heard = true;
    if (this.state === 'open') this.refreshProgressTimer();
  }

  onHeader(raw: unknown): void {
    this.heard = true;
    if (this.state !== 'open') return;
    if (this.headerSeen) return this.protocolError('second header');
    this.headerSeen = true;
    try {
      this.headerValue.resolve(checkPayload(this.def.subject, 'header', this.def.header, raw));
    } catch (err) {
      return this.fail(asError(err), true);
    }
    this.refreshProgressTimer();
  }

  onChunk(bytes: Uint8Array): void {
    this.heard = true;
    if (this.state !== 'open') return;
    if (!this.headerSeen) return this.protocolError('chunk before header');
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = undefined;
      this.noteConsumed();
      waiter.resolve({ value: bytes, done: false });
    } else {
      this.queue.push(bytes);
    }
    this.refreshProgressTimer();
  }

  onEnd(raw: unknown): void {
    if (this.state !== 'open') return;
    if (!this.headerSeen) return this.protocolError('end before header');
    let trailer: Trailer;
    try {
      trailer = checkPayload(this.def.subject, 'trailer', this.def.trailer, raw);
    } catch (err) {
      return this.fail(asError(err), true);
    }
    this.state = 'ended';
    this.trailerValue.resolve(trailer);
    this.finish();
    if (this.waiter && this.queue.length === 0) this.takeWaiter()?.resolve({ value: undefined, done: true });
  }

  /** `json` is the server's BusErrorJSON as decoded, or an Error raised here. */
  onError(json: unknown): void {
    this.fail(json instanceof Error ? json : BusRemoteError.fromJSON(json), false);
  }

  /** Fails the stream with a local cause; `notifyServer` sends a cancel so the server stops too. */
  fail(err: Error, notifyServer: boolean): void {
    if (this.state !== 'open') return;
    this.state = 'failed';
    this.failure = err;
    if (err instanceof BusError && err.code === BusErrorCode.cancelled) this.queue.length = 0;
    if (!this.headerValue.settled) this.headerValue.reject(err);
    this.trailerValue.reject(err);
    if (notifyServer) this.link?.cancel();
    this.finish();
    if (this.waiter && this.queue.length === 0) this.takeWaiter()?.reject(err);
  }

  // ---- for the consumer ----

  header(): Promise<Header> {
    return this.headerValue.promise;
  }

  trailer(): Promise<Trailer> {
    return this.trailerValue.promise;
  }

  cancel(): void {
    // Checked first: a piece's reader cancels in its `finally` whether or not the stream already ended.
    if (this.state !== 'open') return;
    this.fail(new BusError(BusErrorCode.cancelled, 'stream cancelled by the consumer'), true);
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    return this;
  }

  next(): Promise<IteratorResult<Uint8Array>> {
    if (this.returned) return Promise.resolve({ value: undefined, done: true });
    const chunk = this.queue.shift();
    if (chunk) {
      this.noteConsumed();
      if (this.queue.length === 0) this.refreshProgressTimer();
      return Promise.resolve({ value: chunk, done: false });
    }
    if (this.state === 'ended') return Promise.resolve({ value: undefined, done: true });
    if (this.state === 'failed') return Promise.reject(this.failure ?? new Error('stream failed'));
    if (this.waiter) return Promise.reject(new Error('a bus stream can be read by one consumer at a time'));
    this.waiter = deferred();
    return this.waiter.promise;
  }

  /** Leaving a for-await loop early lands here: cancel the server, report done. */
  return(): Promise<IteratorResult<Uint8Array>> {
    this.returned = true;
    if (this.state === 'open') this.cancel();
    this.queue.length = 0;
    return Promise.resolve({ value: undefined, done: true });
  }

  // ---- internals ----

  private takeWaiter(): Deferred<IteratorResult<Uint8Array>> | undefined {
    const waiter = this.waiter;
    this.waiter = undefined;
    return waiter;
  }

  private noteConsumed(): void {
    if (this.state !== 'open') return;
    this.consumedSinceGrant += 1;
    if (this.consumedSinceGrant >= this.grantBatch) {
      const chunks = this.consumedSinceGrant;
      this.consumedSinceGrant = 0;
      this.link?.credit(chunks);
    }
  }

  /**
   * The silence timer runs only while nothing is buffered: then the server holds credit and owes us data.
   * With chunks buffered the server may be legitimately waiting for credit.
   */
  private refreshProgressTimer(): void {
    if (this.state !== 'open' || this.queue.length > 0) {
      this.clearProgressTimer();
      return;
    }
    const ms = this.heard
      ? this.options.timeoutMs
      : (this.options.firstFrameTimeoutMs ?? this.options.timeoutMs);
    if (this.progressTimer && this.progressTimerMs === ms) {
      this.progressTimer.refresh();
      return;
    }
    this.clearProgressTimer();
    this.progressTimerMs = ms;
    this.progressTimer = setTimeout(() => {
      this.progressTimer = undefined;
      // Timers run before this turn's I/O is read: after the process itself was busy for a while, frames may
      // be waiting unread. Judge the silence only once they have had their turn (they re-arm the timer).
      setImmediate(() => {
        if (this.progressTimer !== undefined || this.state !== 'open' || this.queue.length > 0) return;
        this.fail(new BusError(BusErrorCode.timeout, `no data on ${this.def.subject} for ${ms} ms`), true);
      });
    }, ms);
  }

  private clearProgressTimer(): void {
    if (this.progressTimer) clearTimeout(this.progressTimer);
    this.progressTimer = undefined;
  }

  private protocolError(what: string): void {
    this.fail(new BusError(BusErrorCode.protocol, `${what} on ${this.def.subject}`), true);
  }

  private finish(): void {
    this.clearProgressTimer();
    this.signal?.removeEventListener('abort', this.onAbort);
    this.link?.dispose();
  }
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
