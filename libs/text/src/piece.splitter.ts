import type { BoundaryRule, LookaheadMemo } from './boundary-rule.types';
import { MAX_LOOKBEHIND } from './boundary-rule.types';
import { charLength, codePointAt, isOpener } from './characters.util';
import { routerBoundaryRule } from './router-boundary.rule';
import { standardBoundaryRule } from './standard-boundary.rule';
import type { IncrementalSplitter, Splitter } from './text.types';
import { collapseWhitespace, isWhitespace } from './whitespace.util';

/**
 * Clause pieces (spec: "Sentence splitting", point 3): a piece ends after a comma that is followed by
 * whitespace, once the piece up to and including that comma is at least this many characters long. Length is
 * counted in Unicode code points of the piece after whitespace collapse, from its first non-space character.
 * `1,250` and `12,50,000` are never cut, since no space follows their commas.
 */
export const CLAUSE_MIN_LENGTH = 20;

/** ASCII comma, Arabic comma, fullwidth comma: each ends a clause when whitespace follows. */
const CLAUSE_COMMAS = new Set<number>([0x2c, 0x060c, 0xff0c]);

/**
 * Once this much of a piece is scanned, all but its last MAX_LOOKBEHIND characters move to `committed`, so a
 * very long sentence arriving in small deltas is not copied whole on every delta.
 */
const COMPACT_AFTER = 1024;

const RULES: Readonly<Record<Splitter, BoundaryRule>> = {
  router: routerBoundaryRule,
  standard: standardBoundaryRule,
};

/**
 * Scans held text once, left to right. At a clause comma or a rule's candidate it either decides or, when the
 * decision needs text that has not arrived, stops there until the next delta. A piece is released only when
 * the decision after it is taken, and no decision reads past what it has seen, so every chunking of a text
 * gives the same pieces.
 *
 * Every character of a piece passes `consume`, which keeps the piece within the vendor's input limit: a
 * character that would take the collapsed piece past `maxLength` UTF-16 code units cuts the piece at its last
 * whitespace, or, when the piece has none, just before that character (so never inside a surrogate pair).
 * Scanning then starts again at the cut. The cut depends only on the text scanned, never on the chunking.
 */
class PieceSplitter implements IncrementalSplitter {
  /** Scanned text of the current piece that no decision will read again. */
  private committed: string[] = [];
  /** The rest of the current piece, plus everything not scanned yet. */
  private held = '';
  /** Next index of `held` to scan. */
  private index = 0;
  /** UTF-16 length of `committed`. */
  private committedLength = 0;
  /** Code points of the collapsed piece so far, without a pending space. */
  private pieceLength = 0;
  /** UTF-16 code units of the collapsed piece so far, without a pending space (what the limit counts). */
  private pieceUnits = 0;
  /**
   * Offset from the start of the piece (`committed` + `held`) of the last whitespace that follows some of the
   * piece's text, where a cut at the limit falls; -1 when there is none.
   */
  private lastBreak = -1;
  private spacePending = false;
  /** See BoundaryContext.sentenceContentStart. */
  private sentenceContentStart = -1;
  private readonly memo: LookaheadMemo = { runEnd: -1, scan: -1 };

  constructor(
    private readonly rule: BoundaryRule,
    private readonly maxLength: number,
  ) {}

  push(delta: string): string[] {
    if (delta.length === 0) return [];
    this.held += delta;
    return this.advance(false);
  }

  flush(): string[] {
    const pieces = this.advance(true);
    this.release(pieces, this.held.length, true);
    return pieces;
  }

  private advance(final: boolean): string[] {
    const pieces: string[] = [];
    while (this.index < this.held.length) {
      const held = this.held;
      const at = this.index;
      const codePoint = codePointAt(held, at, final);
      if (codePoint < 0) break;

      if (CLAUSE_COMMAS.has(codePoint)) {
        if (at + 1 >= held.length && !final) break;
        const clauseLength = this.pieceLength + (this.spacePending ? 1 : 0) + 1;
        if (
          at + 1 < held.length &&
          isWhitespace(held.charCodeAt(at + 1)) &&
          clauseLength >= CLAUSE_MIN_LENGTH
        ) {
          if (this.consume(codePoint, at)) this.release(pieces, at + 1, false);
          else this.cutAtLimit(pieces);
          continue;
        }
      } else if (this.rule.isCandidate(codePoint)) {
        const decision = this.rule.decide({
          text: held,
          at,
          final,
          sentenceContentStart: this.sentenceContentStart,
          memo: this.memo,
        });
        if (decision.kind === 'wait') break;
        this.memo.runEnd = -1;
        this.memo.scan = -1;
        const fits = this.consumeUntil(decision.kind === 'end' ? decision.at : decision.next);
        if (!fits) this.cutAtLimit(pieces);
        else if (decision.kind === 'end') this.release(pieces, decision.at, true);
        continue;
      }
      if (!this.consume(codePoint, at)) {
        this.cutAtLimit(pieces);
        continue;
      }
      this.index = at + charLength(codePoint);
    }
    this.compact();
    return pieces;
  }

