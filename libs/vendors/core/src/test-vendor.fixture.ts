import type { VendorDefinition } from './vendor-definition.types';

/**
 * A small, consistent definition for this lib's own specs (the real vendors live in folders that depend
 * on this lib, so its specs cannot load them). Returns a fresh mutable copy each call.
 */
export function testVendor(): VendorDefinition {
  return {
    id: 'vendor_c',
    catalogue: {
      id: 'vendor_c',
      name: 'Vendor C',
      docs_url: 'https://docs.vendor-c.invalid/text-to-speech',
      formats: ['pcm', 'wav', 'mp3', 'mulaw'],
      models: [
        {
          id: 'c_model_1',
          languages: ['en', 'de'],
          voices: ['one', 'two'],
          voices_url: 'https://docs.vendor-c.invalid/voices',
        },
        {
          id: 'c_model_2',
          languages: ['en'],
          voices: null,
          voices_url: 'https://docs.vendor-c.invalid/voices',
        },
      ],
      options: [
        {
          name: 'bitrate',
          type: 'string',
          default: '128k',
          nullable: true,
          min: null,
          max: null,
          values: ['32k', '48k', '128k'],
          models: null,
          description: 'mp3 bitrate.',
        },
        {
          name: 'tempo',
          type: 'number',
          default: 1,
          nullable: false,
          min: 0.5,
          max: 2,
          values: null,
          models: ['c_model_2'],
          description: 'A model-bound number.',
        },
        {
          name: 'rate',
          type: 'integer',
          default: 48000,
          nullable: true,
          min: null,
          max: null,
          values: ['32000', '48000'],
          models: null,
          description: 'An integer with a value list.',
        },
        {
          name: 'locators',
          type: 'array',
          default: null,
          nullable: true,
          min: null,
          max: null,
          values: null,
          models: null,
          description: 'An array of objects.',
        },
      ],
      sample_rates: [8000, 16000, 24000],
      speech_sample_rates: [8000, 16000, 24000, 44100],
      speed: { min: 0.5, max: 2, default: 1 },
    },
    language: 'optional',
    speedDefault: 1,
    formatRules: {
      mp3: { sampleRates: [24000, 44100] },
      mulaw: { sampleRates: [8000], defaultSampleRate: 8000, restOnly: true },
    },
    optionRules: {
      bitrate: {
        formats: ['mp3'],
        valuesBySampleRate: { 24000: ['48k'], 44100: ['32k', '128k'] },
        defaultBySampleRate: { 24000: '48k' },
      },
      locators: { maxItems: 3, fields: [{ name: 'id', type: 'string', required: true, nullable: false }] },
    },
    modelTraits: { c_model_2: { dialogue: true } },
    voices: [
      { id: 'one', name: 'One', gender: 'female', languages: ['en', 'de'], models: ['c_model_1'] },
      { id: 'two', name: 'Two', gender: null, languages: [], models: ['c_model_1'] },
      { id: 'three', name: 'Three', gender: 'male', languages: ['en'], models: ['c_model_2'] },
    ],
    splitter: 'standard',
    maxInputChars: 5000,
    unspeakable: null,
    wordTimings: true,
    finishesTakeOnInterrupt: true,
  };
}
