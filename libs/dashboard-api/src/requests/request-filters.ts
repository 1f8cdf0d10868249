import { RouterError } from '@router/contracts';
import type { Prisma } from '@router/db';

/** The surfaces a request log row names (as libs/pipeline writes them). */
export const SURFACES = ['speech', 'stream', 'mirror_rest', 'mirror_socket'] as const;
const STATUSES = ['ok', 'error'] as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/** The request log's filters as the query string gives them: each a single value or absent. */
export interface RequestFilterQuery {
  from?: unknown;
  to?: unknown;
  key?: unknown;
  vendor?: unknown;
  surface?: unknown;
  status?: unknown;
  cached?: unknown;
}

export interface RequestFilters {
  from?: Date;
  /** Exclusive. */
  to?: Date;
  keyId?: string;
  vendor?: string;
  surface?: (typeof SURFACES)[number];
  status?: (typeof STATUSES)[number];
  /** true: some sentence came from the cache; false: none did. */
  cached?: boolean;
}

/** One value of a query parameter; a repeated one (an array) is refused naming it. */
export function single(name: string, value: unknown): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw RouterError.badRequest(`${name} must be given once`);
  return value;
}

/**
 * `from` and `to` as UTC days (`2026-11-28`, both included) or date-times (`to` then excluded); each filter
 * refused by name when it is not one of its values.
 */
export function parseFilters(query: RequestFilterQuery): RequestFilters {
  const filters: RequestFilters = {};
  const from = single('from', query.from);
  const to = single('to', query.to);
  if (from !== undefined) filters.from = instant('from', from, 0);
  if (to !== undefined) filters.to = instant('to', to, DAY_MS);
  if (filters.from && filters.to && filters.from >= filters.to) {
    throw RouterError.badRequest('from must come before to');
  }
  const key = single('key', query.key);
  if (key !== undefined) {
    if (!/^[0-9a-f-]{36}$/i.test(key))
      throw RouterError.badRequest("key must be the id of one of the org's API keys");
    filters.keyId = key;
  }
  const vendor = single('vendor', query.vendor);
  if (vendor !== undefined) {
    if (!/^vendor_[a-z]$/.test(vendor))
      throw RouterError.badRequest('vendor must be a vendor token like vendor_a');
    filters.vendor = vendor;
  }
  const surface = single('surface', query.surface);
  if (surface !== undefined) filters.surface = oneOf('surface', surface, SURFACES);
  const status = single('status', query.status);
  if (status !== undefined) filters.status = oneOf('status', status, STATUSES);
  const cached = single('cached', query.cached);
  if (cached !== undefined) filters.cached = oneOf('cached', cached, ['true', 'false'] as const) === 'true';
  return filters;
}

/** The filters as a Prisma `where` for the org; `keyHash`: the filtered key's hash (null: no such key). */
export function whereOf(
  orgId: string,
  filters: RequestFilters,
  keyHash: string | null | undefined,
): Prisma.RequestLogEntryWhereInput {
  return {
    orgId,
    ...(filters.from || filters.to
      ? {
          startedAt: {
            ...(filters.from ? { gte: filters.from } : {}),
            ...(filters.to ? { lt: filters.to } : {}),
          },
        }
      : {}),
    // A key id that is not the org's matches nothing, never everything.
    ...(filters.keyId !== undefined ? { keyHash: keyHash ?? '-' } : {}),
    ...(filters.vendor ? { vendor: filters.vendor } : {}),
    ...(filters.surface ? { surface: filters.surface } : {}),
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.cached === undefined ? {} : { cachedSentences: filters.cached ? { gt: 0 } : 0 }),
  };
}

function instant(name: string, value: string, dayEndOffsetMs: number): Date {
  const at = DAY.test(value) ? new Date(`${value}T00:00:00Z`).getTime() + dayEndOffsetMs : Date.parse(value);
  if (!Number.isFinite(at)) {
    throw RouterError.badRequest(
      `${name} must be a day like 2026-11-28 or a date-time like 2026-11-28T12:00:00Z`,
    );
  }
  return new Date(at);
}

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw RouterError.badRequest(`${name} must be one of ${allowed.join(', ')}`);
  }
  return value as T;
}
