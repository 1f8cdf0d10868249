import { RouterError } from './router-error';
import { isStoreUnreachable } from './store-unreachable';

/**
 * What a process's memory answers when reading its source (PostgreSQL) failed: the value it holds, while the
 * source is unreachable and the value was read no longer than `staleMs` ago (the outage's staleness bound,
 * `DATABASE_OUTAGE_STALE_MS`); else the failure, as `unavailable` when the source is unreachable.
 */
export function heldThroughOutage<T>(
  error: unknown,
  held: { value: T; at: number } | undefined,
  now: number,
  staleMs: number,
): T {
  if (held && isStoreUnreachable(error) && now - held.at <= staleMs) return held.value;
  throw RouterError.unexpected(error);
}
