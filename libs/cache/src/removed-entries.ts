import { cacheInvalidatedV1 } from '@router/contracts';
import { describeError, forEachLimited, type CacheContext } from './cache.context';

export interface EntryRef {
  orgId: string;
  cacheKey: string;
}

/** Keys per `cache.invalidated.v1` event, to keep each message small. */
const KEYS_PER_EVENT = 500;

/**
 * Deletes blobs; a failure is logged and left to the orphan sweep (a blob without a row harms nobody).
 * Returns the names actually deleted.
 */
export async function deleteBlobs(context: CacheContext, names: readonly string[]): Promise<string[]> {
  const deleted: string[] = [];
  let failures = 0;
  let lastError: unknown;
  await forEachLimited(names, context.settings.deleteConcurrency, async (name) => {
    try {
      await context.blobs.delete(name);
      deleted.push(name);
    } catch (error) {
      failures++;
      lastError = error;
    }
  });
  if (failures > 0) {
    context.logger.warn(
      { failures, error: describeError(lastError) },
      'cache blob deletions failed; the orphan sweep retries',
    );
  }
  return deleted;
}

/** Tells the serving apps to drop these entries from their hot tiers; one event per org (or per 500 keys). */
export async function publishInvalidations(
  context: CacheContext,
  refs: readonly EntryRef[],
): Promise<number> {
  const byOrg = new Map<string, Set<string>>();
  for (const ref of refs) {
    const keys = byOrg.get(ref.orgId) ?? new Set<string>();
    keys.add(ref.cacheKey);
    byOrg.set(ref.orgId, keys);
  }
  let events = 0;
  for (const [orgId, keySet] of byOrg) {
    const keys = [...keySet];
    for (let start = 0; start < keys.length; start += KEYS_PER_EVENT) {
      try {
        await context.bus.publish(cacheInvalidatedV1, {
          orgId,
          cacheKeys: keys.slice(start, start + KEYS_PER_EVENT),
        });
        events++;
      } catch (error) {
        // Hot-tier entries also expire by their short TTL; a lost event only delays that.
        context.logger.warn({ orgId, error: describeError(error) }, 'cache invalidation not published');
      }
    }
  }
  return events;
}
