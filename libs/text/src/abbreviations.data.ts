// Abbreviation lists of the router's own splitter (lowercase, without the final period). They are heuristics
// for text a voice agent speaks; each list says what its members do after a single `.` followed by a space.

/**
 * Never the end of a sentence: titles and words that always lead into more text (`Dr. Smith`, `e.g. apples`,
 * `vs. them`). Also Hindi `डॉ.` (doctor) and `प्रो.` (professor).
 */
export const NEVER_END = new Set<string>([
  'mr',
  'mrs',
  'ms',
  'mx',
  'messrs',
  'dr',
  'prof',
  'rev',
  'fr',
  'hon',
  'st',
  'mt',
  'gen',
  'col',
  'capt',
  'cmdr',
  'adm',
  'lt',
  'sgt',
  'maj',
  'gov',
  'sen',
  'rep',
  'pres',
  'supt',
  'insp',
  'dept',
  'univ',
  'e.g',
  'i.e',
  'cf',
  'viz',
  'vs',
  'approx',
  'incl',
  'esp',
  'डॉ',
  'प्रो',
]);

/**
 * Not an end when a number follows (`No. 5`, `Rs. 500`, `Jan. 5`), an end otherwise (`The answer is no. We`):
 * unlike a plain word, the sentence is held until the next word shows which.
 */
export const BEFORE_NUMBER = new Set<string>([
  'no',
  'nos',
  'nr',
  'pp',
  'vol',
  'vols',
  'fig',
  'figs',
  'ch',
  'chap',
  'sec',
  'art',
  'para',
  'op',
  'tel',
  'ext',
  'apt',
  'rm',
  'ca',
  'rs',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
]);

/**
 * Abbreviations that often end a sentence too (`at 5 p.m.`, `and so on, etc.`): an end only when the next
 * word starts with a capital letter. Not before a script without case, because code-mixed Hindi puts
 * postpositions there (`5 p.m. पर`). Dotted acronyms (`Ph.D.`, `a.m.`) join them; dotted capital initials
 * (`J.K.`, `U.S.`) are initials and never end a sentence.
 */
export const MAYBE_END = new Set<string>([
  'etc',
  'al',
  'inc',
  'ltd',
  'co',
  'corp',
  'llc',
  'plc',
  'jr',
  'sr',
  'esq',
  'bros',
  'ft',
  'hrs',
  'mins',
  'secs',
  'am',
  'pm',
]);

/** Letters joined by periods: `U.S`, `a.m`, `Ph.D`, `U.S.A` (the final period is not part of the token). */
export const DOTTED_ACRONYM = /^\p{L}{1,2}(?:\.\p{L}{1,2})+$/u;
