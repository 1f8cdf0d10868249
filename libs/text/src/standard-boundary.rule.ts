import type { BoundaryContext, BoundaryDecision, BoundaryRule } from './boundary-rule.types';
import {
  charLength,
  codePointAt,
  isCloser,
  isDanda,
  isGraphemeExtend,
  isLetter,
  isSentenceTerminal,
} from './characters.util';
import { isLineBreak } from './whitespace.util';

const CR = 0x0d;
const LF = 0x0a;
/**
 * Left context handed to the tokenizer before a candidate. Its rules look back at most one character (plus
 * combining marks) before a terminator, and every earlier terminator is settled by then.
 */
const WINDOW_LOOKBEHIND = 32;

// A fixed locale keeps the pieces, and so the cache keys, the same on every machine.
const SENTENCES = new Intl.Segmenter('en', { granularity: 'sentence' });

const WAIT: BoundaryDecision = { kind: 'wait' };
const end = (at: number): BoundaryDecision => ({ kind: 'end', at });
const carryOn = (next: number): BoundaryDecision => ({ kind: 'continue', next });

/**
 * A character that settles the tokenizer's decision after a terminator (UAX #29: the skip in rule SB8 stops
 * at a letter, a paragraph separator or another terminator; SB6, SB7 and SB8a look at one character). Marks
 * that extend the previous character never settle anything.
 */
function settles(codePoint: number): boolean {
  return (
    isSentenceTerminal(codePoint) ||
    isLineBreak(codePoint) ||
    (isLetter(codePoint) && !isGraphemeExtend(codePoint))
  );
}

/**
 * The standard splitter (vendor_c … vendor_j): the sentences of `Intl.Segmenter` (the ICU implementation of
 * the Unicode sentence rules) plus a sentence end after every danda run (and its closing quotes/brackets).
 * Whether a terminator ends a sentence can depend on text well after it (`etc. 5 apples` is one sentence,
 * `etc. 5` two), so a terminator is handed to the tokenizer only with the text up to the first character
 * that settles it; both the whole-text and the incremental path take exactly that window.
 */
export const standardBoundaryRule: BoundaryRule = {
  isCandidate(codePoint: number): boolean {
    return isSentenceTerminal(codePoint) || isLineBreak(codePoint);
  },

  decide(context: BoundaryContext): BoundaryDecision {
    const { text, at, final, memo } = context;
    const first = text.codePointAt(at) ?? 0;
    const firstLength = charLength(first);

    if (first === CR) {
      if (at + 1 < text.length) return end(text.charCodeAt(at + 1) === LF ? at + 2 : at + 1);
      return final ? end(at + 1) : WAIT;
    }
    if (isLineBreak(first)) return end(at + 1);

    if (isDanda(first)) {
      let index = memo.scan < 0 ? at : memo.scan;
      for (;;) {
        const codePoint = index < text.length ? codePointAt(text, index, final) : final ? -2 : -1;
        if (codePoint === -1) {
          memo.scan = index;
          return WAIT;
        }
        if (codePoint === -2 || !(isSentenceTerminal(codePoint) || isCloser(codePoint))) break;
        index += charLength(codePoint);
      }
      return end(index);
    }

    let index = memo.scan < 0 ? at + firstLength : memo.scan;
    let windowEnd = -1;
    while (index < text.length) {
      const codePoint = codePointAt(text, index, final);
      if (codePoint < 0) break;
      if (settles(codePoint)) {
        // A terminator right after another never starts a sentence (UAX #29 SB8a): `?!`, `...`, `!!!`
        // are settled without asking the tokenizer.
        if (index === at + firstLength && isSentenceTerminal(codePoint)) return carryOn(index);
        windowEnd = index + charLength(codePoint);
        break;
      }
      index += charLength(codePoint);
    }
    if (windowEnd < 0) {
      if (!final) {
        memo.scan = index;
        return WAIT;
      }
      windowEnd = text.length;
    }

    let windowStart = Math.max(0, at - WINDOW_LOOKBEHIND);
    const unit = text.charCodeAt(windowStart);
    if (windowStart > 0 && unit >= 0xdc00 && unit <= 0xdfff) windowStart--;
    for (const segment of SENTENCES.segment(text.slice(windowStart, windowEnd))) {
      const boundary = windowStart + segment.index;
      if (boundary > at) return boundary < windowEnd ? end(boundary) : carryOn(at + firstLength);
    }
    return carryOn(at + firstLength);
  },
};
