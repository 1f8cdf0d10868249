import type { Bus } from './bus.interface';

export interface CommonBusOptions {
  /** Prepended to every subject (`<prefix>.<subject>`), e.g. to keep parallel test runs apart. */
  prefix?: string;
  /** Default request/reply deadline. Default 5000 ms. */
  requestTimeoutMs?: number;
  /** Default silence allowed on a streamed reply before it fails. Default 30000 ms. */
  streamTimeoutMs?: number;
  /** Default flow-control window of a streamed reply, in chunks. Default 16. */
  streamWindow?: number;
  /** On close, how long running handlers may take to finish. Default 2000 ms. */
  closeGraceMs?: number;
  /**
   * Failures nobody else sees (an event handler throwing, a reply that could not be sent). The default
   * writes the subject and the error's name/code to stderr, never its message (it may quote a payload).
   */
  onHandlerError?: (err: unknown, subject: string) => void;
}

export interface NatsBusOptions extends CommonBusOptions {
  kind: 'nats';
  /** One or more `nats://host:port` URLs. */
  url: string | string[];
  /** Connection name shown by the NATS server's monitoring. */
  name?: string;
  token?: string;
  user?: string;
  pass?: string;
  /**
   * A stream is given up once the process at its other end has been silent this long: each process sends
   * every peer it has streams with one heartbeat every quarter of it, and anything heard from a peer counts
   * for all its streams, so a consumer that holds back credit keeps its stream as long as its process lives.
   * A requester so notices a server that died (a worker killed mid-take, say) within this, and a server a
   * requester that died. Default 1500 ms.
   */
  streamLivenessMs?: number;
  /** Largest NATS message a stream frame may use; bigger chunks travel split. Default min(512 KiB, server max). */
  maxFrameBytes?: number;
  /** Wait between connection attempts (first connect and reconnects). Default 250 ms. */
  reconnectDelayMs?: number;
}

export interface MemoryBusOptions extends CommonBusOptions {
  kind: 'memory';
}

export type BusOptions = NatsBusOptions | MemoryBusOptions;

export interface ResolvedCommonOptions {
  prefix: string;
  requestTimeoutMs: number;
  streamTimeoutMs: number;
  streamWindow: number;
  closeGraceMs: number;
  onHandlerError: (err: unknown, subject: string) => void;
}

/** A window beyond this would let one stream buffer unbounded audio. */
export const MAX_STREAM_WINDOW = 4096;

function reportToStderr(err: unknown, subject: string): void {
  const name = err instanceof Error ? err.name : typeof err;
  const code = typeof err === 'object' && err !== null && 'code' in err ? ` ${String(err.code)}` : '';
  process.stderr.write(`[bus] handler for ${subject} failed: ${name}${code}\n`);
}

export function resolveCommonOptions(options: CommonBusOptions): ResolvedCommonOptions {
  return {
    prefix: options.prefix ?? '',
    requestTimeoutMs: options.requestTimeoutMs ?? 5000,
    streamTimeoutMs: options.streamTimeoutMs ?? 30000,
    streamWindow: clampWindow(options.streamWindow ?? 16),
    closeGraceMs: options.closeGraceMs ?? 2000,
    onHandlerError: options.onHandlerError ?? reportToStderr,
  };
}

export function clampWindow(window: number): number {
  return Math.min(MAX_STREAM_WINDOW, Math.max(1, Math.floor(window)));
}

export function prefixed(prefix: string, subject: string): string {
  return prefix ? `${prefix}.${subject}` : subject;
}

/** Tells a Bus instance from options (forRoot accepts either). */
export function isBus(value: unknown): value is Bus {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<Bus>).request === 'function' &&
    typeof (value as Partial<Bus>).close === 'function'
  );
}

/** Keeps the handlers a bus has started, so close() can give them a moment to finish. */
export class HandlerTracker {
  private readonly running = new Set<Promise<unknown>>();

  track<T>(work: Promise<T>): Promise<T> {
    this.running.add(work);
    const forget = (): void => {
      this.running.delete(work);
    };
    work.then(forget, forget);
    return work;
  }

  async settle(graceMs: number): Promise<void> {
    if (this.running.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
    });
    await Promise.race([Promise.allSettled([...this.running]), grace]);
    clearTimeout(timer);
  }
}
