import { BEFORE_NUMBER, DOTTED_ACRONYM, MAYBE_END, NEVER_END } from './abbreviations.data';
import type { BoundaryContext, BoundaryDecision, BoundaryRule } from './boundary-rule.types';
import { MAX_LOOKBEHIND } from './boundary-rule.types';
import {
  charLength,
  codePointAt,
  isCasedLetter,
  isCloser,
  isDecimalDigit,
  isOpener,
  isUppercaseLetter,
} from './characters.util';
import { isLineBreak, isWhitespace } from './whitespace.util';

/** Ends a sentence whatever follows: danda, double danda and the CJK full stops and marks (`你好。我`). */
const UNSPACED_STOPS = new Set<number>([0x0964, 0x0965, 0x3002, 0xff61, 0xff01, 0xff1f]);
/** Ends a sentence when whitespace (or the end of the text) follows: `?`, `!`, `‼`, `⁇`, `⁈`, `⁉`, `؟`, `۔`, `።`. */
const SPACED_STOPS = new Set<number>([0x3f, 0x21, 0x203c, 0x2047, 0x2048, 0x2049, 0x061f, 0x06d4, 0x1362]);
const FULL_STOP = 0x2e;
const ELLIPSIS = 0x2026;
const COLON = 0x3a;
/** Longer than any abbreviation, initial or list number; a longer token is judged as a plain word. */
const MAX_TOKEN = 48;
const LIST_NUMBER = /^\p{Nd}{1,3}$/u;
/** Capital initials joined by periods (`J.K`, `J.R.R`, `U.S`): judged like a single initial. */
const DOTTED_INITIALS = /^\p{Lu}(?:\.\p{Lu})+$/u;

type TokenKind = 'never-end' | 'before-number' | 'maybe-end' | 'word';

const WAIT: BoundaryDecision = { kind: 'wait' };
const end = (at: number): BoundaryDecision => ({ kind: 'end', at });
const carryOn = (next: number): BoundaryDecision => ({ kind: 'continue', next });

function isTerminator(codePoint: number): boolean {
  return (
    codePoint === FULL_STOP ||
    codePoint === ELLIPSIS ||
    SPACED_STOPS.has(codePoint) ||
    UNSPACED_STOPS.has(codePoint)
  );
}

/**
 * The router's own splitter (vendor_a, vendor_b). A sentence ends:
 * - at every line break;
 * - after a run of terminators and closing quotes/brackets that holds a danda or a CJK stop, whatever follows;
 * - after such a run holding `?`, `!` (or an equivalent) when whitespace or the end of the text follows;
 * - after a single `.` (plus closers) followed by whitespace, unless the word before it is a known
 *   abbreviation, an initial (`J.`, `J.K.`, `U.S.`) or a list number (see abbreviations.data.ts for what each
 *   kind of abbreviation needs after it).
 * A `.` with no whitespace after it (decimals, URLs, e-mail addresses, file names) and an ellipsis (`...`,
 * `…`) never end one.
 *
 * Only those exceptions look past the whitespace: after any other word the sentence ends at the whitespace
 * itself, so a streamed `Your order has shipped. ` is released before the next text arrives (spec point 4:
 * the first audio waits only for its first clause). The next word's case decides nothing else.
 */
