import { parseVendorPrices } from '../prices';
import { dayRange, usageReport, type UsageRow } from './usage';

const row = (day: string, provider: string, n: Partial<UsageRow>): UsageRow => ({
  day,
  provider,
  synthesizedChars: 0,
  cachedChars: 0,
  synthesizedSentences: 0,
  cachedSentences: 0,
  ...n,
});

describe('usage report', () => {
  const range = dayRange(Date.parse('2026-11-26T15:00:00Z'), 3);

  it('covers every UTC day of the range, oldest first', () => {
    expect(range).toEqual({
      from: '2026-11-24',
      to: '2026-11-26',
      list: ['2026-11-24', '2026-11-25', '2026-11-26'],
    });
  });

  it('sums per day and per vendor, with the cached share of sentences and the saving at configured prices', () => {
    const prices = parseVendorPrices('vendor_a=20, vendor_c=300', 'EUR');
    const report = usageReport(
      [
        row('2026-11-25', 'vendor_a', { synthesizedChars: 100, synthesizedSentences: 2 }),
        row('2026-11-26', 'vendor_a', { cachedChars: 500_000, cachedSentences: 6 }),
        row('2026-11-26', 'vendor_b', {
          synthesizedChars: 10,
          cachedChars: 40,
          synthesizedSentences: 1,
          cachedSentences: 1,
        }),
      ],
      range,
      prices,
    );
    expect(report.currency).toBe('EUR');
    expect(report.days.map((d) => [d.day, d.cached_chars, d.cache_share, d.saved])).toEqual([
      ['2026-11-24', 0, null, null],
      ['2026-11-25', 0, 0, 0],
      ['2026-11-26', 500_040, 7 / 8, 10],
    ]);
    expect(
      report.vendors.map((v) => [v.provider, v.price_per_million_chars, v.saved, v.cache_share]),
    ).toEqual([
      ['vendor_a', 20, 10, 6 / 8],
      ['vendor_b', null, null, 0.5],
    ]);
    expect(report.totals).toEqual({
      synthesized_chars: 110,
      cached_chars: 500_040,
      synthesized_sentences: 3,
      cached_sentences: 7,
      cache_share: 0.7,
      saved: 10,
    });
  });

  it('refuses prices that are not <vendor>=<amount>, naming the part', () => {
    expect(() => parseVendorPrices('vendor_z=1', 'USD')).toThrow('"vendor_z=1"');
    expect(() => parseVendorPrices('vendor_a=-1', 'USD')).toThrow('"vendor_a=-1"');
    expect(() => parseVendorPrices('vendor_a', 'USD')).toThrow('"vendor_a"');
    expect(() => parseVendorPrices('', 'dollars')).toThrow('PRICE_CURRENCY');
    expect(parseVendorPrices(undefined, 'USD')).toEqual({ currency: 'USD', perMillionChars: {} });
  });
});
