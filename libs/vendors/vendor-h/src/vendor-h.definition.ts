import { defineVendor, type VendorDefinition } from '@router/vendors-core';

const DOCS = 'https://docs.vendor-h.invalid';

/** The vendor's codes for its base model; the pro model adds more. `auto` is left to omission. */
// prettier-ignore
const BASE_LANGUAGES = [
  'en', 'hi', 'mr', 'kn', 'ta', 'bn', 'gu', 'te', 'ml', 'pa', 'or', 'es', 'de', 'fr', 'it', 'nl', 'sv',
  'pt', 'ru',
];
// prettier-ignore
const PRO_LANGUAGES = [
  ...BASE_LANGUAGES, 'el', 'fi', 'no', 'pl', 'ar', 'zh', 'id', 'ja', 'ko', 'ms', 'tr', 'vi',
];

/**
 * vendor_h: two models with separate voice lists, read live (`get_voices` per model). Audio is always
 * 16-bit PCM at the requested rate, so the router offers `pcm` and `wav` (the same samples behind a
 * streaming header) and nothing that would need re-encoding. Language defaults to `en`. The spec's options
 * table has no vendor_h row, so it has no options.
 */
export const vendorH: VendorDefinition = defineVendor({
  id: 'vendor_h',
  catalogue: {
    id: 'vendor_h',
    name: 'Vendor H',
    docs_url: `${DOCS}/text-to-speech`,
    formats: ['pcm', 'wav'],
    models: [
      { id: 'h_model_1', languages: [...BASE_LANGUAGES], voices: null, voices_url: `${DOCS}/voices` },
      { id: 'h_model_2', languages: [...PRO_LANGUAGES], voices: null, voices_url: `${DOCS}/voices` },
    ],
    options: [],
    sample_rates: [8000, 16000, 24000, 44100],
    speech_sample_rates: [8000, 16000, 24000, 44100],
    speed: { min: 0.5, max: 2.0, default: 1.0 },
  },
  language: 'optional-default-en',
  speedDefault: 1.0,
  formatRules: {},
  optionRules: {},
  modelTraits: {},
  voices: null,
  splitter: 'standard',
  // The vendor states no input limit: 2000, the smallest any vendor states (vendor_e's), is safe whatever it is.
  maxInputChars: 2000,
  unspeakable: 'no-letter-or-digit',
  wordTimings: true,
  finishesTakeOnInterrupt: false,
});
