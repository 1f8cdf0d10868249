import { parseCacheObjectName } from './cache-object-names';
import type { CacheContext } from './cache.context';
import {
  deleteBlobs,
  dropRowsCommittedMeanwhile,
  publishInvalidations,
  type EntryRef,
} from './removed-entries';

export interface OrphanSweepReport {
  /** Blobs listed. */
  scannedBlobs: number;
  /** Blobs without an index row, older than the grace period, deleted. */
  removedBlobs: number;
}

/**
 * Removes blobs that no index row accounts for (a worker that died between writing and committing, a
 * refused commit, a row deleted before its blob) once they are older than `orphanGraceMs`, so a take being
 * written right now is left alone. The bucket belongs to the cache: a name the cache would never write is
 * an orphan too. The listing is consumed a page at a time, each page settled before the next is read.
 */
export async function sweepOrphans(context: CacheContext): Promise<OrphanSweepReport> {
  const cutoff = context.now() - context.settings.orphanGraceMs;
  let scannedBlobs = 0;
  let removedBlobs = 0;
  let page: string[] = [];
  for await (const blob of context.blobs.list('')) {
    scannedBlobs++;
    if (blob.lastModified.getTime() > cutoff) continue;
    page.push(blob.name);
    if (page.length >= context.settings.sweepBatchSize) {
      removedBlobs += await removeUnindexed(context, page);
      page = [];
    }
  }
  if (page.length > 0) removedBlobs += await removeUnindexed(context, page);
  if (removedBlobs > 0) context.logger.info({ scannedBlobs, removedBlobs }, 'cache orphan sweep');
  return { scannedBlobs, removedBlobs };
}

async function removeUnindexed(context: CacheContext, names: string[]): Promise<number> {
  const parsed = names.map((name) => ({ name, ref: parseCacheObjectName(name) }));
  const refs = parsed.flatMap(({ ref }) => (ref ? [ref] : []));
  const indexed = new Set((await existingRows(context, refs)).map((r) => `${r.orgId}/${r.cacheKey}`));
  const orphans = parsed.filter(({ ref }) => !ref || !indexed.has(`${ref.orgId}/${ref.cacheKey}`));
  if (orphans.length === 0) return 0;
  const deleted = await deleteBlobs(
    context,
    orphans.map((o) => o.name),
  );
  const deletedRefs = deleted.flatMap((name) => {
    const ref = parseCacheObjectName(name);
    return ref ? [{ orgId: ref.orgId, cacheKey: ref.cacheKey }] : [];
  });
  const meanwhile = await dropRowsCommittedMeanwhile(context, deletedRefs);
  await publishInvalidations(context, meanwhile);
  return deleted.length;
}

function existingRows(context: CacheContext, refs: EntryRef[]): Promise<EntryRef[]> {
  if (refs.length === 0) return Promise.resolve([]);
  return context.prisma.$queryRaw<EntryRef[]>`
    SELECT e.org_id::text AS "orgId", e.cache_key AS "cacheKey"
    FROM cache_entries e
    JOIN unnest(${refs.map((r) => r.orgId)}::uuid[], ${refs.map((r) => r.cacheKey)}::text[]) AS k(org_id, cache_key)
      ON e.org_id = k.org_id AND e.cache_key = k.cache_key`;
}
