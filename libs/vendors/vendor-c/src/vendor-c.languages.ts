/**
 * vendor_c's ISO 639-1 codes per model generation. The spec gives no lists; these are plausible
 * completions: English-only legacy and fast tiers, growing multilingual lists for later generations, and
 * the widest list for the dialogue generation.
 */
export const ENGLISH_ONLY = ['en'];

export const MULTILINGUAL_V1 = ['en', 'de', 'pl', 'es', 'it', 'fr', 'pt', 'hi'];

// prettier-ignore
export const MULTILINGUAL_29 = [
  'en', 'ja', 'zh', 'de', 'hi', 'fr', 'ko', 'pt', 'it', 'es', 'id', 'nl', 'tr', 'tl', 'pl',
  'sv', 'bg', 'ro', 'ar', 'cs', 'el', 'fi', 'hr', 'ms', 'sk', 'da', 'ta', 'uk', 'ru',
];

export const MULTILINGUAL_32 = [...MULTILINGUAL_29, 'hu', 'no', 'vi'];

// prettier-ignore
export const DIALOGUE_LANGUAGES = [
  ...MULTILINGUAL_32,
  'af', 'hy', 'as', 'az', 'be', 'bn', 'bs', 'ca', 'cy', 'et', 'gl', 'ka', 'gu', 'ha', 'he', 'is',
  'ga', 'jv', 'kn', 'kk', 'ky', 'lv', 'lt', 'lb', 'mk', 'ml', 'mr', 'ne', 'ps', 'fa', 'pa', 'sr',
  'sd', 'so', 'sw', 'te', 'th', 'ur', 'uz', 'lo', 'mn', 'my', 'si', 'sl', 'sq', 'am', 'km', 'yo',
];
