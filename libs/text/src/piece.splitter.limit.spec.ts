import fc from 'fast-check';
import { createIncrementalSplitter, splitText } from './piece.splitter';
import type { Splitter } from './text.types';
import { collapseWhitespace } from './whitespace.util';

// The vendor's input limit (issue: a piece longer than the vendor accepts). Pieces are cut at the last
// whitespace within the limit, or between characters in text without any, and never longer than the limit.

const kinds = fc.constantFrom<Splitter>('router', 'standard');
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Walks the collapsed text piece by piece: each piece must come next, followed by the space that was there
 * or by nothing (a cut inside a word, a danda, a CJK stop). True when the pieces give back the whole text.
 */
function givesBack(pieces: readonly string[], text: string): boolean {
  const collapsed = collapseWhitespace(text);
  let at = 0;
  for (const piece of pieces) {
    if (!collapsed.startsWith(piece, at)) return false;
    at += piece.length;
    if (collapsed[at] === ' ') at++;
  }
  return at === collapsed.length;
}

function feedInChunks(text: string, kind: Splitter, maxLength: number, cuts: readonly number[]): string[] {
  const positions = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const splitter = createIncrementalSplitter(kind, maxLength);
  const pieces: string[] = [];
  let start = 0;
  for (const position of [...positions, text.length]) {
    pieces.push(...splitter.push(text.slice(start, position)));
    start = position;
  }
  pieces.push(...splitter.flush());
  return pieces;
}

