import { checkPayload, type StreamDef } from '@router/contracts';
import { BusError, BusErrorCode, toBusErrorJSON, type BusErrorJSON } from './bus.error';
import type { StreamHandler, StreamSink } from './bus.interface';

/** How a sender reaches its requester; each transport supplies one. Values are already checked. */
export interface SenderLink {
  header(value: unknown): void;
  chunk(bytes: Uint8Array): void;
  end(value: unknown): void;
  error(err: BusErrorJSON): void;
  /** The stream is over on this side (sent its end or error, or aborted): forget it. Called once. */
  dispose(): void;
}

type Pending =
  | { kind: 'chunk'; bytes: Uint8Array; resolve(): void; reject(err: unknown): void }
  | { kind: 'end'; value: unknown; resolve(): void; reject(err: unknown): void };

/** Rejections of a promise nobody awaits must not crash the process; the `aborted` signal tells them. */
function quiet(promise: Promise<void>): Promise<void> {
  promise.catch(() => undefined);
  return promise;
}

/**
 * The server's end of one streamed reply, independent of the transport: checks header and trailer, sends
 * chunks in order as credit allows, and aborts on cancel, silence or close.
 */
export class StreamSender<Header, Trailer> implements StreamSink<Header, Trailer> {
  private credit: number;
  private readonly pending: Pending[] = [];
  private headerSent = false;
  private endQueued = false;
  private finished = false;
  private readonly abortController = new AbortController();

  constructor(
    private readonly def: StreamDef<unknown, Header, Trailer>,
    window: number,
    private readonly link: SenderLink,
  ) {
    this.credit = window;
  }

  get aborted(): AbortSignal {
    return this.abortController.signal;
  }

  get isFinished(): boolean {
    return this.finished;
  }

  header(header: Header): void {
    if (this.finished) return;
    if (this.headerSent) throw new Error(`header already sent on ${this.def.subject}`);
    const checked = checkPayload(this.def.subject, 'header', this.def.header, header);
    this.headerSent = true;
    this.link.header(checked);
  }

  write(chunk: Uint8Array): Promise<void> {
    if (this.aborted.aborted) return quiet(Promise.reject(asError(this.aborted.reason)));
    if (this.finished || this.endQueued)
      return quiet(Promise.reject(new Error(`stream on ${this.def.subject} already ended`)));
    if (!(chunk instanceof Uint8Array))
      return quiet(Promise.reject(new TypeError('a stream chunk must be a Uint8Array')));
    try {
      this.ensureHeader();
    } catch (err) {
      return quiet(Promise.reject(asError(err)));
    }
    return quiet(
      new Promise<void>((resolve, reject) => {
        this.pending.push({ kind: 'chunk', bytes: chunk, resolve, reject });
        this.pump();
      }),
    );
  }

  end(...args: undefined extends Trailer ? [trailer?: Trailer] : [trailer: Trailer]): Promise<void> {
    if (this.finished) return Promise.resolve();
    if (this.endQueued)
      return quiet(Promise.reject(new Error(`stream on ${this.def.subject} already ended`)));
    let value: Trailer;
    try {
      this.ensureHeader();
      value = checkPayload(this.def.subject, 'trailer', this.def.trailer, args[0]);
    } catch (err) {
      return quiet(Promise.reject(asError(err)));
    }
    this.endQueued = true;
    return quiet(
      new Promise<void>((resolve, reject) => {
        this.pending.push({ kind: 'end', value, resolve, reject });
        this.pump();
      }),
    );
  }

  error(err: unknown): void {
    if (this.finished) return;
    this.finished = true;
    const json = toBusErrorJSON(err);
    this.rejectPending(new BusError(json.code, json.message, json.details));
    this.trySend(() => this.link.error(json));
    this.link.dispose();
  }

  // ---- from the transport ----

  grant(chunks: number): void {
    if (this.finished) return;
    this.credit += chunks;
    this.pump();
  }

  /** The requester is gone (cancel, silence) or the bus is closing; `notify` also tells the requester why. */
  abort(reason: BusError, notify = false): void {
    if (this.finished) return;
    this.finished = true;
    if (notify) this.trySend(() => this.link.error(reason.toJSON()));
    this.rejectPending(reason);
    this.link.dispose();
    this.abortController.abort(reason);
  }

  /** Runs a handler to completion: a return without end() ends the stream, a throw fails it. */
  async run<Req>(handler: StreamHandler<Req, Header, Trailer>, request: Req): Promise<void> {
    try {
      await handler(request, this);
      if (!this.finished && !this.endQueued) {
        await (this.end as (trailer?: Trailer) => Promise<void>)(undefined);
      }
    } catch (err) {
      this.error(err);
    }
  }

  // ---- internals ----

  private ensureHeader(): void {
    if (!this.headerSent) this.header(undefined as Header);
  }

  private pump(): void {
    while (!this.finished) {
      const next = this.pending[0];
      if (!next) return;
      if (next.kind === 'chunk' && this.credit <= 0) return;
      this.pending.shift();
      try {
        if (next.kind === 'chunk') {
          this.credit -= 1;
          this.link.chunk(next.bytes);
        } else {
          this.link.end(next.value);
          this.finished = true;
          this.link.dispose();
        }
      } catch (err) {
        // The transport refused (connection gone, payload too big): stop here; the requester times out.
        const message = err instanceof Error ? err.message : 'send failed';
        const failure = new BusError(
          BusErrorCode.transport,
          `sending on ${this.def.subject} failed: ${message}`,
          undefined,
          {
            cause: err,
          },
        );
        next.reject(failure);
        this.abort(failure);
        return;
      }
      next.resolve();
    }
  }

  private trySend(action: () => void): void {
    try {
      action();
    } catch {
      // Best effort: this is already the stream's last word; the requester's silence timer covers a loss.
    }
  }

  private rejectPending(err: unknown): void {
    for (const item of this.pending.splice(0)) item.reject(err);
  }
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
