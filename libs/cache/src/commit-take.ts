import { randomUUID } from 'node:crypto';
import {
  cacheCommittedV1,
  type CacheCommitReply,
  type CacheCommitRequest,
  isCanonicalCacheKey,
  isCanonicalOrgId,
} from '@router/contracts';
import { audioObjectName, wordsObjectName } from './cache-object-names';
import type { CacheContext } from './cache.context';
import { deleteBlobs } from './removed-entries';
import type { UsageRecorder } from './usage-recorder';

const REFUSED: CacheCommitReply = Object.freeze({ committed: false });

/**
 * The org's retention as it is now and, when it is above 0, the entry's row written, in one statement. A
 * duplicate commit (the same key taken twice) keeps the one row; its blob is the newest take written under
 * the same name, so the row takes that take's metadata.
 */
const UPSERT_ENTRY = `
  WITH org AS (SELECT retention_days FROM orgs WHERE id = $1::uuid),
  entry AS (
    INSERT INTO cache_entries
      (id, org_id, cache_key, provider, object_name, content_type, byte_size, has_timings, created_at, last_used_at)
    SELECT $3::uuid, $1::uuid, $2, $4, $5, $6, $7::int, $8::boolean, $9::timestamptz, $9::timestamptz
    FROM org WHERE org.retention_days > 0
    ON CONFLICT (org_id, cache_key) DO UPDATE SET
      provider = EXCLUDED.provider,
      content_type = EXCLUDED.content_type,
      byte_size = EXCLUDED.byte_size,
      has_timings = EXCLUDED.has_timings,
      last_used_at = GREATEST(cache_entries.last_used_at, EXCLUDED.last_used_at)
    RETURNING id::text AS id)
  SELECT (SELECT retention_days FROM org) AS "retentionDays", (SELECT id FROM entry) AS id`;

/**
 * Indexes a take whose blob(s) the worker has written. A row stays only for a blob that is there with the
 * announced size (and the timings sidecar when `hasTimings`): the blob is looked at once, after the row is
 * written. Before the insert the worker's own successful write is the proof; after it, the look catches a
 * sweep that deleted the blob meanwhile (the sweep re-checks rows after its deletes, this re-checks the
 * blob after the insert, so one of the two always sees the other). Every commit request of a known org
 * counts its characters as synthesized, whatever the answer: the vendor made the take either way.
 */
export async function commitTake(
  context: CacheContext,
  usage: UsageRecorder,
  request: CacheCommitRequest,
): Promise<CacheCommitReply> {
  const { orgId, cacheKey } = request;
  if (!isCanonicalOrgId(orgId) || !isCanonicalCacheKey(cacheKey)) return refuse(context, 'ids not canonical');
  // One name per entry, so that sweeps and the hot tiers can find an entry's blobs from its key alone.
  if (request.objectName !== audioObjectName(orgId, cacheKey))
    return refuse(context, 'unexpected object name');

  const at = new Date(context.now()).toISOString();
  const [result] = await context.sql.query<{ retentionDays: number | null; id: string | null }>(
    UPSERT_ENTRY,
    [
      orgId,
      cacheKey,
      randomUUID(),
      request.provider,
      request.objectName,
      request.contentType,
      request.byteSize,
      request.hasTimings,
      at,
    ],
  );
  if (result?.retentionDays === null || result?.retentionDays === undefined)
    return refuse(context, 'unknown org');
  usage.addSynthesized(orgId, request.provider, request.chars);

  const words = wordsObjectName(orgId, cacheKey);
  if (result.retentionDays === 0) {
    // The same names may hold the audio of an entry cached before retention went to 0; the retention sweep
    // removes that one, row first.
    const indexed = await context.sql.query(
      'SELECT 1 FROM cache_entries WHERE org_id = $1::uuid AND cache_key = $2',
      [orgId, cacheKey],
    );
    if (indexed.length === 0) await deleteBlobs(context, [request.objectName, words]);
    return REFUSED;
  }

  if (!result.id || !(await blobsPresent(context, request, words))) {
    if (result.id) await context.sql.query('DELETE FROM cache_entries WHERE id = $1::uuid', [result.id]);
    return refuse(context, 'blob missing, of another size or removed while committing');
  }
  // Before the answer: the worker sends the take's end only after it, so every serving app has the key in its
  // filter before any requester can ask for the entry again. A lost event costs a vendor call, not a wrong
  // answer (the serving apps rebuild their filters from the index).
  await context.bus.publish(cacheCommittedV1, { orgId, cacheKey }).catch(() => undefined);
  return { committed: true };
}

async function blobsPresent(
  context: CacheContext,
  request: CacheCommitRequest,
  words: string,
): Promise<boolean> {
  const [audio, timings] = await Promise.all([
    context.blobs.stat(request.objectName),
    request.hasTimings ? context.blobs.stat(words) : null,
  ]);
  return audio !== null && audio.size === request.byteSize && (!request.hasTimings || timings !== null);
}

function refuse(context: CacheContext, reason: string): CacheCommitReply {
  context.logger.warn({ reason }, 'cache commit refused');
  return REFUSED;
}
