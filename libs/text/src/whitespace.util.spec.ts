import { collapseWhitespace, isLineBreak, isWhitespace } from './whitespace.util';

describe('collapseWhitespace', () => {
  it.each([
    ['', ''],
    ['   ', ''],
    ['Hello', 'Hello'],
    ['  Hello   world  ', 'Hello world'],
    ['a\tb\nc\r\nd', 'a b c d'],
    ['a\u00a0\u00a0b', 'a b'],
    ['a\u2028b\u0085c', 'a b c'],
    ['a\u00a0\u2003\u3000b\u2028c\u0085d', 'a b c d'],
    ['\u3000全角\u3000', '全角'],
    ['नमस्ते   दुनिया', 'नमस्ते दुनिया'],
    ['Case, and Punctuation!', 'Case, and Punctuation!'],
  ])('%j -> %j', (text, expected) => {
    expect(collapseWhitespace(text)).toBe(expected);
  });

  it('leaves zero-width characters alone, U+FEFF included (they are not White_Space)', () => {
    expect(collapseWhitespace('a\u200bb\u200dc\ufeffd')).toBe('a\u200bb\u200dc\ufeffd');
  });
});

describe('isWhitespace', () => {
  it('agrees with the pattern collapseWhitespace uses on every code point', () => {
    const pattern = /\p{White_Space}/u;
    const disagreements: number[] = [];
    for (let codePoint = 0; codePoint <= 0x10ffff; codePoint++) {
      if (isWhitespace(codePoint) !== pattern.test(String.fromCodePoint(codePoint)))
        disagreements.push(codePoint);
    }
    expect(disagreements).toEqual([]);
  });
});

describe('isLineBreak', () => {
  it('is true for paragraph separators only', () => {
    expect([0x0a, 0x0d, 0x85, 0x2028, 0x2029].every(isLineBreak)).toBe(true);
    expect([0x20, 0x09, 0x0b, 0x0c, 0xa0, 0x41].some(isLineBreak)).toBe(false);
  });
});
