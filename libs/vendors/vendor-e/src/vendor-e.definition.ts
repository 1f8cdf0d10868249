import { defineVendor, type VendorDefinition } from '@router/vendors-core';

const DOCS = 'https://docs.vendor-e.invalid';
const VOICES_URL = `${DOCS}/voices`;

/**
 * vendor_e: models named by tier. `e_model_1` and `e_model_2` are the first generation's two tiers
 * (`/v1/speak`; the second tier multilingual), `e_model_3` the streaming-first second generation
 * (`/v2/speak`, English only). Voices come from the vendor's public model lists; a voice id is the vendor's
 * voice name with the model id removed. No language setting: the voice decides it.
 */
export const vendorE: VendorDefinition = defineVendor({
  id: 'vendor_e',
  catalogue: {
    id: 'vendor_e',
    name: 'Vendor E',
    docs_url: `${DOCS}/text-to-speech`,
    formats: ['pcm', 'wav', 'mulaw', 'alaw', 'mp3'],
    models: [
      { id: 'e_model_1', languages: ['en'], voices: null, voices_url: VOICES_URL },
      {
        id: 'e_model_2',
        languages: ['en', 'es', 'de', 'fr', 'it', 'ja', 'nl'],
        voices: null,
        voices_url: VOICES_URL,
      },
      { id: 'e_model_3', languages: ['en'], voices: null, voices_url: VOICES_URL },
    ],
    options: [
      {
        name: 'mip_opt_out',
        type: 'boolean',
        default: false,
        nullable: false,
        min: null,
        max: null,
        values: null,
        models: null,
        description: "Opt the request out of the vendor's model improvement program.",
      },
      {
        name: 'bit_rate',
        type: 'integer',
        default: 48000,
        nullable: true,
        min: null,
        max: null,
        values: ['32000', '48000'],
        models: ['e_model_1', 'e_model_2'],
        description: 'mp3 bitrate in bits per second.',
      },
    ],
    sample_rates: [8000, 16000, 22050, 24000, 32000, 44100, 48000],
    speech_sample_rates: [8000, 16000, 22050, 24000, 32000, 44100, 48000],
    speed: { min: 0.7, max: 1.5 },
  },
  language: 'none',
  speedDefault: 1.0,
  formatRules: {},
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
