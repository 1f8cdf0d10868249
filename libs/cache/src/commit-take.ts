import { randomUUID } from 'node:crypto';
import type { CacheCommitReply, CacheCommitRequest } from '@router/contracts';
import {
  audioObjectName,
  isCanonicalCacheKey,
  isCanonicalOrgId,
  wordsObjectName,
} from './cache-object-names';
import type { CacheContext } from './cache.context';
import { deleteBlobs } from './removed-entries';
import type { UsageRecorder } from './usage-recorder';

const REFUSED: CacheCommitReply = Object.freeze({ committed: false });

/**
 * Indexes a take whose blob(s) the worker has written. The row is written only when the blob is there with
 * the announced size (and the timings sidecar when `hasTimings`). Every commit request counts its
 * characters as synthesized, whatever the answer: the vendor made the take either way.
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

  const org = await context.prisma.org.findUnique({ where: { id: orgId }, select: { retentionDays: true } });
  if (!org) return refuse(context, 'unknown org');
  usage.addSynthesized(orgId, request.provider, request.chars);

  const words = wordsObjectName(orgId, cacheKey);
  if (org.retentionDays === 0) {
    // The same names may hold the audio of an entry cached before retention went to 0; the retention sweep
    // removes that one, row first.
    const indexed = await context.prisma.cacheEntry.findUnique({
      where: { orgId_cacheKey: { orgId, cacheKey } },
      select: { id: true },
    });
    if (!indexed) await deleteBlobs(context, [request.objectName, words]);
    return REFUSED;
  }

  if (!(await blobsPresent(context, request, words)))
    return refuse(context, 'blob missing or of another size');

  const at = new Date(context.now()).toISOString();
  // A duplicate commit (the same key taken twice) keeps the one row; its blob is the newest take written
  // under the same name, so the row takes that take's metadata.
  const [row] = await context.prisma.$queryRaw<{ id: string }[]>`
    INSERT INTO cache_entries
      (id, org_id, cache_key, provider, object_name, content_type, byte_size, has_timings, created_at, last_used_at)
    VALUES (${randomUUID()}::uuid, ${orgId}::uuid, ${cacheKey}, ${request.provider}, ${request.objectName},
      ${request.contentType}, ${request.byteSize}::int, ${request.hasTimings}, ${at}::timestamptz, ${at}::timestamptz)
    ON CONFLICT (org_id, cache_key) DO UPDATE SET
      provider = EXCLUDED.provider,
      content_type = EXCLUDED.content_type,
      byte_size = EXCLUDED.byte_size,
      has_timings = EXCLUDED.has_timings,
      last_used_at = GREATEST(cache_entries.last_used_at, EXCLUDED.last_used_at)
    RETURNING id::text AS id`;

  // A sweep may have deleted the blob between our check and the insert; the sweep re-checks rows after its
  // deletes, this re-checks the blob after the insert, so one of the two always sees the other.
  if (!row || !(await blobsPresent(context, request, words))) {
    if (row) await context.prisma.cacheEntry.deleteMany({ where: { id: row.id } });
    return refuse(context, 'blob removed while committing');
  }
  return { committed: true };
}

async function blobsPresent(
  context: CacheContext,
  request: CacheCommitRequest,
  words: string,
): Promise<boolean> {
  const audio = await context.blobs.stat(request.objectName);
  if (!audio || audio.size !== request.byteSize) return false;
  return !request.hasTimings || (await context.blobs.stat(words)) !== null;
}

function refuse(context: CacheContext, reason: string): CacheCommitReply {
  context.logger.warn({ reason }, 'cache commit refused');
  return REFUSED;
}