export const routerBoundaryRule: BoundaryRule = {
  isCandidate(codePoint: number): boolean {
    return isTerminator(codePoint) || isLineBreak(codePoint);
  },

  decide(context: BoundaryContext): BoundaryDecision {
    const { text, at, final, memo } = context;
    if (isLineBreak(text.charCodeAt(at))) return end(at + 1);

    if (memo.runEnd < 0) {
      let index = memo.scan < 0 ? at : memo.scan;
      for (;;) {
        const codePoint = index < text.length ? codePointAt(text, index, final) : final ? -2 : -1;
        if (codePoint === -1) {
          memo.scan = index;
          return WAIT;
        }
        if (codePoint === -2 || !(isTerminator(codePoint) || isCloser(codePoint))) break;
        index += charLength(codePoint);
      }
      memo.runEnd = index;
      memo.scan = -1;
    }
    const runEnd = memo.runEnd;

    let spacedStop = false;
    let fullStops = 0;
    let ellipsis = false;
    for (let index = at; index < runEnd; index++) {
      const unit = text.charCodeAt(index);
      if (UNSPACED_STOPS.has(unit)) return end(runEnd);
      if (SPACED_STOPS.has(unit)) spacedStop = true;
      else if (unit === FULL_STOP) fullStops++;
      else if (unit === ELLIPSIS) ellipsis = true;
    }
    if (runEnd >= text.length) return end(runEnd);
    if (!isWhitespace(text.charCodeAt(runEnd))) return carryOn(runEnd);
    if (spacedStop) return end(runEnd);
    if (ellipsis || fullStops !== 1) return carryOn(runEnd);

    // A single full stop followed by whitespace: the word before it settles it, except after an abbreviation
    // that may or may not end a sentence, which the next word settles (a line break settles it at once).
    const token = classifyToken(context);
    if (token === 'word') return end(runEnd);
    if (token === 'never-end') return carryOn(runEnd);
    let index = memo.scan < 0 ? runEnd : memo.scan;
    let next = -2;
    while (index < text.length) {
      const codePoint = codePointAt(text, index, final);
      if (codePoint < 0) break;
      if (isLineBreak(codePoint)) return end(runEnd);
      if (!isWhitespace(codePoint) && !isOpener(codePoint)) {
        next = codePoint;
        break;
      }
      index += charLength(codePoint);
    }
    if (next === -2) {
      if (final) return end(runEnd);
      memo.scan = index;
      return WAIT;
    }

    if (token === 'maybe-end') return isUppercaseLetter(next) ? end(runEnd) : carryOn(runEnd);
    return isDecimalDigit(next) ? carryOn(runEnd) : end(runEnd);
  },
};

/** Classifies the token just before the full stop at `context.at`, reading at most MAX_LOOKBEHIND back. */
function classifyToken(context: BoundaryContext): TokenKind {
  const { text, at } = context;
  const limit = Math.max(0, at - MAX_TOKEN);
  let start = at;
  while (start > limit && !isWhitespace(text.charCodeAt(start - 1))) start--;
  if (start === limit && limit > 0 && !isWhitespace(text.charCodeAt(start - 1))) return 'word';

  let wordStart = start;
  while (wordStart < at) {
    const codePoint = text.codePointAt(wordStart) ?? 0;
    if (!isOpener(codePoint)) break;
    wordStart += charLength(codePoint);
  }
  let wordEnd = at;
  while (wordEnd > wordStart && isCloser(text.charCodeAt(wordEnd - 1))) wordEnd--;
  const word = text.slice(wordStart, wordEnd);
  const lower = word.toLowerCase();

  if (NEVER_END.has(lower)) return 'never-end';
  const first = word.codePointAt(0) ?? 0;
  if ((word.length === charLength(first) && isCasedLetter(first)) || DOTTED_INITIALS.test(word)) {
    return 'never-end';
  }
  if (
    LIST_NUMBER.test(word) &&
    (wordStart === context.sentenceContentStart || followsColon(text, start, at))
  ) {
    return 'never-end';
  }
  if (BEFORE_NUMBER.has(lower)) return 'before-number';
  if (MAYBE_END.has(lower) || DOTTED_ACRONYM.test(word)) return 'maybe-end';
  return 'word';
}

/** A number right after a colon is a list marker: `Steps: 1. Open the app.` */
function followsColon(text: string, tokenStart: number, at: number): boolean {
  const limit = Math.max(0, at - MAX_LOOKBEHIND);
  let index = tokenStart - 1;
  while (index >= limit && isWhitespace(text.charCodeAt(index))) index--;
  return index >= limit && text.charCodeAt(index) === COLON;
}