  /**
   * Counts the character at `held[at]` into the piece; false, counting nothing, when it would take the piece
   * past the limit (the caller then cuts with `cutAtLimit`, `index` left at that character).
   */
  private consume(codePoint: number, at: number): boolean {
    if (isWhitespace(codePoint)) {
      if (this.pieceLength > 0 && !this.spacePending) {
        this.spacePending = true;
        this.lastBreak = this.committedLength + at;
      }
      return true;
    }
    const units = charLength(codePoint);
    if (this.pieceUnits + (this.spacePending ? 1 : 0) + units > this.maxLength) {
      this.index = at;
      return false;
    }
    if (this.spacePending) {
      this.pieceLength++;
      this.pieceUnits++;
      this.spacePending = false;
    }
    this.pieceLength++;
    this.pieceUnits += units;
    if (this.sentenceContentStart === -1 && !isOpener(codePoint)) this.sentenceContentStart = at;
    return true;
  }

  /** Consumes `held` up to `next`; false when a character there does not fit (see `consume`). */
  private consumeUntil(next: number): boolean {
    let at = this.index;
    while (at < next) {
      const codePoint = this.held.codePointAt(at) ?? 0;
      if (!this.consume(codePoint, at)) return false;
      at += charLength(codePoint);
    }
    this.index = at;
    return true;
  }

  /**
   * Releases the piece at its last whitespace, or before the character at `index` that did not fit. The
   * piece holds text before that point (a lone character always fits), so every cut makes progress.
   */
  private cutAtLimit(pieces: string[]): void {
    const cut = this.lastBreak >= 0 ? this.lastBreak : this.committedLength + this.index;
    if (this.committed.length > 0) {
      this.held = this.committed.join('') + this.held;
      this.committed = [];
      this.committedLength = 0;
    }
    this.release(pieces, cut, false);
  }

  /** Ends the current piece before `held[at]`; a sentence end also starts a new sentence. */
  private release(pieces: string[], at: number, sentenceEnd: boolean): void {
    const head = this.held.slice(0, at);
    const piece = collapseWhitespace(this.committed.length === 0 ? head : this.committed.join('') + head);
    if (piece.length > 0) pieces.push(piece);
    this.committed = [];
    this.committedLength = 0;
    this.held = this.held.slice(at);
    this.index = 0;
    this.pieceLength = 0;
    this.pieceUnits = 0;
    this.lastBreak = -1;
    this.spacePending = false;
    this.sentenceContentStart = sentenceEnd ? -1 : -2;
    this.memo.runEnd = -1;
    this.memo.scan = -1;
  }

  private compact(): void {
    if (this.index <= COMPACT_AFTER) return;
    let cut = this.index - MAX_LOOKBEHIND;
    const unit = this.held.charCodeAt(cut);
    if (unit >= 0xdc00 && unit <= 0xdfff) cut--;
    this.committed.push(this.held.slice(0, cut));
    this.committedLength += cut;
    this.held = this.held.slice(cut);
    this.index -= cut;
    if (this.sentenceContentStart >= 0) {
      this.sentenceContentStart = this.sentenceContentStart < cut ? -2 : this.sentenceContentStart - cut;
    }
    if (this.memo.runEnd >= 0) this.memo.runEnd -= cut;
    if (this.memo.scan >= 0) this.memo.scan -= cut;
  }
}

/**
 * A splitter fed text deltas (a streamed reply): `push` returns each piece as soon as it is certain,
 * `flush` ends the text. The first piece of a reply is released at its first clause end. No piece is longer
 * than `maxLength` UTF-16 code units (the vendor's input limit; `Infinity` for none): a longer one is cut at
 * its last whitespace within the limit, or, in text without any, between two characters.
 */
export function createIncrementalSplitter(kind: Splitter, maxLength: number): IncrementalSplitter {
  // Two code units hold any character, so every cut makes progress.
  if (!(maxLength >= 2 && (Number.isInteger(maxLength) || maxLength === Number.POSITIVE_INFINITY))) {
    throw new RangeError(`maxLength must be an integer of at least 2, or Infinity (got ${maxLength})`);
  }
  return new PieceSplitter(RULES[kind], maxLength);
}

/**
 * Splits a whole text into the pieces sent to a vendor one by one: sentences, within them clause pieces,
 * and pieces cut to `maxLength` (see `createIncrementalSplitter`). Each piece is whitespace-collapsed, trimmed
 * and never empty.
 */
export function splitText(text: string, kind: Splitter, maxLength: number): string[] {
  const splitter = createIncrementalSplitter(kind, maxLength);
  return [...splitter.push(text), ...splitter.flush()];
}
