import { wordsObjectNameOf } from '@router/contracts';
import type { CacheContext } from './cache.context';
import { deleteBlobs, publishInvalidations, type EntryRef } from './removed-entries';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface RetentionSweepReport {
  /** Index rows removed (each with its blobs). */
  removedEntries: number;
  /** Orgs that lost entries (each got `cache.invalidated.v1` events). */
  orgs: number;
}

interface RemovedRow extends EntryRef {
  objectName: string;
}

/**
 * Removes every entry unused for longer than its org's retention as it is now (so a retention change applies
 * to everything cached), and every entry of an org whose retention is 0. Rows go first, blobs after: a crash
 * in between leaves blobs without rows, which the orphan sweep removes, never a row without its blob.
 */
export async function sweepRetention(context: CacheContext): Promise<RetentionSweepReport> {
  const now = context.now();
  // DISTINCT in SQL: Prisma's `distinct` would read every org and dedupe in memory.
  const retentions = await context.prisma.$queryRaw<{ retentionDays: number }[]>`
    SELECT DISTINCT retention_days AS "retentionDays" FROM orgs`;
  const orgs = new Set<string>();
  let removedEntries = 0;
  for (const { retentionDays } of retentions) {
    const cutoff = new Date(now - retentionDays * DAY_MS).toISOString();
    for (;;) {
      const rows = await deleteExpiredBatch(context, retentionDays, cutoff);
      if (rows.length === 0) break;
      const removed = await removeBlobsOf(context, rows);
      removedEntries += rows.length;
      removed.forEach((ref) => orgs.add(ref.orgId));
      if (rows.length < context.settings.sweepBatchSize) break;
    }
  }
  if (removedEntries > 0) context.logger.info({ removedEntries, orgs: orgs.size }, 'cache retention sweep');
  return { removedEntries, orgs: orgs.size };
}

function deleteExpiredBatch(
  context: CacheContext,
  retentionDays: number,
  cutoff: string,
): Promise<RemovedRow[]> {
  const batch = context.settings.sweepBatchSize;
  // The outer last-use test again: a refresh committed while the inner select ran keeps its entry.
  if (retentionDays === 0) {
    return context.prisma.$queryRaw<RemovedRow[]>`
      DELETE FROM cache_entries
      WHERE id IN (
        SELECT c.id FROM cache_entries c JOIN orgs o ON o.id = c.org_id
        WHERE o.retention_days = 0
        LIMIT ${batch}::int)
      RETURNING org_id::text AS "orgId", cache_key AS "cacheKey", object_name AS "objectName"`;
  }
  return context.prisma.$queryRaw<RemovedRow[]>`
    DELETE FROM cache_entries
    WHERE id IN (
      SELECT c.id FROM cache_entries c JOIN orgs o ON o.id = c.org_id
      WHERE o.retention_days = ${retentionDays}::int AND c.last_used_at < ${cutoff}::timestamptz
      LIMIT ${batch}::int)
    AND last_used_at < ${cutoff}::timestamptz
    RETURNING org_id::text AS "orgId", cache_key AS "cacheKey", object_name AS "objectName"`;
}

/**
 * Deletes the removed rows' blobs (a take committed for the same key meanwhile has blobs of its own, and keeps
 * them) and tells the serving apps.
 */
async function removeBlobsOf(context: CacheContext, rows: RemovedRow[]): Promise<EntryRef[]> {
  await deleteBlobs(
    context,
    rows.flatMap((row) => [row.objectName, wordsObjectNameOf(row.objectName)]),
  );
  const refs = rows.map(({ orgId, cacheKey }) => ({ orgId, cacheKey }));
  await publishInvalidations(context, refs);
  return refs;
}
