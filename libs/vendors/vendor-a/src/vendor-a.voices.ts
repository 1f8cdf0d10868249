import type { CatalogueVoice, VoiceGender } from '@router/vendors-core';

/**
 * vendor_a publishes no voice list endpoint, so its voices are router catalogue data (spec: Voice,
 * "Voices come from"). The names are invented placeholders in the vendor's style (lowercase first names);
 * the spec fixes only the counts: 37 speakers of `a_model_1`, with gender, and personas of `a_model_2`.
 */
export const VENDOR_A_LANGUAGES = [
  'bn-IN',
  'en-IN',
  'gu-IN',
  'hi-IN',
  'kn-IN',
  'ml-IN',
  'mr-IN',
  'od-IN',
  'pa-IN',
  'ta-IN',
  'te-IN',
] as const;

const A_MODEL_1_SPEAKERS: readonly (readonly [string, VoiceGender])[] = [
  ['aarila', 'female'],
  ['arvano', 'male'],
  ['belvika', 'female'],
  ['belmak', 'male'],
  ['chesni', 'female'],
  ['chandrel', 'male'],
  ['darvina', 'female'],
  ['davrik', 'male'],
  ['eshvi', 'female'],
  ['ervanth', 'male'],
  ['falini', 'female'],
  ['farvin', 'male'],
  ['gauvira', 'female'],
  ['garunesh', 'male'],
  ['harsila', 'female'],
  ['helvant', 'male'],
  ['ilvani', 'female'],
  ['indrav', 'male'],
  ['jasvela', 'female'],
  ['jorvesh', 'male'],
  ['kiravi', 'female'],
  ['kalvind', 'male'],
  ['lunesha', 'female'],
  ['lorvan', 'male'],
  ['mervani', 'female'],
  ['madhvel', 'male'],
  ['nivela', 'female'],
  ['norvik', 'male'],
  ['orvika', 'female'],
  ['orvand', 'male'],
  ['parvesha', 'female'],
  ['pravel', 'male'],
  ['quenali', 'female'],
  ['ravelin', 'male'],
  ['risvana', 'female'],
  ['sorvesh', 'male'],
  ['tesvari', 'female'],
];

/** `a_model_2` personas, each recorded in one language (which is what its `languages` lists). */
const A_MODEL_2_PERSONAS: readonly (readonly [string, VoiceGender, string])[] = [
  ['vanshira', 'female', 'hi-IN'],
  ['torvesh', 'male', 'bn-IN'],
  ['ilmathi', 'female', 'ta-IN'],
  ['kirvand', 'male', 'te-IN'],
  ['surveni', 'female', 'kn-IN'],
  ['anvelin', 'male', 'ml-IN'],
  ['yashvira', 'female', 'mr-IN'],
  ['dhorvik', 'male', 'gu-IN'],
  ['jasmerin', 'female', 'pa-IN'],
  ['prabhvel', 'male', 'od-IN'],
  ['meravi', 'female', 'en-IN'],
];

/** Display name: the id with its first letter capitalised, as the vendor's own clients show speakers. */
function displayName(id: string): string {
  return id.charAt(0).toUpperCase() + id.slice(1);
}

export const VENDOR_A_VOICES: readonly CatalogueVoice[] = [
  ...A_MODEL_1_SPEAKERS.map(([id, gender]) => ({
    id,
    name: displayName(id),
    gender,
    languages: [...VENDOR_A_LANGUAGES],
    models: ['a_model_1'],
  })),
  ...A_MODEL_2_PERSONAS.map(([id, gender, language]) => ({
    id,
    name: displayName(id),
    gender,
    languages: [language],
    models: ['a_model_2'],
  })),
];

export const A_MODEL_1_VOICE_IDS: readonly string[] = A_MODEL_1_SPEAKERS.map(([id]) => id);
