import { catalogueHead, catalogueModel, defineVendor } from '@router/vendors-core';

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
export const vendorH = defineVendor({
  id: 'vendor_h',
  catalogue: {
    ...catalogueHead('vendor_h'),
    formats: ['pcm', 'wav'],
    models: [
      catalogueModel('vendor_h', 'h_model_1', BASE_LANGUAGES),
      catalogueModel('vendor_h', 'h_model_2', PRO_LANGUAGES),
    ],
    options: [],
    sample_rates: [8000, 16000, 24000, 44100],
    speed: { min: 0.5, max: 2.0, default: 1.0 },
  },
  language: 'optional-default-en',
  speedDefault: 1.0,
  voices: null,
  splitter: 'standard',
  unspeakable: 'no-letter-or-digit',
  wordTimings: true,
  finishesTakeOnInterrupt: false,
});
