import { defineVendor, type ModelCatalogue, type VendorDefinition } from '@router/vendors-core';
import { VENDOR_I_LANGUAGES } from './wire/vendor-i.requests';

const DOCS = 'https://docs.vendor-i.invalid';

function model(id: string): ModelCatalogue {
  return { id, languages: [...VENDOR_I_LANGUAGES], voices: null, voices_url: `${DOCS}/voices` };
}

/**
 * vendor_i: two model generations (`i_model_1`, and the newer `i_model_2`), voices read live, language
 * defaulting to `en`, an optional speed (left out, none is sent). mp3 exists only on the vendor's one-shot
 * endpoint (its streaming endpoints take raw audio only), and word timings are not available with mp3.
 */
export const vendorI: VendorDefinition = defineVendor({
  id: 'vendor_i',
  catalogue: {
    id: 'vendor_i',
    name: 'Vendor I',
    docs_url: `${DOCS}/text-to-speech`,
    formats: ['pcm', 'wav', 'mp3', 'mulaw', 'alaw'],
    models: [model('i_model_1'), model('i_model_2')],
    options: [
      {
        name: 'volume',
        type: 'number',
        default: null,
        nullable: true,
        min: 0.5,
        max: 2.0,
        values: null,
        models: null,
        description: 'Volume multiplier. Vendor default 1.0.',
      },
      {
        name: 'emotion',
        type: 'string',
        default: null,
        nullable: true,
        min: null,
        max: null,
        values: null,
        models: null,
        description: 'Delivery guide, in English (e.g. calm, happy).',
      },
      {
        name: 'pronunciation_dict_id',
        type: 'string',
        default: null,
        nullable: true,
        min: null,
        max: null,
        values: null,
        models: null,
        description: 'Pronunciation dictionary id stored at the vendor. Cached by id, not by content.',
      },
      {
        name: 'word_timestamps',
        type: 'boolean',
        default: true,
        nullable: false,
        min: null,
        max: null,
        values: null,
        models: null,
        description: 'Word timings: /v1/stream sends them as words messages. Not available with mp3.',
      },
    ],
    sample_rates: [8000, 16000, 22050, 24000, 44100, 48000],
    speech_sample_rates: [8000, 16000, 22050, 24000, 44100, 48000],
    speed: { min: 0.6, max: 1.5 },
  },
  language: 'optional-default-en',
  speedDefault: null,
  formatRules: {
    mp3: { restOnly: true },
  },
  optionRules: {
    word_timestamps: { formats: ['pcm', 'wav', 'mulaw', 'alaw'] },
  },
  modelTraits: {},
  voices: null,
  splitter: 'standard',
  // The vendor states no input limit: 2000, the smallest any vendor states (vendor_e's), is safe whatever it is.
  maxInputChars: 2000,
  unspeakable: null,
  wordTimings: true,
  finishesTakeOnInterrupt: true,
});
