import type { WordTiming } from '@router/contracts';

export interface TakeResult {
  words: WordTiming[] | null;
  cached: boolean;
}

/**
 * One vendor take shared by every request for the same piece while it runs: chunks are kept in order so a
 * request that joins late gets the whole take from its first byte, then follows it live. The take runs to
 * its end whoever is listening (a client that leaves does not cut a take short), unless a requester
 * interrupted it and nobody follows it any more: then `stopped` fires and the vendor call is stopped.
 */
export class Take {
  private readonly chunks: Buffer[] = [];
  private finished = false;
  private followers = 0;
  private stopRequested = false;
  private readonly stopper = new AbortController();
  private failure: Error | undefined;
  private wake: Array<() => void> = [];
  readonly result: Promise<TakeResult>;
  private settle!: { resolve: (r: TakeResult) => void; reject: (e: unknown) => void };

  constructor(readonly contentType: string) {
    this.result = new Promise<TakeResult>((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    // Followers observe failures through follow(); this keeps an unobserved result from crashing the process.
    this.result.catch(() => undefined);
  }

  /** A take that is already whole: a committed one, replayed. */
  static replaying(contentType: string, audio: Buffer, words: WordTiming[] | null): Take {
    const take = new Take(contentType);
    take.push(audio);
    take.complete({ words, cached: true });
    return take;
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

  complete(result: TakeResult): void {
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
