import type { Bus } from '@router/bus';
import { type CacheUsage, cacheUsageBatchV1, USAGE_BATCH_MAX } from '@router/contracts';

/** How long a hit's usage waits for others to go with it. */
const FLUSH_MS = 50;

/**
 * The hits an app served, sent to cache-service in batches: one message per FLUSH_MS (or per USAGE_BATCH_MAX
 * events) rather than one per hit, so a hit costs neither this process nor cache-service a message of its own
 * (cache-service batches its writes the same way). What waits is at most FLUSH_MS of counts, lost only with
 * the process, as cache-service's unwritten counts are.
 */
export class UsageReporter {
  private pending: CacheUsage[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly bus: Bus) {}

  record(event: CacheUsage): void {
    this.pending.push(event);
    if (this.pending.length >= USAGE_BATCH_MAX) this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), FLUSH_MS);
      this.timer.unref();
    }
  }

  /** Sends what waits now (the timer's turn, a full batch, or the app closing). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const events = this.pending;
    this.pending = [];
    this.bus.publish(cacheUsageBatchV1, { events }).catch(() => undefined);
  }
}