describe('pieces within the vendor input limit', () => {
  it.each<Splitter>(['router', 'standard'])(
    '%s: cuts a 4,004-character sentence at the last word that fits 2,500',
    (kind) => {
      const pieces = splitText(`${'word '.repeat(800)}end.`, kind, 2500);
      expect(pieces).toEqual([
        Array.from({ length: 500 }, () => 'word').join(' '),
        `${'word '.repeat(300)}end.`,
      ]);
      expect(pieces[0]).toHaveLength(2499);
    },
  );

  it.each<{ text: string; maxLength: number; pieces: string[] }>([
    { text: 'abcd efgh ijk', maxLength: 9, pieces: ['abcd efgh', 'ijk'] },
    { text: 'abcd   efgh\n\tijk', maxLength: 9, pieces: ['abcd efgh', 'ijk'] },
    { text: 'abcd efghi', maxLength: 9, pieces: ['abcd', 'efghi'] },
    { text: 'x'.repeat(10), maxLength: 4, pieces: ['xxxx', 'xxxx', 'xx'] },
    { text: `a ${'x'.repeat(10)} b`, maxLength: 4, pieces: ['a', 'xxxx', 'xxxx', 'xx b'] },
    // Counted in UTF-16 code units: an emoji is two, and is never cut in half.
    { text: '😀'.repeat(5), maxLength: 5, pieces: ['😀😀', '😀😀', '😀'] },
    { text: `${'😀'.repeat(2)}x😀`, maxLength: 4, pieces: ['😀😀', 'x😀'] },
    // The limit applies after clause and sentence ends: short pieces are not merged, long ones cut.
    {
      text: 'One two three four five six. Seven, eight.',
      maxLength: 12,
      pieces: ['One two', 'three four', 'five six.', 'Seven,', 'eight.'],
    },
  ])('$text at $maxLength: $pieces', ({ text, maxLength, pieces }) => {
    for (const kind of ['router', 'standard'] as const) {
      expect(splitText(text, kind, maxLength)).toEqual(pieces);
      expect(
        feedInChunks(
          text,
          kind,
          maxLength,
          [...text].map((_, i) => i),
        ),
      ).toEqual(pieces);
    }
  });

  it('releases streamed text with no sentence end as soon as it passes the limit', () => {
    const splitter = createIncrementalSplitter('router', 10);
    expect(splitter.push('one two ')).toEqual([]);
    expect(splitter.push('three ')).toEqual(['one two']);
    expect(splitter.push('four five six ')).toEqual(['three four']);
    expect(splitter.flush()).toEqual(['five six']);
  });

  it.each<Splitter>(['router', 'standard'])(
    '%s: cuts 20,000 characters of long words and runs the same whole or fed a character at a time',
    (kind) => {
      const text = `${'word, '.repeat(300)}${'x'.repeat(3000)} ${'y😀'.repeat(400)}. `.repeat(4);
      const whole = splitText(text, kind, 2500);
      expect(whole.every((piece) => piece.length <= 2500)).toBe(true);
      expect(givesBack(whole, text)).toBe(true);
      expect(whole.filter((piece) => piece === 'x'.repeat(2500))).toHaveLength(4);
      const cuts = Array.from({ length: text.length }, (_, i) => i);
      expect(feedInChunks(text, kind, 2500, cuts)).toEqual(whole);
      expect(
        feedInChunks(
          text,
          kind,
          2500,
          cuts.filter((i) => i % 7 === 0),
        ),
      ).toEqual(whole);
    },
  );

  it.each([1, 0, -5, 2.5, Number.NaN])('refuses a limit of %p', (maxLength) => {
    expect(() => createIncrementalSplitter('router', maxLength)).toThrow(/maxLength must be an integer/);
    expect(() => splitText('text', 'standard', maxLength)).toThrow(RangeError);
  });

  describe('properties', () => {
    // prettier-ignore
    const FRAGMENTS = [
      'word', 'a', 'longerword', 'x'.repeat(30), 'Dr', 'e.g', '3.14', 'https://a.b/c?d=e', ' ', ' ', ' ', '  ',
      '\n', '\t', '.', '. ', '?', '!', ', ', ',', '।', '。', '"', '(', ')', '😀', '𝐀', 'नमस्ते', 'é', '\u0301',
    ];
    const text = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 80 }).map((parts) => parts.join(''));
    const limit = fc.integer({ min: 2, max: 40 });

    it('every piece fits the limit, none is empty or cuts a surrogate pair, and they give back the text', () => {
      fc.assert(
        fc.property(text, kinds, limit, (input, kind, maxLength) => {
          const pieces = splitText(input, kind, maxLength);
          for (const piece of pieces) {
            expect(piece.length).toBeGreaterThan(0);
            expect(piece.length).toBeLessThanOrEqual(maxLength);
            expect(collapseWhitespace(piece)).toBe(piece);
            expect(LONE_SURROGATE.test(piece)).toBe(false);
          }
          expect(givesBack(pieces, input)).toBe(true);
        }),
        { numRuns: 1000 },
      );
    });

    it('give the whole-text pieces for any chunking of the text', () => {
      fc.assert(
        fc.property(
          text,
          kinds,
          limit,
          fc.array(fc.nat(), { maxLength: 30 }),
          (input, kind, maxLength, cuts) => {
            expect(feedInChunks(input, kind, maxLength, cuts)).toEqual(splitText(input, kind, maxLength));
          },
        ),
        { numRuns: 3000 },
      );
    });

    it('cut words apart only when a word alone is longer than the limit, and fill each piece greedily', () => {
      // Words of at most 10 code units, each followed by whitespace.
      const words = fc.array(
        fc.tuple(
          fc.constantFrom('a', 'bb', 'word', 'longerword', '😀', 'x😀y'),
          fc.constantFrom(' ', '  ', '\t '),
        ),
        { maxLength: 60 },
      );
      fc.assert(
        fc.property(words, kinds, fc.integer({ min: 10, max: 30 }), (parts, kind, maxLength) => {
          const input = parts.flat().join('');
          const pieces = splitText(input, kind, maxLength);
          expect(pieces.join(' ')).toBe(collapseWhitespace(input));
          pieces.slice(1).forEach((piece, i) => {
            const firstWord = piece.split(' ')[0];
            expect(pieces[i].length + 1 + firstWord.length).toBeGreaterThan(maxLength);
          });
        }),
        { numRuns: 2000 },
      );
    });
  });
});
