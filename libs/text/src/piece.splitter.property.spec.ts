import fc from 'fast-check';
import { createIncrementalSplitter, splitText } from './piece.splitter';
import type { Splitter } from './text.types';
import { collapseWhitespace } from './whitespace.util';

/** No vendor input limit: outside the limit's own tests, pieces end only at sentence and clause ends. */
const NO_LIMIT = Number.POSITIVE_INFINITY;

// Fragments chosen to hit every decision of both splitters when glued together at random: abbreviations,
// numbers, URLs, terminators of several scripts, quotes, line breaks, surrogate pairs, combining marks.
// prettier-ignore
const FRAGMENTS = [
  'Dr', 'Mr', 'e.g', 'etc', 'a.m', 'U.S', 'Ph.D', 'No', 'J', 'x', 'hello', 'World', 'The', 'it', '3', '2019',
  '1,250', '12,50,000', '3.14', 'https://a.b/c?d=e', 'a@b.co', 'file.txt', 'abcdefghijklmnopqrstu', ' ', ' ',
  ' ', '  ', '\n', '\r\n', '\r', '\t', '\u00a0', '\u2028', '\u0085', '.', '.', '..', '...', '…', '?', '!',
  '?!', ',', ', ', ', ', ':', ';', '-', '।', '॥', '。', '！', '｡', '؟', '"', "'", '“', '”', '(', ')', '«', '»',
  '「', '」', '¿', '😀', '𝐀', '𝑎', 'नमस्ते', 'डॉ', '४२', 'আমি', '中文', 'é', '\u0301', '\u200d', '\ufeff', '\ud800',
];

const fragmentText = fc
  .array(fc.constantFrom(...FRAGMENTS), { maxLength: 80 })
  .map((parts) => parts.join(''));
const anyText = fc.oneof(
  { arbitrary: fragmentText, weight: 4 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 120 }), weight: 1 },
);
const kinds = fc.constantFrom<Splitter>('router', 'standard');

/** Feeds `text` cut at the given positions (code units, so surrogate pairs may be split). */
function feedInChunks(text: string, kind: Splitter, cuts: readonly number[]): string[] {
  const positions = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const splitter = createIncrementalSplitter(kind, NO_LIMIT);
  const pieces: string[] = [];
  let start = 0;
  for (const position of [...positions, text.length]) {
    pieces.push(...splitter.push(text.slice(start, position)));
    start = position;
  }
  pieces.push(...splitter.flush());
  return pieces;
}

const withoutWhitespace = (text: string): string => text.replace(/\p{White_Space}/gu, '');

describe('splitters (properties)', () => {
  it('give the whole-text pieces for any chunking of the text', () => {
    fc.assert(
      fc.property(anyText, kinds, fc.array(fc.nat(), { maxLength: 30 }), (text, kind, cuts) => {
        expect(feedInChunks(text, kind, cuts)).toEqual(splitText(text, kind, NO_LIMIT));
      }),
      { numRuns: 3000 },
    );
  });

  it('give the whole-text pieces when fed one code unit at a time', () => {
    fc.assert(
      fc.property(anyText, kinds, (text, kind) => {
        const cuts = Array.from({ length: text.length }, (_, i) => i);
        expect(feedInChunks(text, kind, cuts)).toEqual(splitText(text, kind, NO_LIMIT));
      }),
      { numRuns: 500 },
    );
  });

  it('lose nothing, change nothing but whitespace and never return an empty piece', () => {
    fc.assert(
      fc.property(anyText, kinds, (text, kind) => {
        const pieces = splitText(text, kind, NO_LIMIT);
        expect(withoutWhitespace(pieces.join(''))).toBe(withoutWhitespace(text));
        for (const piece of pieces) {
          expect(piece.length).toBeGreaterThan(0);
          expect(collapseWhitespace(piece)).toBe(piece);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('cut clauses exactly as the written rule says, on text with no sentence end', () => {
    // The rule, restated on collapsed text: after ", " once the piece through the comma has 20 code points.
    const reference = (text: string): string[] => {
      const collapsed = collapseWhitespace(text);
      const pieces: string[] = [];
      let start = 0;
      for (let i = 0; i < collapsed.length; i++) {
        if (
          collapsed[i] === ',' &&
          collapsed[i + 1] === ' ' &&
          [...collapsed.slice(start, i + 1)].length >= 20
        ) {
          pieces.push(collapsed.slice(start, i + 1));
          start = i + 2;
        }
      }
      if (start < collapsed.length) pieces.push(collapsed.slice(start));
      return pieces;
    };
    const clauseText = fc
      .array(
        fc.constantFrom('a', 'bb', 'word', '1,250', '12,50,000', ',', ', ', ' ', '  ', '\t', '😀', 'क्ष'),
        {
          maxLength: 60,
        },
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(clauseText, kinds, (text, kind) => {
        expect(splitText(text, kind, NO_LIMIT)).toEqual(reference(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('standard: finds the sentences Intl.Segmenter finds, when no danda or clause comma is involved', () => {
    const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
    const noDandaOrComma = anyText.map((text) => text.replace(/[।॥,،，]/g, ''));
    fc.assert(
      fc.property(noDandaOrComma, (text) => {
        const expected = [...segmenter.segment(text)]
          .map(({ segment }) => collapseWhitespace(segment))
          .filter((piece) => piece.length > 0);
        expect(splitText(text, 'standard', NO_LIMIT)).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
  });
});
