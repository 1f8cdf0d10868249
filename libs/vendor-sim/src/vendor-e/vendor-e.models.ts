import { createHash } from 'node:crypto';
import { VENDOR_E_GENERATIONS, type VendorEGeneration, type VendorEVoiceModel } from '@router/vendor-e';

/**
 * vendor_e's voice models as its public model lists serve them. The vendor names a voice model
 * `<router model id>-<voice>-<lang>`; the router's voice id is that name with the model id removed
 * (`orla-en`). `e_model_1` and `e_model_2` are the first generation (`/v1/speak`, listed by `/v1/models`),
 * `e_model_3` the second (`/v2/speak`, listed by `/v2/models`). Voice names are invented placeholders.
 */
const ASSETS = 'https://static.vendor-e.invalid';

type Row = readonly [
  voice: string,
  lang: string,
  accent: string,
  age: string,
  gender: 'feminine' | 'masculine',
];

const ROWS: Readonly<Record<string, readonly Row[]>> = {
  e_model_1: [
    ['orla', 'en', 'American', 'Adult', 'feminine'],
    ['brannock', 'en', 'American', 'Adult', 'masculine'],
    ['cedar', 'en', 'British', 'Mature', 'masculine'],
    ['delphine', 'en', 'Irish', 'Young Adult', 'feminine'],
    ['ember', 'en', 'Australian', 'Adult', 'feminine'],
  ],
  e_model_2: [
    ['orla', 'en', 'American', 'Adult', 'feminine'],
    ['brannock', 'en', 'American', 'Adult', 'masculine'],
    ['marisol', 'es', 'Mexican', 'Adult', 'feminine'],
    ['anselm', 'de', 'German', 'Mature', 'masculine'],
    ['celeste', 'fr', 'Parisian', 'Young Adult', 'feminine'],
    ['livia', 'it', 'Italian', 'Adult', 'feminine'],
    ['haruki', 'ja', 'Japanese', 'Adult', 'masculine'],
    ['jorrit', 'nl', 'Dutch', 'Adult', 'masculine'],
  ],
  // An outdated first-generation family the vendor still lists and speaks, absent from the router's catalogue.
  e_model_0: [
    ['vesper', 'en', 'American', 'Mature', 'masculine'],
    ['orla', 'en', 'American', 'Adult', 'feminine'],
  ],
  e_model_3: [
    ['orla', 'en', 'American', 'Adult', 'feminine'],
    ['thatcher', 'en', 'American', 'Mature', 'masculine'],
    ['wren', 'en', 'Canadian', 'Young Adult', 'feminine'],
  ],
};

function stableUuid(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export const VENDOR_E_VOICE_MODELS: readonly VendorEVoiceModel[] = Object.entries(ROWS).flatMap(
  ([family, rows]) =>
    rows.map(([voice, lang, accent, age, gender]) => {
      const canonical = `${family}-${voice}-${lang}`;
      return {
        name: voice,
        canonical_name: canonical,
        architecture: family,
        languages: lang === 'en' ? ['en', 'en-US'] : [lang],
        version: VENDOR_E_GENERATIONS[family] === 'v2' ? '2026-01-01.0' : '2025-01-01.0',
        uuid: stableUuid(canonical),
        metadata: {
          accent,
          age,
          color: `#${stableUuid(voice).slice(0, 6)}`,
          image: `${ASSETS}/images/${voice}.png`,
          sample: `${ASSETS}/samples/${canonical}.wav`,
          tags: [gender, 'warm'],
          use_cases: ['IVR', 'agent'],
        },
      };
    }),
);

export function findVendorEModel(name: string): VendorEVoiceModel | undefined {
  return VENDOR_E_VOICE_MODELS.find((m) => m.canonical_name === name);
}

export function vendorEModelsOf(generation: VendorEGeneration): VendorEVoiceModel[] {
  return VENDOR_E_VOICE_MODELS.filter((m) => VENDOR_E_GENERATIONS[m.architecture] === generation);
}
