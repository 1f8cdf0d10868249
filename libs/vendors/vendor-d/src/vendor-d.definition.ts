import { catalogueHead, catalogueModel, catalogueOption, defineVendor } from '@router/vendors-core';
import { VENDOR_D_MODEL_IDS, VENDOR_D_VOICE_IDS, VENDOR_D_VOICES } from './vendor-d.voices';

/**
 * The vendor takes no language setting and publishes no list; it detects the language from the text.
 * The codes are a plausible completion, informational only (nothing is validated against them).
 */
// prettier-ignore
const LANGUAGES = [
  'af', 'ar', 'hy', 'az', 'be', 'bs', 'bg', 'ca', 'zh', 'hr', 'cs', 'da', 'nl', 'en', 'et', 'fi', 'fr',
  'gl', 'de', 'el', 'he', 'hi', 'hu', 'is', 'id', 'it', 'ja', 'kn', 'kk', 'ko', 'lv', 'lt', 'mk', 'ms',
  'mr', 'mi', 'ne', 'no', 'fa', 'pl', 'pt', 'ro', 'ru', 'sr', 'sk', 'sl', 'es', 'sw', 'sv', 'tl', 'ta',
  'th', 'tr', 'uk', 'ur', 'vi', 'cy',
];

/**
 * vendor_d: four models. `d_model_1` and `d_model_2` are the older pair (the vendor ignores `instructions`
 * there, so the router drops it); `d_model_3` and `d_model_4` (a dated snapshot) take `instructions`.
 * Audio is 24000 Hz only; no language setting.
 */
export const vendorD = defineVendor({
  id: 'vendor_d',
  catalogue: {
    ...catalogueHead('vendor_d'),
    formats: ['pcm', 'wav', 'mp3', 'aac'],
    models: VENDOR_D_MODEL_IDS.map((id) => catalogueModel('vendor_d', id, LANGUAGES, VENDOR_D_VOICE_IDS)),
    options: [
      catalogueOption({
        name: 'instructions',
        type: 'string',
        models: ['d_model_3', 'd_model_4'],
        description: 'How to speak: tone, accent, emotion, pace. Ignored by the two older models.',
      }),
    ],
    sample_rates: [24000],
    speed: { min: 0.25, max: 4.0 },
  },
  language: 'none',
  speedDefault: 1.0,
  optionRules: {
    instructions: { outsideModels: 'ignore' },
  },
  voices: VENDOR_D_VOICES,
  splitter: 'standard',
  // The vendor's stated limit on `input`.
  maxInputChars: 4096,
  unspeakable: null,
  wordTimings: false,
  finishesTakeOnInterrupt: false,
});
