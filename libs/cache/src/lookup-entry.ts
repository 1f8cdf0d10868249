import type { CacheEntryRef, CacheLookupReply } from '@router/contracts';
import { isCanonicalCacheKey, isCanonicalOrgId } from './cache-object-names';
import type { CacheContext } from './cache.context';

/**
 * Is this org's piece cached. An org with retention 0 has every sentence synthesized by the vendor, so its
 * entries awaiting the sweep are not served. Last use is not touched here: the serving app reports hits
 * with `cache.usage.v1`, batched.
 */
export async function lookupEntry(context: CacheContext, ref: CacheEntryRef): Promise<CacheLookupReply> {
  if (!isCanonicalOrgId(ref.orgId) || !isCanonicalCacheKey(ref.cacheKey)) return { hit: null };
  const hit = await context.prisma.cacheEntry.findFirst({
    where: { orgId: ref.orgId, cacheKey: ref.cacheKey, org: { retentionDays: { gt: 0 } } },
    select: { objectName: true, contentType: true, byteSize: true, hasTimings: true },
  });
  return { hit };
}
