import type { CacheContext } from './cache.context';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface RequestLogSweepReport {
  /** Request log rows removed for being older than `requestLogRetentionDays`. */
  removedRows: number;
}

/**
 * Removes the request log's rows older than the configured number of days (`REQUEST_LOG_RETENTION_DAYS`), in
 * batches of `sweepBatchSize`, so a large backlog never holds one long lock on a table the replies write to.
 */
export async function sweepRequestLog(context: CacheContext): Promise<RequestLogSweepReport> {
  const cutoff = new Date(context.now() - context.settings.requestLogRetentionDays * DAY_MS).toISOString();
  const batch = context.settings.sweepBatchSize;
  let removedRows = 0;
  for (;;) {
    const removed = await context.prisma.$executeRaw`
      DELETE FROM request_log WHERE id IN (
        SELECT id FROM request_log WHERE started_at < ${cutoff}::timestamptz LIMIT ${batch})`;
    removedRows += removed;
    if (removed < batch) return { removedRows };
  }
}
