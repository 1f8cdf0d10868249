import { catalogueHead, catalogueModel, catalogueOption, defineVendor } from '@router/vendors-core';
import { VENDOR_I_LANGUAGES } from './wire/vendor-i.requests';

/**
 * vendor_i: two model generations (`i_model_1`, and the newer `i_model_2`), voices read live, language
 * defaulting to `en`, an optional speed (left out, none is sent). mp3 exists only on the vendor's one-shot
 * endpoint (its streaming endpoints take raw audio only), and word timings are not available with mp3.
 */
export const vendorI = defineVendor({
  id: 'vendor_i',
  catalogue: {
    ...catalogueHead('vendor_i'),
    formats: ['pcm', 'wav', 'mp3', 'mulaw', 'alaw'],
    models: ['i_model_1', 'i_model_2'].map((id) => catalogueModel('vendor_i', id, VENDOR_I_LANGUAGES)),
    options: [
      catalogueOption({
        name: 'volume',
        type: 'number',
        min: 0.5,
        max: 2.0,
        description: 'Volume multiplier. Vendor default 1.0.',
      }),
      catalogueOption({
        name: 'emotion',
        type: 'string',
        description: 'Delivery guide, in English (e.g. calm, happy).',
      }),
      catalogueOption({
        name: 'pronunciation_dict_id',
        type: 'string',
        description: 'Pronunciation dictionary id stored at the vendor. Cached by id, not by content.',
      }),
      catalogueOption({
        name: 'word_timestamps',
        type: 'boolean',
        default: true,
        description: 'Word timings: /v1/stream sends them as words messages. Not available with mp3.',
      }),
    ],
    sample_rates: [8000, 16000, 22050, 24000, 44100, 48000],
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
  voices: null,
  splitter: 'standard',
  unspeakable: null,
  wordTimings: true,
  finishesTakeOnInterrupt: true,
});
