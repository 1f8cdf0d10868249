import { randomUUID } from 'node:crypto';
import type { Bus } from '@router/bus';
import {
  addressedTo,
  cacheCommittedV1,
  cacheCommittedV2,
  type CacheCommitReply,
  type CacheCommitRequest,
  type CacheEntryRef,
  wordsObjectNameOf,
} from '@router/contracts';
import { parseCacheObjectName } from './cache-object-names';
import type { CacheContext } from './cache.context';
import { deleteBlobs } from './removed-entries';
import type { UsageRecorder } from './usage-recorder';

const REFUSED: CacheCommitReply = Object.freeze({ committed: false });

/**
 * The org's retention as it is now and, when it is above 0, the entry's row written, in one statement. A key
 * has one take: a commit for a key that already has a row is refused (the synthesis workers' claims keep a
 * second take from being made at all; this is what holds if one is made anyway), unless the committer names
 * the row's take as the one it replaces (`replaces`: a worker found that take's blob gone). The same take
 * committed again (a retried request) is committed, idempotently.
 */
const INSERT_ENTRY = `
  WITH org AS (SELECT retention_days FROM orgs WHERE id = $1::uuid),
  entry AS (
    INSERT INTO cache_entries
      (id, org_id, cache_key, provider, object_name, content_type, byte_size, has_timings, response_head,
       created_at, last_used_at, text_key)
    SELECT $3::uuid, $1::uuid, $2, $4, $5, $6, $7::int, $8::boolean, $12::jsonb, $9::timestamptz, $9::timestamptz,
      $13
    FROM org WHERE org.retention_days > 0 AND $10::boolean
    ON CONFLICT (org_id, cache_key) DO UPDATE SET
      provider = EXCLUDED.provider,
      object_name = EXCLUDED.object_name,
      content_type = EXCLUDED.content_type,
      byte_size = EXCLUDED.byte_size,
      has_timings = EXCLUDED.has_timings,
      response_head = EXCLUDED.response_head,
      text_key = EXCLUDED.text_key,
      last_used_at = GREATEST(cache_entries.last_used_at, EXCLUDED.last_used_at)
    WHERE cache_entries.object_name = $11 OR cache_entries.object_name = EXCLUDED.object_name
    RETURNING id::text AS id),
  taken AS (SELECT object_name FROM cache_entries WHERE org_id = $1::uuid AND cache_key = $2)
  SELECT (SELECT retention_days FROM org) AS "retentionDays", (SELECT id FROM entry) AS id,
    (SELECT object_name FROM taken) AS "takenBy"`;

/**
 * Indexes a take whose blob(s) the worker has written; the worker's successful write is the proof that they
 * are there. Nothing deletes them before the row names them: every take has blobs of its own (so no other
 * take's deleter touches them), the sweeps delete only blobs whose row they removed first or blobs that no
 * row names once they are older than the orphan grace, and a take older than that grace (by the time in its
 * id) is refused here, so a row never comes to name a blob the orphan sweep has judged. Every commit request
 * of a known org counts its characters as synthesized, whatever the answer: the vendor made the take either
 * way.
 */
export async function commitTake(
  context: CacheContext,
  usage: UsageRecorder,
  request: CacheCommitRequest,
): Promise<CacheCommitReply> {
  const { orgId, cacheKey } = request;
  const name = parseCacheObjectName(request.objectName);
  if (!name || name.part !== 'audio' || name.orgId !== orgId || name.cacheKey !== cacheKey)
    return refuse(context, 'unexpected object name');
  const now = context.now();
  const fresh = now - name.writtenAt <= context.settings.orphanGraceMs;
  const at = new Date(now).toISOString();
  const [result] = await context.sql.query<{
    retentionDays: number | null;
    id: string | null;
    takenBy: string | null;
  }>(INSERT_ENTRY, [
    orgId,
    cacheKey,
    randomUUID(),
    request.provider,
    request.objectName,
    request.contentType,
    request.byteSize,
    request.hasTimings,
    at,
    fresh,
    request.replaces ?? null,
    request.head ? JSON.stringify(request.head) : null,
    request.textKey ?? null,
  ]);
  const known = result?.retentionDays !== null && result?.retentionDays !== undefined;
  if (known) usage.addSynthesized(orgId, request.provider, request.chars);
  if (!result?.id) {
    // No row names these blobs, and no other take's row can.
    await deleteBlobs(context, [name.audio, wordsObjectNameOf(name.audio)]);
    if (!known) return refuse(context, 'unknown org');
    if (!fresh) return refuse(context, "take older than the orphan grace (or the worker's clock is behind)");
    if (result.takenBy !== null) return refuse(context, 'the key has a take already');
    return REFUSED; // retention 0
  }
  // Before the answer: the worker sends the take's end only after it, so every serving app has the key in its
  // filter before any requester can ask for the entry again. A lost event costs a detour through a worker
  // (which finds the entry and replays it), not a wrong answer (the serving apps rebuild their filters from
  // the index).
  await announceCommit(context.bus, request.provider, { orgId, cacheKey }).catch(() => undefined);
  return { committed: true };
}

/**
 * Announces the commit on its vendor's subject, so that NATS delivers it only to the apps that can serve the
 * key. It goes on `cache.committed.v1` too, for the serving apps of the release before during a rolling
 * upgrade: without it each of them would miss every commit until its filters' next rebuild (a detour through
 * a worker for every repeat, for up to CACHE_KEYS_RELOAD_MS). Once none is left nothing subscribes to v1, so
 * NATS drops it at the server and it costs this process one small write per commit, not every serving app a
 * wake-up; it can go once no serving app from before v2 runs.
 */
async function announceCommit(bus: Bus, provider: string, entry: CacheEntryRef): Promise<void> {
  await Promise.all([
    bus.publish(addressedTo(cacheCommittedV2, provider), entry),
    bus.publish(cacheCommittedV1, entry),
  ]);
}

function refuse(context: CacheContext, reason: string): CacheCommitReply {
  context.logger.warn({ reason }, 'cache commit refused');
  return REFUSED;
}
