import type { BlobStore } from '@router/blob-store';
import type { Bus } from '@router/bus';
import type { PrismaClient, Sql } from '@router/db';
import type { Logger } from '@router/observability';
import type { CacheServiceSettings } from './cache.settings';

/** What every use case of the cache service works with. */
export interface CacheContext {
  prisma: PrismaClient;
  /** Plain SQL for the request paths (lookup, commit); Prisma for the sweeps and usage batches. */
  sql: Sql;
  blobs: BlobStore;
  bus: Bus;
  logger: Logger;
  /** Epoch milliseconds; injected so that tests decide what time it is. */
  now: () => number;
  settings: CacheServiceSettings;
}

/** Runs `work` over `items` with at most `limit` in flight. */
export async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++];
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

export function describeError(error: unknown): string {
  // Name and code only: a driver's message can quote the statement's parameters.
  if (error instanceof Error) {
    const code = 'code' in error ? ` ${String(error.code)}` : '';
    return `${error.name}${code}`;
  }
  return typeof error;
}
