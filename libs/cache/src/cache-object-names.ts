import { cacheObjectNames, isCanonicalCacheKey, isCanonicalOrgId } from '@router/contracts';

// Where a cached take's blobs live: the contract's `cacheObjectNames`, which workers write under, with the
// ids checked, and its inverse for the sweeps. Ids are required in their canonical form (PostgreSQL prints
// uuids in lower case): a name built from another spelling would never match the org id read back from the
// index, and the orphan sweep would take its blob for an orphan.

/** The shape of a cache blob's name; its two ids are checked with the contract's own tests. */
const OBJECT_NAME = /^([^/]+)\/([^/.]+)\.(audio|words\.json)$/;

function assertRef(orgId: string, cacheKey: string): void {
  if (!isCanonicalOrgId(orgId)) throw new TypeError('orgId must be a lower-case uuid');
  if (!isCanonicalCacheKey(cacheKey)) throw new TypeError('cacheKey must be 64 lower-case hex digits');
}

/** `<orgId>/<cacheKey>.audio`: the take's audio, exactly as the vendor sent it. */
export function audioObjectName(orgId: string, cacheKey: string): string {
  assertRef(orgId, cacheKey);
  return cacheObjectNames(orgId, cacheKey).audio;
}

/** `<orgId>/<cacheKey>.words.json`: the take's word timings, present when the entry `hasTimings`. */
export function wordsObjectName(orgId: string, cacheKey: string): string {
  assertRef(orgId, cacheKey);
  return cacheObjectNames(orgId, cacheKey).words;
}

export interface CacheObjectName {
  orgId: string;
  cacheKey: string;
  part: 'audio' | 'words';
}

/** The entry a blob belongs to, or null for a name the cache would never write (the unit spec round-trips it). */
export function parseCacheObjectName(name: string): CacheObjectName | null {
  const match = OBJECT_NAME.exec(name);
  if (!match) return null;
  const [, orgId, cacheKey, suffix] = match as unknown as [string, string, string, string];
  if (!isCanonicalOrgId(orgId) || !isCanonicalCacheKey(cacheKey)) return null;
  return { orgId, cacheKey, part: suffix === 'audio' ? 'audio' : 'words' };
}
