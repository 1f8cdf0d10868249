// Unicode White_Space, not JavaScript's `\s`: `\s` leaves out U+0085 (NEXT LINE, a line separator to the
// standard tokenizer) and takes in U+FEFF (a zero-width format character). libs/cache-keys collapses with the
// same property; the two must agree or cache keys stop matching.
const WHITESPACE_RUNS = /\p{White_Space}+/gu;

/**
 * The one change ever made to text: every run of whitespace (Unicode White_Space: spaces, tabs, line
 * breaks, NBSP, U+0085 …) becomes a single space, and none is left at either end.
 */
export function collapseWhitespace(text: string): string {
  const collapsed = text.replace(WHITESPACE_RUNS, ' ');
  const start = collapsed.startsWith(' ') ? 1 : 0;
  const end = collapsed.endsWith(' ') ? collapsed.length - 1 : collapsed.length;
  return start >= end ? '' : collapsed.slice(start, end);
}

/** The same whitespace as `collapseWhitespace`, for one code point (hot path: no regex, no allocation). */
export function isWhitespace(codePoint: number): boolean {
  if (codePoint < 0x80) return codePoint === 0x20 || (codePoint >= 0x09 && codePoint <= 0x0d);
  return (
    codePoint === 0x85 ||
    codePoint === 0xa0 ||
    codePoint === 0x1680 ||
    (codePoint >= 0x2000 && codePoint <= 0x200a) ||
    codePoint === 0x2028 ||
    codePoint === 0x2029 ||
    codePoint === 0x202f ||
    codePoint === 0x205f ||
    codePoint === 0x3000
  );
}

/**
 * A paragraph separator as the standard tokenizer sees it (LF, CR, NEL, LINE and PARAGRAPH SEPARATOR): a
 * sentence always ends there, in both splitters.
 */
export function isLineBreak(codePoint: number): boolean {
  return (
    codePoint === 0x0a ||
    codePoint === 0x0d ||
    codePoint === 0x85 ||
    codePoint === 0x2028 ||
    codePoint === 0x2029
  );
}
