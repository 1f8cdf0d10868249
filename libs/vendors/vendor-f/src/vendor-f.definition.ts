import { catalogueHead, catalogueModel, catalogueOption, defineVendor } from '@router/vendors-core';

/** The vendor's BCP-47 codes (from its notes); leaving `language` out lets the vendor detect it. */
// prettier-ignore
const LANGUAGES = [
  'en', 'zh', 'fr', 'de', 'hi', 'id', 'it', 'ja', 'ko', 'pt-BR', 'pt-PT', 'ru', 'es-MX', 'es-ES', 'tr',
  'vi', 'bn', 'ar-EG', 'ar-SA', 'ar-AE',
];

/** The router's id for the vendor's one synthesis engine (the vendor names no model). */
export const VENDOR_F_MODEL = 'f_model_1';

/**
 * vendor_f: a single synthesis engine, so one model (`f_model_1`); the voice selects the speaker. Voices
 * are the vendor's built-ins plus the org's custom voices, read live.
 */
export const vendorF = defineVendor({
  id: 'vendor_f',
  catalogue: {
    ...catalogueHead('vendor_f'),
    formats: ['pcm', 'wav', 'mp3', 'mulaw', 'alaw'],
    models: [catalogueModel('vendor_f', VENDOR_F_MODEL, LANGUAGES)],
    options: [
      catalogueOption({
        name: 'optimize_streaming_latency',
        type: 'integer',
        min: 0,
        max: 2,
        description:
          'Trade quality for latency: 0 is best quality, 2 lowest latency. Null leaves it to the vendor.',
      }),
      catalogueOption({
        name: 'text_normalization',
        type: 'boolean',
        description: 'Normalize numbers, dates and abbreviations before synthesis. Vendor default false.',
      }),
      catalogueOption({
        name: 'bit_rate',
        type: 'integer',
        default: 128000,
        nullable: true,
        values: ['32000', '64000', '96000', '128000', '192000'],
        description: 'mp3 bitrate in bits per second.',
      }),
    ],
    sample_rates: [8000, 16000, 22050, 24000, 44100, 48000],
    speed: { min: 0.7, max: 1.5 },
  },
  language: 'optional',
  speedDefault: 1.0,
  optionRules: {
    bit_rate: { formats: ['mp3'] },
  },
  voices: null,
  splitter: 'standard',
  // The vendor's stated limit on `text`.
  maxInputChars: 15_000,
  unspeakable: null,
  wordTimings: false,
  finishesTakeOnInterrupt: false,
});
