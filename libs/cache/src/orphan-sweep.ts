import { parseCacheObjectName, type CacheObjectName } from './cache-object-names';
import type { CacheContext } from './cache.context';
import { deleteBlobs } from './removed-entries';

export interface OrphanSweepReport {
  /** Blobs listed. */
  scannedBlobs: number;
  /** Blobs without an index row, older than the grace period, deleted. */
  removedBlobs: number;
  /** Take claims older than the grace period, deleted (their takes could no longer be committed). */
  removedClaims: number;
}

/**
 * Removes blobs that no index row names (a worker that died between writing and committing, a refused
 * commit, a take that replaced one whose blob was gone, a row deleted before its blob) once they are older
 * than `orphanGraceMs`, so a take being written right now is left alone. A take's age is the later of its
 * blob's modification time and the time in its id; the commit refuses takes older than the grace by the
 * same id, so no row can come to name a blob judged here. The bucket belongs to the cache: a name the cache
 * would never write is an orphan too. The listing is consumed a page at a time, each page settled before the
 * next is read.
 */
export async function sweepOrphans(context: CacheContext): Promise<OrphanSweepReport> {
  const cutoff = context.now() - context.settings.orphanGraceMs;
  const removedClaims =
    (
      await context.sql.query<{ n: number }>(
        `WITH gone AS (DELETE FROM take_claims WHERE claimed_at < $1::timestamptz RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
        [new Date(cutoff).toISOString()],
      )
    )[0]?.n ?? 0;
  let scannedBlobs = 0;
  let removedBlobs = 0;
  let page: Listed[] = [];
  for await (const blob of context.blobs.list('')) {
    scannedBlobs++;
    const take = parseCacheObjectName(blob.name);
    if (Math.max(blob.lastModified.getTime(), take?.writtenAt ?? 0) > cutoff) continue;
    page.push({ name: blob.name, take });
    if (page.length >= context.settings.sweepBatchSize) {
      removedBlobs += await removeUnindexed(context, page);
      page = [];
    }
  }
  if (page.length > 0) removedBlobs += await removeUnindexed(context, page);
  if (removedBlobs > 0 || removedClaims > 0)
    context.logger.info({ scannedBlobs, removedBlobs, removedClaims }, 'cache orphan sweep');
  return { scannedBlobs, removedBlobs, removedClaims };
}

interface Listed {
  name: string;
  take: CacheObjectName | null;
}

async function removeUnindexed(context: CacheContext, page: Listed[]): Promise<number> {
  const takes = page.flatMap(({ take }) => (take ? [take] : []));
  const indexed = new Set(await indexedAudio(context, takes));
  const orphans = page.filter(({ take }) => !take || !indexed.has(take.audio));
  if (orphans.length === 0) return 0;
  const deleted = await deleteBlobs(
    context,
    orphans.map((o) => o.name),
  );
  return deleted.length;
}

/** The audio blobs the index names for these takes' keys (one per key: its committed take). */
async function indexedAudio(context: CacheContext, takes: CacheObjectName[]): Promise<string[]> {
  if (takes.length === 0) return [];
  const rows = await context.prisma.$queryRaw<{ objectName: string }[]>`
    SELECT e.object_name AS "objectName"
    FROM cache_entries e
    JOIN unnest(${takes.map((t) => t.orgId)}::uuid[], ${takes.map((t) => t.cacheKey)}::text[]) AS k(org_id, cache_key)
      ON e.org_id = k.org_id AND e.cache_key = k.cache_key`;
  return rows.map((row) => row.objectName);
}
