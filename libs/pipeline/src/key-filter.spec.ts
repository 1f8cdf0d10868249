import { randomBytes } from 'node:crypto';
import { KeyFilter } from './key-filter';

const randomKey = (): string => randomBytes(32).toString('hex');

describe('KeyFilter', () => {
  it('never rules out a key it was given, up to and past its capacity', () => {
    const filter = new KeyFilter(2000);
    const keys = Array.from({ length: 3000 }, randomKey);
    keys.forEach((key) => filter.add(key));
    expect(keys.filter((key) => !filter.has(key))).toEqual([]);
    expect(filter.count).toBe(3000);
  });

  it('rules out about 99 % of other keys at capacity', () => {
    const filter = new KeyFilter(5000);
    for (let i = 0; i < 5000; i++) filter.add(randomKey());
    const others = Array.from({ length: 20_000 }, randomKey);
    const falsePositives = others.filter((key) => filter.has(key)).length / others.length;
    // ≈0.8 % expected with 10 bits and 7 probes per key; 2 % leaves room for chance, none for a broken filter.
    expect(falsePositives).toBeLessThan(0.02);
  });

  it('rules out every key while empty', () => {
    const filter = new KeyFilter(1024);
    expect(Array.from({ length: 1000 }, randomKey).some((key) => filter.has(key))).toBe(false);
  });

  it('never rules out a string that is not a cache key, and does not count it', () => {
    const filter = new KeyFilter(1024);
    filter.add('not-a-key');
    expect(filter.count).toBe(0);
    expect(filter.has('not-a-key')).toBe(true);
    expect(filter.has(randomKey().toUpperCase())).toBe(true);
  });
});
