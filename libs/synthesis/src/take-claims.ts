import type { CachedTake, ResponseHead } from '@router/contracts';
import type { Sql } from '@router/db';
import { type ShardLeases, SHARD_OF } from './shard-leases';

/** What a worker asked for a key's take may do. */
export type Claim =
  /** The key has a committed take: replay it. */
  | { kind: 'committed'; take: CachedTake }
  /** This worker makes the take. */
  | { kind: 'mine' }
  /** Another worker is making it (or made it and is committing it): follow that one. */
  | { kind: 'held'; workerId: string };

/**
 * One statement for a batch of keys: each key's committed take if it has one; otherwise its claim, taken for
 * this worker when it is free, already this worker's, or stale (a worker that died holding it and was never
 * found out), and its shard is not leased by another worker; otherwise the holder: the worker whose claim it
 * is, else the shard's lessee (which claims its keys without rows, see ShardLeases). The shards' lease rows are
 * locked for share, so a lease taken meanwhile waits for this claim to commit, or is seen by it. Two workers
 * claiming a key at once are serialized by the primary key: one inserts, the other sees its claim; a batch
 * inserts in key order, so two batches never wait on each other in a cycle. Claims stay after the commit, so a claim racing with a commit finds the claim rather than a free
 * key (its snapshot may predate the committed row); the orphan sweep removes old ones.
 *
 * The claim is committed without waiting for its WAL to reach the disk (`synchronous_commit` off for this
 * transaction only): the wait was most of a claim's time (a flush per claim, 0.3–3 ms here) and it sits before
 * every cacheable vendor call. Other sessions see the claim the moment it commits all the same; only a crash
 * of PostgreSQL itself can lose the last fraction of a second of claims, which is then as if their holders had
 * died: the next request for such a key makes a take of its own, and the first commit still wins.
 */
const CLAIM = `
  WITH asked AS (
    SELECT a.org_id, a.cache_key, ${SHARD_OF('a.cache_key')} AS shard
    FROM unnest($1::uuid[], $2::text[]) AS a(org_id, cache_key)),
  unflushed AS (SELECT set_config('synchronous_commit', 'off', true) AS setting),
  lease AS (
    SELECT l.shard, l.worker_id, l.expires_at FROM take_leases l
    WHERE l.lease_group = $5 AND l.shard IN (SELECT shard FROM asked) ORDER BY l.shard FOR SHARE),
  leased AS (
    SELECT shard, worker_id FROM lease WHERE worker_id IS NOT NULL AND worker_id <> $3 AND expires_at > now()),
  entry AS (
    SELECT e.org_id, e.cache_key, e.object_name, e.content_type, e.byte_size, e.has_timings, e.response_head
    FROM cache_entries e JOIN asked a ON e.org_id = a.org_id AND e.cache_key = a.cache_key),
  claimed AS (
    INSERT INTO take_claims (org_id, cache_key, worker_id, claimed_at)
    SELECT a.org_id, a.cache_key, $3, now() FROM asked a
    WHERE NOT EXISTS (SELECT 1 FROM entry e WHERE e.org_id = a.org_id AND e.cache_key = a.cache_key)
      AND NOT EXISTS (SELECT 1 FROM leased l WHERE l.shard = a.shard)
    ORDER BY a.org_id, a.cache_key
    ON CONFLICT (org_id, cache_key) DO UPDATE SET worker_id = EXCLUDED.worker_id, claimed_at = EXCLUDED.claimed_at
    WHERE take_claims.worker_id = EXCLUDED.worker_id
      OR take_claims.claimed_at < now() - make_interval(secs => $4::float8 / 1000)
    RETURNING org_id, cache_key)
  SELECT a.org_id AS "orgId", a.cache_key AS "cacheKey", e.object_name AS "objectName",
    e.content_type AS "contentType", e.byte_size AS "byteSize", e.has_timings AS "hasTimings",
    e.response_head AS head, c.cache_key IS NOT NULL AS mine,
    COALESCE((SELECT worker_id FROM take_claims t WHERE t.org_id = a.org_id AND t.cache_key = a.cache_key
      AND (l.worker_id IS NULL OR t.claimed_at >= now() - make_interval(secs => $4::float8 / 1000))),
      l.worker_id) AS holder
  FROM asked a CROSS JOIN unflushed
  LEFT JOIN leased l ON l.shard = a.shard
  LEFT JOIN entry e ON e.org_id = a.org_id AND e.cache_key = a.cache_key
  LEFT JOIN claimed c ON c.org_id = a.org_id AND c.cache_key = a.cache_key`;

const TAKE_OVER = `UPDATE take_claims SET worker_id = $3, claimed_at = now()
  WHERE org_id = $1::uuid AND cache_key = $2 AND worker_id = $4 RETURNING 1 AS ok`;

const RELEASE = 'DELETE FROM take_claims WHERE org_id = $1::uuid AND cache_key = $2 AND worker_id = $3';

