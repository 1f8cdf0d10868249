import { dayRange } from './breakdowns.controller';
import { parseFilters } from './request-filters';
import { csvField } from './requests.controller';

describe('request log filters', () => {
  it('reads days as whole UTC days, `to` included, and date-times as given', () => {
    expect(parseFilters({ from: '2026-11-01', to: '2026-11-02' })).toEqual({
      from: new Date('2026-11-01T00:00:00Z'),
      to: new Date('2026-11-03T00:00:00Z'),
    });
    expect(parseFilters({ from: '2026-11-01T12:00:00Z' })).toEqual({
      from: new Date('2026-11-01T12:00:00Z'),
    });
  });

  it('refuses a repeated or unknown value naming the parameter', () => {
    expect(() => parseFilters({ vendor: ['vendor_a', 'vendor_b'] })).toThrow(/vendor must be given once/);
    expect(() => parseFilters({ surface: 'ftp' })).toThrow(/surface must be one of/);
    expect(() => parseFilters({ cached: 'yes' })).toThrow(/cached must be one of/);
    expect(() => parseFilters({ key: 'rtr_abc' })).toThrow(/key must be the id/);
  });
});

describe('CSV fields', () => {
  it('quotes separators and keeps a formula from running', () => {
    expect(csvField('voice bot')).toBe('voice bot');
    expect(csvField('a, "b"')).toBe('"a, ""b"""');
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField(null)).toBe('');
    expect(csvField(12)).toBe('12');
  });
});

describe('breakdown day range', () => {
  const now = Date.parse('2026-11-29T03:00:00Z');
  it('defaults to the 30 days up to today', () => {
    const range = dayRange(undefined, undefined, now);
    expect(range).toMatchObject({ from: '2026-10-31', to: '2026-11-29' });
    expect(range.days).toHaveLength(30);
  });
  it('refuses a reversed or too long range', () => {
    expect(() => dayRange('2026-11-29', '2026-11-01', now)).toThrow(/from must not come after to/);
    expect(() => dayRange('2020-01-01', '2026-11-01', now)).toThrow(/366 days/);
  });
});
