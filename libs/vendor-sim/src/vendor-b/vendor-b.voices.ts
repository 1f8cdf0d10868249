import { VENDOR_B_LANGUAGES, type VendorBVoice } from '@router/vendor-b';

/**
 * vendor_b's voice list as its `/v1/voices` serves it (unpaged). Each voice belongs to one model: `b_model_1`
 * has one female and one male voice per language, `b_model_2` a few multilingual voices that speak every
 * language, and two voices belong to a `b_model_3` the vendor lists before it synthesizes with it (so the
 * router must leave them out). Names are invented placeholders.
 */
const FEMALE = [
  'Ilvara',
  'Meshka',
  'Tavini',
  'Korali',
  'Benya',
  'Asmira',
  'Gunvi',
  'Nepali',
  'Malvika',
  'Tamsi',
  'Elvina',
  'Emberly',
];
const MALE = [
  'Harvik',
  'Marun',
  'Tejvar',
  'Kavesh',
  'Borun',
  'Aronak',
  'Girvan',
  'Navesh',
  'Malvor',
  'Tarvesh',
  'Enrik',
  'Ethan',
];

function voiceKey(language: string): string {
  return language.replace('-', '_');
}

export const VENDOR_B_VOICES: readonly VendorBVoice[] = [
  ...VENDOR_B_LANGUAGES.flatMap((language, i) => [
    {
      voice_id: `b_voice_${voiceKey(language)}_f1`,
      name: FEMALE[i] ?? `Female ${language}`,
      language,
      languages: [language],
      gender: 'female' as const,
      model: 'b_model_1',
    },
    {
      voice_id: `b_voice_${voiceKey(language)}_m1`,
      name: MALE[i] ?? `Male ${language}`,
      language,
      languages: [language],
      gender: 'male' as const,
      model: 'b_model_1',
    },
  ]),
  ...(
    [
      ['b2_voice_f1', 'Saravi', 'female', 'hi'],
      ['b2_voice_f2', 'Lumira', 'female', 'en-in'],
      ['b2_voice_m1', 'Dhruven', 'male', 'hi'],
      ['b2_voice_m2', 'Corvan', 'male', 'en-us'],
    ] as const
  ).map(([voice_id, name, gender, language]) => ({
    voice_id,
    name,
    language,
    languages: [...VENDOR_B_LANGUAGES],
    gender,
    model: 'b_model_2',
  })),
  // Listed ahead of its model's launch: the vendor does not synthesize `b_model_3` yet (it accepts two models).
  ...(
    [
      ['b3_voice_f1', 'Aravelle', 'female', 'hi'],
      ['b3_voice_m1', 'Torvane', 'male', 'en-us'],
    ] as const
  ).map(([voice_id, name, gender, language]) => ({
    voice_id,
    name,
    language,
    languages: [language],
    gender,
    model: 'b_model_3',
  })),
];

export function findVendorBVoice(id: string): VendorBVoice | undefined {
  return VENDOR_B_VOICES.find((v) => v.voice_id === id);
}
