import { shownTail } from './provider-key.store';

describe('shownTail (what last4 shows of a key)', () => {
  it.each([
    ['k', ''],
    ['ab', 'b'],
    ['abc', 'c'],
    ['abcd', 'cd'],
    ['abcde', 'de'],
    ['abcdefg', 'efg'],
    ['abcdefgh', 'efgh'],
    ['sk-0123456789-WXYZ', 'WXYZ'],
  ])('shows of %j only %j: four characters at most, never more than half', (key, shown) => {
    expect(shownTail(key)).toBe(shown);
    expect(shown.length * 2).toBeLessThanOrEqual(key.length);
  });
});
