import type { Bus, Subscription } from '@router/bus';
import { healthCacheV1 } from '@router/contracts';

export const CACHE_SERVICE = 'cache-service';

/** The cache service's subjects. Lookup and commit (`cache.lookup.v1`, `cache.commit.v1`) join this list. */
export function serveCache(bus: Bus, startedAt: number, now: () => number = Date.now): Subscription[] {
  return [
    bus.serve(healthCacheV1, () => ({
      service: CACHE_SERVICE,
      ok: true,
      uptimeMs: Math.max(0, now() - startedAt),
    })),
  ];
}
