import { Prisma, type PrismaClient } from '@router/db';
import type { BreakdownFigures } from '@router/dashboard-types';
import type { VendorPrices } from '../prices';

interface AggregateRow {
  requests: number;
  errors: number;
  chars: number;
  cached_chars: number;
  sentences: number;
  cached_sentences: number;
  saved: number | null;
  p50: number | null;
  p95: number | null;
}

/** The groupings the breakdowns page shows: fixed SQL, never built from a request. */
const GROUPS = {
  dayVendor: {
    select: Prisma.sql`to_char(started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, vendor`,
    by: Prisma.sql`1, 2`,
  },
  vendor: { select: Prisma.sql`vendor`, by: Prisma.sql`1` },
  key: { select: Prisma.sql`key_hash`, by: Prisma.sql`1` },
  model: { select: Prisma.sql`vendor, model`, by: Prisma.sql`1, 2` },
  voice: { select: Prisma.sql`vendor, voice`, by: Prisma.sql`1, 2` },
} as const;

type Group = keyof typeof GROUPS;

/**
 * The org's request log rows from `from` (included) to `to` (excluded), summed per group in SQL, with the
 * first-audio percentiles (`percentile_cont`, rows without audio left out) and the saving at the prices given.
 */
export async function aggregate<T extends Record<string, unknown>>(
  prisma: PrismaClient,
  group: Group,
  orgId: string,
  range: { from: Date; to: Date },
  prices: VendorPrices,
): Promise<Array<T & BreakdownFigures>> {
  const priced = Object.entries(prices.perMillionChars).filter(([, price]) => price !== undefined);
  const { select, by } = GROUPS[group];
  const rows = await prisma.$queryRaw<Array<T & AggregateRow>>`
    SELECT ${select},
      count(*)::float8 AS requests,
      count(*) FILTER (WHERE status = 'error')::float8 AS errors,
      sum(chars)::float8 AS chars,
      sum(cached_chars)::float8 AS cached_chars,
      sum(sentences)::float8 AS sentences,
      sum(cached_sentences)::float8 AS cached_sentences,
      sum(cached_chars * p.price / 1000000.0)::float8 AS saved,
      percentile_cont(0.5) WITHIN GROUP (ORDER BY first_audio_ms)::float8 AS p50,
      percentile_cont(0.95) WITHIN GROUP (ORDER BY first_audio_ms)::float8 AS p95
    FROM request_log
    LEFT JOIN unnest(${priced.map(([vendor]) => vendor)}::text[], ${priced.map(([, price]) => price ?? 0)}::float8[])
      AS p(vendor_id, price) ON p.vendor_id = request_log.vendor
    WHERE org_id = ${orgId}::uuid
      AND started_at >= ${range.from.toISOString()}::timestamptz AND started_at < ${range.to.toISOString()}::timestamptz
    GROUP BY ${by}
    ORDER BY ${by}`;
  return rows.map(
    ({ requests, errors, chars, cached_chars, sentences, cached_sentences, saved, p50, p95, ...keys }) => ({
      ...(keys as unknown as T),
      requests,
      errors,
      chars,
      synthesized_chars: chars - cached_chars,
      cached_chars,
      sentences,
      cached_sentences,
      cache_share: sentences === 0 ? null : cached_sentences / sentences,
      saved: saved === null ? null : Math.round(saved * 10_000) / 10_000,
      first_audio_p50_ms: p50 === null ? null : Math.round(p50),
      first_audio_p95_ms: p95 === null ? null : Math.round(p95),
    }),
  );
}
