import {
  cacheInvalidatedV1,
  type CacheEvictReply,
  type CacheEvictRequest,
  RouterError,
  wordsObjectNameOf,
} from '@router/contracts';
import { describeError, type CacheContext } from './cache.context';
import { deleteBlobs, publishInvalidations } from './removed-entries';

interface EvictedRow {
  cacheKey: string;
  objectName: string;
}

/**
 * An org's eviction (`cache.evict.v1`): the rows of the keys named, of the sentences named (every entry of each,
 * whatever it was said with) or, with `all`, every row of the org, deleted in one statement; then their blobs
 * (a failure is left to the orphan sweep: a blob no row names is never served) and the serving apps' hot
 * tiers (the keys removed, or with `all` the org's whole tier, so a take committed while the statement ran is
 * dropped from memory too; it stays in the index). A worker that finds an evicted take's blob gone makes a new
 * take. Nothing named, nothing evicted.
 */
export async function evictEntries(
  context: CacheContext,
  request: CacheEvictRequest,
): Promise<CacheEvictReply> {
  const { orgId } = request;
  const cacheKeys = request.cacheKeys ?? [];
  const textKeys = request.textKeys ?? [];
  const all = request.all === true;
  if (!all && cacheKeys.length === 0 && textKeys.length === 0) return { evicted: 0 };
  let rows: EvictedRow[];
  try {
    rows = await context.sql.query<EvictedRow>(
      `DELETE FROM cache_entries
       WHERE org_id = $1::uuid AND ($4::boolean OR cache_key = ANY($2::text[]) OR text_key = ANY($3::text[]))
       RETURNING cache_key AS "cacheKey", object_name AS "objectName"`,
      [orgId, cacheKeys, textKeys, all],
    );
  } catch (error) {
    // An org id that is no uuid names no org: nothing of it to evict.
    if ((error as { code?: unknown }).code === '22P02') return { evicted: 0 };
    throw new RouterError('internal', 'The cache index could not be changed; retry.');
  }
  await deleteBlobs(
    context,
    rows.flatMap((row) => [row.objectName, wordsObjectNameOf(row.objectName)]),
  );
  if (all) {
    await context.bus.publish(cacheInvalidatedV1, { orgId }).catch((error: unknown) => {
      context.logger.warn({ orgId, error: describeError(error) }, 'cache invalidation not published');
    });
  } else {
    await publishInvalidations(
      context,
      rows.map(({ cacheKey }) => ({ orgId, cacheKey })),
    );
  }
  context.logger.info({ orgId, evicted: rows.length, all }, 'cache entries evicted');
  return { evicted: rows.length };
}
