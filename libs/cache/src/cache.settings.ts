/** The cache service's timings; every time decision also goes through the injected clock. */
export interface CacheServiceSettings {
  /** How often buffered usage (last-use refreshes, counters) is written. 0: only by `flushUsage()`. */
  usageFlushMs: number;
  /**
   * How often the retention and orphan sweeps run. Keep it well under a day: an entry is removed within
   * retention plus this interval of its last use, and the spec allows retention plus one day.
   * 0: only by `sweepNow()`.
   */
  sweepIntervalMs: number;
  /** A blob without an index row is removed only once it is this old: a take being written has no row yet. */
  orphanGraceMs: number;
  /** Rows deleted, or blobs checked, per statement in the sweeps. */
  sweepBatchSize: number;
  /** Blob deletions in flight at once during a sweep. */
  deleteConcurrency: number;
  /** Request log rows older than this many days are removed by the sweep. */
  requestLogRetentionDays: number;
}

export const DEFAULT_CACHE_SETTINGS: Readonly<CacheServiceSettings> = Object.freeze({
  usageFlushMs: 2000,
  sweepIntervalMs: 60 * 60 * 1000,
  orphanGraceMs: 15 * 60 * 1000,
  sweepBatchSize: 500,
  deleteConcurrency: 8,
  requestLogRetentionDays: 30,
});

export function resolveCacheSettings(settings: Partial<CacheServiceSettings>): CacheServiceSettings {
  const resolved = { ...DEFAULT_CACHE_SETTINGS, ...settings };
  for (const name of ['usageFlushMs', 'sweepIntervalMs', 'orphanGraceMs'] as const) {
    if (!Number.isInteger(resolved[name]) || resolved[name] < 0) {
      throw new Error(`${name} must be an integer >= 0`);
    }
  }
  for (const name of ['sweepBatchSize', 'deleteConcurrency', 'requestLogRetentionDays'] as const) {
    if (!Number.isInteger(resolved[name]) || resolved[name] < 1) {
      throw new Error(`${name} must be an integer >= 1`);
    }
  }
  return resolved;
}
