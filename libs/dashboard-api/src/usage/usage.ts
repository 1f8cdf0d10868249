import type { UsageFigures, UsageReport } from '@router/dashboard-types';
import type { VendorPrices } from '../prices';

/** One row of cache-service's usage counters (org, UTC day, vendor). */
export interface UsageRow {
  day: string;
  provider: string;
  synthesizedChars: number;
  cachedChars: number;
  synthesizedSentences: number;
  cachedSentences: number;
}

const DAY_MS = 86_400_000;

/** The UTC days `from`..`to` (both included) of the last `days` days up to `today`. */
export function dayRange(today: number, days: number): { from: string; to: string; list: string[] } {
  const end = Math.floor(today / DAY_MS) * DAY_MS;
  const list = Array.from({ length: days }, (_, i) => isoDay(end - (days - 1 - i) * DAY_MS));
  return { from: list[0] ?? isoDay(end), to: isoDay(end), list };
}

/**
 * The usage page's figures from the counters: per day (all vendors), per vendor (all days) and in total, with
 * the share of sentences served from cache and the estimated vendor cost saved (cached characters at the
 * operator's prices: a cache hit is a synthesis the vendor did not bill).
 */
export function usageReport(
  rows: UsageRow[],
  range: ReturnType<typeof dayRange>,
  prices: VendorPrices,
): UsageReport {
  const priceOf = (provider: string): number | null =>
    (prices.perMillionChars as Record<string, number | undefined>)[provider] ?? null;
  const byDay = new Map(range.list.map((day) => [day, [] as UsageRow[]]));
  const byVendor = new Map<string, UsageRow[]>();
  for (const row of rows) {
    byDay.get(row.day)?.push(row);
    byVendor.set(row.provider, [...(byVendor.get(row.provider) ?? []), row]);
  }
  return {
    from: range.from,
    to: range.to,
    currency: prices.currency,
    days: range.list.map((day) => ({ day, ...figures(byDay.get(day) ?? [], priceOf) })),
    vendors: [...byVendor.keys()].sort().map((provider) => ({
      provider,
      price_per_million_chars: priceOf(provider),
      ...figures(byVendor.get(provider) ?? [], priceOf),
    })),
    totals: figures(rows, priceOf),
  };
}

function figures(rows: UsageRow[], priceOf: (provider: string) => number | null): UsageFigures {
  let saved: number | null = null;
  const sum = { synthesized_chars: 0, cached_chars: 0, synthesized_sentences: 0, cached_sentences: 0 };
  for (const row of rows) {
    sum.synthesized_chars += row.synthesizedChars;
    sum.cached_chars += row.cachedChars;
    sum.synthesized_sentences += row.synthesizedSentences;
    sum.cached_sentences += row.cachedSentences;
    const price = priceOf(row.provider);
    if (price !== null) saved = (saved ?? 0) + (row.cachedChars * price) / 1_000_000;
  }
  const sentences = sum.synthesized_sentences + sum.cached_sentences;
  return {
    ...sum,
    cache_share: sentences === 0 ? null : sum.cached_sentences / sentences,
    saved: saved === null ? null : Math.round(saved * 10_000) / 10_000,
  };
}

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
