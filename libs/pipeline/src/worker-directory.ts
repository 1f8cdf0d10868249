import type { Bus, Subscription } from '@router/bus';
import { keyShard, RouterError, shardOwner, synthWorkerHeartbeatV1 } from '@router/contracts';

/**
 * The live synthesis workers, from their heartbeats, and which one a piece goes to: rendezvous hashing on
 * the cache key's shard, so every requester sends identical takes to the same worker, where they share one
 * vendor call, a worker leaving moves only its own shards, and a key goes to the worker that leases its shard
 * (and so claims it without a database round trip).
 *
 * A worker found gone (nobody answered on its subject: NATS drops a dead client's subscriptions at once) is
 * dropped at once rather than when its heartbeats expire, and its heartbeats are ignored for one expiry so one
 * already on its way cannot bring it back. While this process is cut off from NATS nothing is heard from anyone, which says
 * nothing about the workers: a piece waits up to `waitMs` for the bus, then fails with a retryable error,
 * and on reconnect every known worker counts as just heard from.
 */
export class WorkerDirectory {
  private readonly seen = new Map<string, number>();
  /** The take subjects each worker serves besides `synth.take.v1` (from its latest heartbeat). */
  private readonly serving = new Map<string, readonly string[]>();
  private readonly gone = new Map<string, number>();
  private readonly subscription: Subscription;
  private readonly stopWatching: () => void;
  private waiting: Array<() => void> = [];

  constructor(
    private readonly bus: Bus,
    private readonly options: { expiryMs: number; waitMs: number; now: () => number },
  ) {
    this.subscription = bus.subscribe(synthWorkerHeartbeatV1, ({ workerId, serves, leaving }) => {
      if (leaving) return this.markGone(workerId);
      const goneAt = this.gone.get(workerId);
      if (goneAt !== undefined) {
        if (this.options.now() - goneAt < this.options.expiryMs) return;
        this.gone.delete(workerId);
      }
      this.seen.set(workerId, this.options.now());
      this.serving.set(workerId, serves ?? []);
      this.wakeAll();
    });
    this.stopWatching = bus.onStatusChange((status) => {
      if (status !== 'connected') return;
      const now = this.options.now();
      for (const workerId of this.seen.keys()) this.seen.set(workerId, now);
      this.wakeAll();
    });
  }

  ready(): Promise<void> {
    return this.subscription.ready();
  }

  /**
   * The worker for this key, leaving out `except` (a worker that just failed this piece) and, with `serving`,
   * every worker whose heartbeat does not list that subject (one from before it would not answer); waits up
   * to `waitMs` for the bus to be connected and for a first heartbeat when none is known (a fresh start).
   */
  async pick(cacheKey: string, except?: string, serving?: string): Promise<string> {
    let live = this.live(except, serving);
    if (this.bus.status() !== 'connected' || live.length === 0) {
      await this.waitUntil(() => this.bus.status() === 'connected' && this.live(except, serving).length > 0);
      if (this.bus.status() !== 'connected') {
        throw RouterError.unavailable('The message bus is unreachable; retry shortly.');
      }
      live = this.live(except, serving);
    }
    const best = shardOwner(keyShard(cacheKey), live);
    if (best === undefined) throw RouterError.unavailable('No synthesis worker is running; retry shortly.');
    return best;
  }

  /** Nobody answers on the worker's subject: no piece goes to it until it is heard from again. */
  markGone(workerId: string): void {
    // Cut off from NATS ourselves, we cannot tell; the bus's own recovery covers that case.
    if (this.bus.status() !== 'connected') return;
    this.seen.delete(workerId);
    this.serving.delete(workerId);
    this.gone.set(workerId, this.options.now());
  }

  close(): void {
    this.subscription.unsubscribe();
    this.stopWatching();
    this.wakeAll();
  }

  private live(except?: string, serving?: string): string[] {
    const cutoff = this.options.now() - this.options.expiryMs;
    return [...this.seen]
      .filter(
        ([id, at]) =>
          at >= cutoff &&
          id !== except &&
          (serving === undefined || this.serving.get(id)?.includes(serving) === true),
      )
      .map(([id]) => id);
  }

  /**
   * Waits for `done()` to hold, re-checked on every heartbeat and status change, for at most `waitMs` of real
   * time (an injected clock dates heartbeats; it does not pace this wait).
   */
  private async waitUntil(done: () => boolean): Promise<void> {
    const deadline = Date.now() + this.options.waitMs;
    while (!done()) {
      const left = deadline - Date.now();
      if (left <= 0) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiting.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  private wakeAll(): void {
    const waiting = this.waiting;
    this.waiting = [];
    waiting.forEach((wake) => wake());
  }
}
