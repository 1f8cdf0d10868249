import { createHash } from 'node:crypto';
import type { Bus, Subscription } from '@router/bus';
import { RouterError, synthWorkerHeartbeatV1 } from '@router/contracts';

/**
 * The live synthesis workers, from their heartbeats, and which one a piece goes to: rendezvous hashing on
 * the cache key, so every requester sends identical takes to the same worker, where they share one vendor
 * call, and a worker leaving moves only its own keys.
 */
export class WorkerDirectory {
  private readonly seen = new Map<string, number>();
  private readonly subscription: Subscription;
  private waiting: Array<() => void> = [];

  constructor(
    bus: Bus,
    private readonly options: { expiryMs: number; waitMs: number; now: () => number },
  ) {
    this.subscription = bus.subscribe(synthWorkerHeartbeatV1, ({ workerId }) => {
      this.seen.set(workerId, this.options.now());
      const waiting = this.waiting;
      this.waiting = [];
      waiting.forEach((wake) => wake());
    });
  }

  ready(): Promise<void> {
    return this.subscription.ready();
  }

  /** The worker for this key; waits briefly for a first heartbeat when none is known (a fresh start). */
  async pick(cacheKey: string): Promise<string> {
    let live = this.live();
    if (live.length === 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.options.waitMs);
        this.waiting.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
      live = this.live();
    }
    let best: string | undefined;
    let bestScore = '';
    for (const workerId of live) {
      const score = createHash('sha1').update(`${workerId}:${cacheKey}`).digest('hex');
      if (score > bestScore) {
        best = workerId;
        bestScore = score;
      }
    }
    if (best === undefined) throw new RouterError('internal', 'No synthesis worker is running.');
    return best;
  }

  close(): void {
    this.subscription.unsubscribe();
  }

  private live(): string[] {
    const cutoff = this.options.now() - this.options.expiryMs;
    return [...this.seen].filter(([, at]) => at >= cutoff).map(([id]) => id);
  }
}
