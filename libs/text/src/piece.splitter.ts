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
 */
class PieceSplitter implements IncrementalSplitter {
  /** Scanned text of the current piece that no decision will read again. */
  private committed: string[] = [];
  /** The rest of the current piece, plus everything not scanned yet. */
  private held = '';
  /** Next index of `held` to scan. */
  private index = 0;
  /** Code points of the collapsed piece so far, without a pending space. */
  private pieceLength = 0;
  private spacePending = false;
  /** See BoundaryContext.sentenceContentStart. */
  private sentenceContentStart = -1;
  private readonly memo: LookaheadMemo = { runEnd: -1, scan: -1 };

  constructor(private readonly rule: BoundaryRule) {}

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
          this.release(pieces, at + 1, false);
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
        if (decision.kind === 'end') {
          this.release(pieces, decision.at, true);
        } else {
          this.consumeUntil(decision.next);
        }
        continue;
      }
      this.consume(codePoint, at);
      this.index = at + charLength(codePoint);
    }
    this.compact();
    return pieces;
  }

  private consume(codePoint: number, at: number): void {
    if (isWhitespace(codePoint)) {
      if (this.pieceLength > 0) this.spacePending = true;
      return;
    }
    if (this.spacePending) {
      this.pieceLength++;
      this.spacePending = false;
    }
    this.pieceLength++;
    if (this.sentenceContentStart === -1 && !isOpener(codePoint)) this.sentenceContentStart = at;
  }

  private consumeUntil(next: number): void {
    let at = this.index;
    while (at < next) {
      const codePoint = this.held.codePointAt(at) ?? 0;
      this.consume(codePoint, at);
      at += charLength(codePoint);
    }
    this.index = at;
  }

  /** Ends the current piece before `held[at]`; a sentence end also starts a new sentence. */
  private release(pieces: string[], at: number, sentenceEnd: boolean): void {
    const head = this.held.slice(0, at);
    const piece = collapseWhitespace(this.committed.length === 0 ? head : this.committed.join('') + head);
    if (piece.length > 0) pieces.push(piece);
    this.committed = [];
    this.held = this.held.slice(at);
    this.index = 0;
    this.pieceLength = 0;
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
 * `flush` ends the text. The first piece of a reply is released at its first clause end.
 */
export function createIncrementalSplitter(kind: Splitter): IncrementalSplitter {
  return new PieceSplitter(RULES[kind]);
}

/**
 * Splits a whole text into the pieces sent to a vendor one by one: sentences, and within them clause pieces.
 * Each piece is whitespace-collapsed, trimmed and never empty.
 */
export function splitText(text: string, kind: Splitter): string[] {
  const splitter = createIncrementalSplitter(kind);
  return [...splitter.push(text), ...splitter.flush()];
}
