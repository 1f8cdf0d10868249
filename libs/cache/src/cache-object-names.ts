import { cacheObjectNames, isCanonicalCacheKey, isCanonicalOrgId, takeWrittenAt } from '@router/contracts';

// The inverse of the contract's `cacheObjectNames` (`<orgId>/<cacheKey>/<takeId>.audio` and `….words.json`),
// for the commit and the sweeps. Ids are required in their canonical form (PostgreSQL prints uuids in lower
// case): a name built from another spelling would never match the org id read back from the index, and the
// orphan sweep would take its blob for an orphan.

/** The shape of a cache blob's name; its ids are checked with the contract's own tests. */
const OBJECT_NAME = /^([^/]+)\/([^/]+)\/([^/.]+)\.(audio|words\.json)$/;

export interface CacheObjectName {
  orgId: string;
  cacheKey: string;
  /** The audio blob of the same take: what its index row names when the take is indexed. */
  audio: string;
  /** When the take's blobs were written, by the id the worker gave it (ms since the epoch). */
  writtenAt: number;
  part: 'audio' | 'words';
}

/** The take a blob belongs to, or null for a name the cache would never write (the unit spec round-trips it). */
export function parseCacheObjectName(name: string): CacheObjectName | null {
  const match = OBJECT_NAME.exec(name);
  if (!match) return null;
  const [, orgId, cacheKey, takeId, suffix] = match as unknown as [string, string, string, string, string];
  const writtenAt = takeWrittenAt(takeId);
  if (!isCanonicalOrgId(orgId) || !isCanonicalCacheKey(cacheKey) || writtenAt === null) return null;
  return {
    orgId,
    cacheKey,
    audio: cacheObjectNames(orgId, cacheKey, takeId).audio,
    writtenAt,
    part: suffix === 'audio' ? 'audio' : 'words',
  };
}
