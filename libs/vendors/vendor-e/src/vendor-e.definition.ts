import { catalogueHead, catalogueModel, catalogueOption, defineVendor } from '@router/vendors-core';

/**
 * vendor_e: models named by tier. `e_model_1` and `e_model_2` are the first generation's two tiers
 * (`/v1/speak`; the second tier multilingual), `e_model_3` the streaming-first second generation
 * (`/v2/speak`, English only). Voices come from the vendor's public model lists; a voice id is the vendor's
 * voice name with the model id removed. No language setting: the voice decides it.
 */
export const vendorE = defineVendor({
  id: 'vendor_e',
  catalogue: {
    ...catalogueHead('vendor_e'),
    formats: ['pcm', 'wav', 'mulaw', 'alaw', 'mp3'],
    models: [
      catalogueModel('vendor_e', 'e_model_1', ['en']),
      catalogueModel('vendor_e', 'e_model_2', ['en', 'es', 'de', 'fr', 'it', 'ja', 'nl']),
      catalogueModel('vendor_e', 'e_model_3', ['en']),
    ],
    options: [
      catalogueOption({
        name: 'mip_opt_out',
        type: 'boolean',
        default: false,
        description: "Opt the request out of the vendor's model improvement program.",
      }),
      catalogueOption({
        name: 'bit_rate',
        type: 'integer',
        default: 48000,
        nullable: true,
        values: ['32000', '48000'],
        models: ['e_model_1', 'e_model_2'],
        description: 'mp3 bitrate in bits per second.',
      }),
    ],
    sample_rates: [8000, 16000, 22050, 24000, 32000, 44100, 48000],
    speed: { min: 0.7, max: 1.5 },
  },
  language: 'none',
  speedDefault: 1.0,
  optionRules: {
    bit_rate: { formats: ['mp3'] },
  },
  modelTraits: {
    e_model_1: { apiVersion: 'v1' },
    e_model_2: { apiVersion: 'v1' },
    e_model_3: { apiVersion: 'v2' },
  },
  voices: null,
  splitter: 'standard',
  // The vendor's stated limit for its v1 models (about 2000); the v2 models get the same, so pieces do not
  // depend on the model.
  maxInputChars: 2000,
  unspeakable: null,
  wordTimings: false,
  finishesTakeOnInterrupt: false,
});
