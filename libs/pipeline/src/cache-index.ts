import { type CachedTake, isCanonicalOrgId } from '@router/contracts';
import type { Sql } from '@router/db';

/**
 * Whether this org's piece is cached, and where its audio is: the serving app reads the index row itself,
 * one prepared statement on its own pool, because the lookup is on the path of every miss and every cold
 * hit (asking cache-service over the bus cost two more hand-offs between processes, ≈0.6–2.8 ms of a miss
 * by docs/performance.md). Only reads: cache-service alone writes rows (commits, sweeps, last use).
 *
 * An org at retention 0 has every sentence synthesized by the vendor, so its entries awaiting the sweep are
 * not served (the join reads the org's retention as it is now: a change applies at once). Last use is not
 * touched here: hits are reported with `cache.usage.v1`, batched by cache-service.
 */
export class CacheIndex {
  constructor(private readonly sql: Sql) {}

  async lookup(orgId: string, cacheKey: string): Promise<CachedTake | null> {
    // Rows hold org ids as PostgreSQL prints uuids; another spelling (or no uuid) can name no entry.
    if (!isCanonicalOrgId(orgId)) return null;
    const [hit] = await this.sql.query<CachedTake>(
      `SELECT e.object_name AS "objectName", e.content_type AS "contentType", e.byte_size AS "byteSize",
         e.has_timings AS "hasTimings"
       FROM cache_entries e JOIN orgs o ON o.id = e.org_id
       WHERE e.org_id = $1::uuid AND e.cache_key = $2 AND o.retention_days > 0`,
      [orgId, cacheKey],
    );
    return hit ?? null;
  }
}
