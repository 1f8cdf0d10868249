import type { CacheEntryRef, CacheLookupReply } from '@router/contracts';
import { isCanonicalCacheKey, isCanonicalOrgId } from './cache-object-names';
import type { CacheContext } from './cache.context';

type Hit = NonNullable<CacheLookupReply['hit']>;

/**
 * Is this org's piece cached. An org with retention 0 has every sentence synthesized by the vendor, so its
 * entries awaiting the sweep are not served (the join reads the org's retention as it is now: a change
 * applies at once). Last use is not touched here: the serving app reports hits with `cache.usage.v1`,
 * batched. Plain SQL: it is on the critical path of every miss.
 */
export async function lookupEntry(context: CacheContext, ref: CacheEntryRef): Promise<CacheLookupReply> {
  if (!isCanonicalOrgId(ref.orgId) || !isCanonicalCacheKey(ref.cacheKey)) return { hit: null };
  const [hit] = await context.sql.query<Hit>(
    `SELECT e.object_name AS "objectName", e.content_type AS "contentType", e.byte_size AS "byteSize",
       e.has_timings AS "hasTimings"
     FROM cache_entries e JOIN orgs o ON o.id = e.org_id
     WHERE e.org_id = $1::uuid AND e.cache_key = $2 AND o.retention_days > 0`,
    [ref.orgId, ref.cacheKey],
  );
  return { hit: hit ?? null };
}
