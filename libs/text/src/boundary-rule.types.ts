/**
 * What a boundary rule says about one candidate character (a possible sentence end) at `context.at`:
 * - `wait`: the text so far cannot settle it; ask again when more text has arrived (never when `final`);
 * - `continue`: no sentence ends here; resume scanning at `next` (> at), past the run the rule examined;
 * - `end`: the sentence ends just before index `at` (> context.at); the next sentence starts there.
 */
export type BoundaryDecision =
  | { readonly kind: 'wait' }
  | { readonly kind: 'continue'; readonly next: number }
  | { readonly kind: 'end'; readonly at: number };

/**
 * Progress a rule keeps while it waits on one candidate, so a long run of spaces or digits arriving one
 * character at a time is scanned once, not once per delta. Reset by the splitter for every new candidate.
 */
export interface LookaheadMemo {
  /** End of the run of terminators and closers, or -1 while unknown. */
  runEnd: number;
  /** Where the pending forward scan resumes, or -1 before it started. */
  scan: number;
}

export interface BoundaryContext {
  /** The held text: it starts at the current piece's start (or up to a compaction point well before `at`). */
  readonly text: string;
  /** Index of the candidate character in `text`. */
  readonly at: number;
  /** No more text will come: undecided lookahead is the end of the text. */
  readonly final: boolean;
  /**
   * Index in `text` of the first character of the current sentence that is neither whitespace nor an opening
   * quote or bracket; -1 when the sentence has no such character yet; -2 when it lies before `text`.
   */
  readonly sentenceContentStart: number;
  readonly memo: LookaheadMemo;
}

/**
 * One splitter's sentence-end logic. A decision may read `text` only up to where it is certain (the characters
 * it needs are present, or `final`), so that any chunking of the input reaches the same decisions.
 */
export interface BoundaryRule {
  isCandidate(codePoint: number): boolean;
  decide(context: BoundaryContext): BoundaryDecision;
}

/**
 * How far back a rule may read before its candidate. The splitter keeps at least this much of the held text
 * when it compacts a long piece, so a rule never sees where the compaction cut (which depends on chunking).
 */
export const MAX_LOOKBEHIND = 64;
