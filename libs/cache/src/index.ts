export {
  CACHE_SERVICE,
  serveCache,
  type CacheService,
  type CacheServiceDeps,
  type SweepReport,
} from './cache.service';
export { DEFAULT_CACHE_SETTINGS, type CacheServiceSettings } from './cache.settings';
export { parseCacheObjectName, type CacheObjectName } from './cache-object-names';
export type { RetentionSweepReport } from './retention-sweep';
export type { OrphanSweepReport } from './orphan-sweep';
export type { UsageFlushReport } from './usage-recorder';