interface ClaimRow {
  orgId: string;
  cacheKey: string;
  objectName: string | null;
  contentType: string | null;
  byteSize: number | null;
  hasTimings: boolean | null;
  head: ResponseHead | null;
  mine: boolean;
  holder: string | null;
}

/** A claim asked for and not yet answered; `retried` once its first answer found it neither taken nor held. */
interface Asked {
  orgId: string;
  cacheKey: string;
  retried: boolean;
  resolve(claim: Claim): void;
  reject(error: unknown): void;
}

/** PostgreSQL's deadlock_detected: a batch is simply sent again. */
const DEADLOCK = '40P01';

/**
 * A worker's claims on the takes it makes (see CLAIM). Claims asked for while a statement is out wait for it
 * and go together in the next: one statement per round trip however many misses arrive, so under load claims
 * do not queue for the pool's connections one by one. A lone claim goes at once.
 */
export class TakeClaims {
  private waiting: Asked[] = [];
  private sending = false;

  constructor(
    private readonly sql: Sql,
    private readonly workerId: string,
    /** A claim older than this no longer holds (its worker died unnoticed); longer than any take runs. */
    private readonly staleAfterMs: number,
    /** The deployment's workers, which share the shard leases (its NATS subject prefix). */
    private readonly group = '',
    /** The shards this worker leases: claims on their keys are answered without a round trip. */
    private readonly leases?: ShardLeases,
  ) {}

  claim(orgId: string, cacheKey: string): Promise<Claim> {
    const local = this.leases?.claim(orgId, cacheKey);
    if (local) return Promise.resolve(local);
    return new Promise((resolve, reject) => {
      this.waiting.push({ orgId, cacheKey, retried: false, resolve, reject });
      if (!this.sending) void this.send();
    });
  }

  /** Sends what waits, one batch at a time, until nothing does. */
  private async send(): Promise<void> {
    this.sending = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting;
      this.waiting = [];
      await this.claimBatch(batch);
    }
    this.sending = false;
  }

  private async claimBatch(batch: Asked[]): Promise<void> {
    // One row per key: a key asked twice in a batch gets one answer for both.
    const byKey = new Map<string, Asked[]>();
    for (const asked of batch) {
      const id = `${asked.orgId}:${asked.cacheKey}`;
      byKey.set(id, [...(byKey.get(id) ?? []), asked]);
    }
    const keys = [...byKey.values()].map((same) => same[0]);
    let rows: ClaimRow[];
    try {
      rows = await this.sql.query<ClaimRow>(CLAIM, [
        keys.map((k) => k.orgId),
        keys.map((k) => k.cacheKey),
        this.workerId,
        this.staleAfterMs,
        this.group,
      ]);
    } catch (error) {
      if ((error as { code?: unknown }).code === DEADLOCK) this.waiting.push(...batch);
      else for (const asked of batch) asked.reject(error);
      return;
    }
    const answered = new Map(rows.map((row) => [`${row.orgId}:${row.cacheKey}`, row]));
    for (const [id, same] of byKey) {
      const claim = this.answer(answered.get(id));
      for (const asked of same) {
        if (claim) asked.resolve(claim);
        // A claim inserted by another worker after this statement's snapshot conflicts without being seen by
        // the holder read: the second attempt, with a new snapshot, sees it.
        else if (!asked.retried) this.waiting.push({ ...asked, retried: true });
        else asked.reject(new Error('take claim neither taken nor held'));
      }
    }
  }

  private answer(row: ClaimRow | undefined): Claim | undefined {
    if (row?.objectName && row.contentType && row.byteSize !== null && row.hasTimings !== null) {
      return {
        kind: 'committed',
        take: {
          objectName: row.objectName,
          contentType: row.contentType,
          byteSize: row.byteSize,
          hasTimings: row.hasTimings,
          ...(row.head ? { head: row.head } : {}),
        },
      };
    }
    if (row?.mine) return { kind: 'mine' };
    if (row?.holder && row.holder !== this.workerId) return { kind: 'held', workerId: row.holder };
    return undefined;
  }

  /**
   * Takes the claim from a worker found gone, or the lease on the key's shard when that worker claimed it as
   * the lessee; false when someone else already has.
   */
  async takeOver(orgId: string, cacheKey: string, from: string): Promise<boolean> {
    const rows = await this.sql.query<{ ok: number }>(TAKE_OVER, [orgId, cacheKey, this.workerId, from]);
    if (rows.length > 0) return true;
    return (await this.leases?.takeOver(orgId, cacheKey, from)) ?? false;
  }

  /** This worker's take of the key is committed: its claim stays in the database (see CLAIM), or ends here. */
  committed(orgId: string, cacheKey: string, take: CachedTake): void {
    this.leases?.settle(orgId, cacheKey, take);
  }

  /** Gives up this worker's claim: its take failed or was not cached, so the next asked may make one. */
  async release(orgId: string, cacheKey: string): Promise<void> {
    if (this.leases?.settle(orgId, cacheKey)) return;
    await this.sql.query(RELEASE, [orgId, cacheKey, this.workerId]);
  }
}
