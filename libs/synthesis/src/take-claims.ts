import type { CachedTake, ResponseHead } from '@router/contracts';
import type { Sql } from '@router/db';

/** What a worker asked for a key's take may do. */
export type Claim =
  /** The key has a committed take: replay it. */
  | { kind: 'committed'; take: CachedTake }
  /** This worker makes the take. */
  | { kind: 'mine' }
  /** Another worker is making it (or made it and is committing it): follow that one. */
  | { kind: 'held'; workerId: string };

/**
 * One statement: the key's committed take if it has one; otherwise the claim, taken for this worker when it
 * is free, already this worker's, or stale (a worker that died holding it and was never found out); otherwise
 * the holder. Two workers claiming at once are serialized by the primary key: one inserts, the other sees
 * its claim. Claims stay after the commit, so a claim racing with a commit finds the claim rather than a free
 * key (its snapshot may predate the committed row); the orphan sweep removes old ones.
 */
const CLAIM = `
  WITH entry AS (
    SELECT object_name, content_type, byte_size, has_timings, response_head FROM cache_entries
    WHERE org_id = $1::uuid AND cache_key = $2),
  claimed AS (
    INSERT INTO take_claims (org_id, cache_key, worker_id, claimed_at)
    SELECT $1::uuid, $2, $3, now() WHERE NOT EXISTS (SELECT 1 FROM entry)
    ON CONFLICT (org_id, cache_key) DO UPDATE SET worker_id = EXCLUDED.worker_id, claimed_at = EXCLUDED.claimed_at
    WHERE take_claims.worker_id = EXCLUDED.worker_id
      OR take_claims.claimed_at < now() - make_interval(secs => $4::float8 / 1000)
    RETURNING worker_id)
  SELECT e.object_name AS "objectName", e.content_type AS "contentType", e.byte_size AS "byteSize",
    e.has_timings AS "hasTimings", e.response_head AS head, (SELECT worker_id FROM claimed) AS mine,
    (SELECT worker_id FROM take_claims WHERE org_id = $1::uuid AND cache_key = $2) AS holder
  FROM (SELECT 1) AS one LEFT JOIN entry e ON true`;

const TAKE_OVER = `UPDATE take_claims SET worker_id = $3, claimed_at = now()
  WHERE org_id = $1::uuid AND cache_key = $2 AND worker_id = $4 RETURNING 1 AS ok`;

const RELEASE = 'DELETE FROM take_claims WHERE org_id = $1::uuid AND cache_key = $2 AND worker_id = $3';

interface ClaimRow {
  objectName: string | null;
  contentType: string | null;
  byteSize: number | null;
  hasTimings: boolean | null;
  head: ResponseHead | null;
  mine: string | null;
  holder: string | null;
}

/** A worker's claims on the takes it makes (see CLAIM). */
export class TakeClaims {
  constructor(
    private readonly sql: Sql,
    private readonly workerId: string,
    /** A claim older than this no longer holds (its worker died unnoticed); longer than any take runs. */
    private readonly staleAfterMs: number,
  ) {}

  async claim(orgId: string, cacheKey: string): Promise<Claim> {
    // A claim inserted by another worker after this statement's snapshot conflicts without being seen by
    // the holder read: the second attempt, with a new snapshot, sees it.
    for (let attempt = 0; ; attempt++) {
      const [row] = await this.sql.query<ClaimRow>(CLAIM, [
        orgId,
        cacheKey,
        this.workerId,
        this.staleAfterMs,
      ]);
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
      if (attempt > 0) throw new Error('take claim neither taken nor held');
    }
  }

  /** Takes the claim from a worker found gone; false when someone else already has. */
  async takeOver(orgId: string, cacheKey: string, from: string): Promise<boolean> {
    const rows = await this.sql.query<{ ok: number }>(TAKE_OVER, [orgId, cacheKey, this.workerId, from]);
    return rows.length > 0;
  }

  /** Gives up this worker's claim: its take failed or was not cached, so the next asked may make one. */
  async release(orgId: string, cacheKey: string): Promise<void> {
    await this.sql.query(RELEASE, [orgId, cacheKey, this.workerId]);
  }
}
