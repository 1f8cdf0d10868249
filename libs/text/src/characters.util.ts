// Character classes shared by both splitters. Each test takes a code point so the scanners never allocate
// in the common (ASCII) case.

const LETTER = /\p{L}/u;
const UPPERCASE = /[\p{Lu}\p{Lt}]/u;
const CASED_LETTER = /[\p{Lu}\p{Ll}\p{Lt}]/u;
const DECIMAL_DIGIT = /\p{Nd}/u;
const GRAPHEME_EXTEND = /\p{Grapheme_Extend}/u;
const SENTENCE_TERMINAL = /\p{Sentence_Terminal}/u;

/** Quotes and brackets that may close a sentence after its terminator: `."`, `?)`, `।”`, `。」`. */
const CLOSERS = new Set<number>(codePoints('"\')]}»›”’“‘」』）］｝】〕〉》〗〙〛＂＇'));
/** Quotes, brackets and inverted marks that may open the next sentence: `. "`, `. (`, `. ¿`. */
const OPENERS = new Set<number>(codePoints('"\'([{«‹“‘„‚「『（［｛【〔〈《〖〘〚＂＇¿¡'));

export const DANDA = 0x0964;
export const DOUBLE_DANDA = 0x0965;

function codePoints(chars: string): number[] {
  return [...chars].map((char) => char.codePointAt(0) ?? 0);
}

function test(pattern: RegExp, codePoint: number): boolean {
  return pattern.test(String.fromCodePoint(codePoint));
}

export function isLetter(codePoint: number): boolean {
  if (codePoint < 0x80) return (codePoint | 0x20) >= 0x61 && (codePoint | 0x20) <= 0x7a;
  return test(LETTER, codePoint);
}

export function isUppercaseLetter(codePoint: number): boolean {
  if (codePoint < 0x80) return codePoint >= 0x41 && codePoint <= 0x5a;
  return test(UPPERCASE, codePoint);
}

/** A letter of a script with case (Latin, Greek, Cyrillic …): only these can be initials such as `J.`. */
export function isCasedLetter(codePoint: number): boolean {
  if (codePoint < 0x80) return isLetter(codePoint);
  return test(CASED_LETTER, codePoint);
}

export function isDecimalDigit(codePoint: number): boolean {
  if (codePoint < 0x80) return codePoint >= 0x30 && codePoint <= 0x39;
  return test(DECIMAL_DIGIT, codePoint);
}

export function isGraphemeExtend(codePoint: number): boolean {
  return codePoint >= 0x80 && test(GRAPHEME_EXTEND, codePoint);
}

/** Unicode Sentence_Terminal (`.`, `?`, `!`, `।`, `。` …): the characters after which a tokenizer may end a sentence. */
export function isSentenceTerminal(codePoint: number): boolean {
  if (codePoint < 0x80) return codePoint === 0x2e || codePoint === 0x3f || codePoint === 0x21;
  return test(SENTENCE_TERMINAL, codePoint);
}

export function isDanda(codePoint: number): boolean {
  return codePoint === DANDA || codePoint === DOUBLE_DANDA;
}

export function isCloser(codePoint: number): boolean {
  return CLOSERS.has(codePoint);
}

export function isOpener(codePoint: number): boolean {
  return OPENERS.has(codePoint);
}

/** UTF-16 length of the code point starting at `index`. */
export function charLength(codePoint: number): number {
  return codePoint > 0xffff ? 2 : 1;
}

/**
 * The code point at `index`, or -1 when the text ends inside a surrogate pair and more may come: a delta can
 * end between the two halves of an emoji, and no decision may be taken on half a character.
 */
export function codePointAt(text: string, index: number, final: boolean): number {
  const unit = text.charCodeAt(index);
  if (unit >= 0xd800 && unit <= 0xdbff && index + 1 === text.length && !final) return -1;
  return text.codePointAt(index) ?? -1;
}
