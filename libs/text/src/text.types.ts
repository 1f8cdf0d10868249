/**
 * Which splitter a vendor uses (spec: "Sentence splitting"): `router` is the router's own splitter
 * (vendor_a, vendor_b), `standard` the standard sentence tokenizer plus a sentence end at every danda
 * (vendor_c … vendor_j). The same union as `SentenceSplitter` in libs/vendors/core, restated here because a
 * util lib imports no other workspace lib.
 */
export type Splitter = 'router' | 'standard';

/**
 * Which pieces a vendor cannot speak, so they are skipped rather than failed (spec: "Never cached", point 3).
 * The same string union as `UnspeakableRule` in libs/vendors/core, restated here because a util lib imports
 * no other workspace lib; keep the two in step.
 */
export type UnspeakableRule = 'no-letter-or-digit' | 'punctuation-only' | null;

/**
 * Splits a reply that arrives as text deltas. Feeding a text in any chunking yields exactly the pieces of
 * `splitText` on the whole text: `push` releases a piece only once no later text can change it.
 */
export interface IncrementalSplitter {
  /** Adds a delta of any size; returns the pieces now certain to be complete, in order. */
  push(delta: string): string[];
  /**
   * Ends the input (the client's flush, the end of a reply): returns every piece still held. The splitter
   * is then empty and may be fed a new text.
   */
  flush(): string[];
}
