/** How every take ends: whether it is now the key's committed take (plus what its kind adds, e.g. words). */
export interface TakeOutcome {
  cached: boolean;
}

/**
 * One vendor take shared by every request for the same key while it runs (a sentence take or a whole-request
 * take: `Head` is what goes before the body, `Result` what follows it): chunks are kept in order so a
 * request that joins late gets the whole take from its first byte, then follows it live. The take runs to
 * its end whoever is listening (a client that leaves does not cut a take short), unless a requester
 * interrupted it and nobody follows it any more: then `stopped` fires and the vendor call is stopped.
 */
export class Take<Head, Result extends TakeOutcome> {
  private readonly chunks: Buffer[] = [];
  private opened: Head | undefined;
  private finished = false;
  private followers = 0;
  private stopRequested = false;
  private readonly stopper = new AbortController();
  private failure: Error | undefined;
  private wake: Array<() => void> = [];
  readonly result: Promise<Result>;
  private settle!: { resolve: (r: Result) => void; reject: (e: unknown) => void };

  /** `head`: where it is known before the vendor answers (a sentence's content type); else `open` sets it. */
  constructor(head?: Head) {
    this.opened = head;
    this.result = new Promise<Result>((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    // Followers observe failures through follow(); this keeps an unobserved result from crashing the process.
    this.result.catch(() => undefined);
  }

  /** A take that is already whole: a committed one, replayed. */
  static replaying<Head, Result extends TakeOutcome>(
    head: Head,
    body: Buffer,
    result: Result,
  ): Take<Head, Result> {
    const take = new Take<Head, Result>(head);
    take.push(body);
    take.complete(result);
    return take;
  }

  /** What goes before the body (set before the first chunk); undefined until then. */
  get head(): Head | undefined {
    return this.opened;
  }

  /** Sets the head once the vendor has answered; before any chunk. */
  open(head: Head): void {
    this.opened ??= head;
  }

  get audio(): Buffer[] {
    return this.chunks;
  }

  /** Fires when the take should be stopped at the vendor (interrupted, and nobody else follows it). */
  get stopped(): AbortSignal {
    return this.stopper.signal;
  }

  /** A requester interrupted this piece: stop the take once every follower has gone. */
  requestStop(): void {
    this.stopRequested = true;
    this.stopIfAbandoned();
  }

  private stopIfAbandoned(): void {
    if (this.stopRequested && this.followers === 0 && !this.finished) this.stopper.abort();
  }

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.notify();
  }

  complete(result: Result): void {
    this.finished = true;
    this.settle.resolve(result);
    this.notify();
  }

  fail(error: Error): void {
    this.finished = true;
    this.failure = error;
    this.settle.reject(error);
    this.notify();
  }

  /** Every chunk from the first, then live ones, until the take ends; throws the take's failure. */
  async *follow(signal?: AbortSignal): AsyncGenerator<Buffer> {
    let next = 0;
    // One abort listener per follower (not per wait), removed when the follower stops.
    let wakeOnAbort: (() => void) | undefined;
    const onAbort = (): void => wakeOnAbort?.();
    signal?.addEventListener('abort', onAbort, { once: true });
    this.followers += 1;
    try {
      for (;;) {
        while (next < this.chunks.length) {
          if (signal?.aborted) return;
          yield this.chunks[next++];
        }
        if (this.finished) {
          if (this.failure !== undefined) throw this.failure;
          return;
        }
        if (signal?.aborted) return;
        await new Promise<void>((resolve) => {
          wakeOnAbort = resolve;
          this.wake.push(resolve);
        });
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.followers -= 1;
      this.stopIfAbandoned();
    }
  }

  private notify(): void {
    const waiting = this.wake;
    this.wake = [];
    for (const resolve of waiting) resolve();
  }
}
