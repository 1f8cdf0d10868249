import type { UnspeakableRule } from './text.types';

const LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;
const NEITHER_PUNCTUATION_NOR_SPACE = /[^\p{P}\p{White_Space}]/u;
const NOT_SPACE = /\P{White_Space}/u;

/**
 * Whether a vendor can speak a piece (spec: "Never cached", point 3); an unspeakable piece is skipped, not
 * failed. `no-letter-or-digit` (vendor_a, vendor_h): it needs a letter or a number (`\p{L}`, `\p{N}`, so
 * Devanagari digits count); `punctuation-only` (vendor_b): anything but punctuation (`\p{P}`) and whitespace,
 * so symbols and emoji count; null: anything but whitespace.
 */
export function isSpeakable(piece: string, rule: UnspeakableRule): boolean {
  switch (rule) {
    case 'no-letter-or-digit':
      return LETTER_OR_NUMBER.test(piece);
    case 'punctuation-only':
      return NEITHER_PUNCTUATION_NOR_SPACE.test(piece);
    case null:
      return NOT_SPACE.test(piece);
  }
}
