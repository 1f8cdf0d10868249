import { catalogueHead, catalogueModel, catalogueOption, defineVendor } from '@router/vendors-core';

/**
 * ISO 639-1 codes. The vendor states "60+ languages" without a list and the spec leaves vendor_g's
 * catalogue entry out; this list is a plausible completion, the same for every model.
 */
// prettier-ignore
const LANGUAGES = [
  'en', 'es', 'fr', 'de', 'it', 'pt', 'nl', 'pl', 'ru', 'uk', 'cs', 'sk', 'sl', 'hr', 'sr', 'bs', 'bg',
  'ro', 'hu', 'el', 'tr', 'ar', 'he', 'fa', 'ur', 'hi', 'bn', 'pa', 'gu', 'mr', 'ta', 'te', 'kn', 'ml',
  'si', 'ne', 'th', 'vi', 'id', 'ms', 'tl', 'zh', 'ja', 'ko', 'sv', 'da', 'no', 'fi', 'is', 'et', 'lv',
  'lt', 'ga', 'cy', 'ca', 'gl', 'eu', 'sq', 'mk', 'hy', 'ka', 'az', 'kk', 'uz', 'sw', 'af', 'am',
];

/**
 * vendor_g: three realtime models (`g_model_1`, its preview `g_model_2`, and the newest `g_model_3`),
 * language required, speed 0.7 to 1.3 (default 1.0). Voices are the vendor's built-ins plus the project's
 * cloned voices (usable once ready), read live.
 */
export const vendorG = defineVendor({
  id: 'vendor_g',
  catalogue: {
    ...catalogueHead('vendor_g'),
    formats: ['pcm', 'wav', 'mp3', 'mulaw', 'alaw'],
    models: ['g_model_1', 'g_model_2', 'g_model_3'].map((id) => catalogueModel('vendor_g', id, LANGUAGES)),
    options: [
      catalogueOption({
        name: 'reduce_silence',
        type: 'boolean',
        description: 'Shorten pauses. Vendor default false.',
      }),
    ],
    sample_rates: [8000, 16000, 24000, 32000, 44100, 48000],
    speed: { min: 0.7, max: 1.3, default: 1.0 },
  },
  language: 'required',
  speedDefault: 1.0,
  voices: null,
  splitter: 'standard',
  unspeakable: null,
  wordTimings: false,
  finishesTakeOnInterrupt: false,
});
