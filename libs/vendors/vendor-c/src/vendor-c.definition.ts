import { catalogueHead, catalogueModel, catalogueOption, defineVendor } from '@router/vendors-core';
import {
  DIALOGUE_LANGUAGES,
  ENGLISH_ONLY,
  MULTILINGUAL_29,
  MULTILINGUAL_32,
  MULTILINGUAL_V1,
} from './vendor-c.languages';

/**
 * vendor_c: nine models, of which the last two (`c_model_8`, `c_model_9`) are dialogue models. Speed is
 * not top-level (it lives in `voice_settings.speed`), voices come from the org's account, mp3 exists only
 * at 22050, 24000 and 44100 Hz with a bitrate fixed by the rate below 44100, and G.711 only at 8000 Hz.
 */
export const vendorC = defineVendor({
  id: 'vendor_c',
  catalogue: {
    ...catalogueHead('vendor_c'),
    formats: ['pcm', 'wav', 'mp3', 'mulaw', 'alaw'],
    models: [
      catalogueModel('vendor_c', 'c_model_1', ENGLISH_ONLY),
      catalogueModel('vendor_c', 'c_model_2', MULTILINGUAL_V1),
      catalogueModel('vendor_c', 'c_model_3', MULTILINGUAL_29),
      catalogueModel('vendor_c', 'c_model_4', ENGLISH_ONLY),
      catalogueModel('vendor_c', 'c_model_5', MULTILINGUAL_32),
      catalogueModel('vendor_c', 'c_model_6', ENGLISH_ONLY),
      catalogueModel('vendor_c', 'c_model_7', MULTILINGUAL_32),
      catalogueModel('vendor_c', 'c_model_8', DIALOGUE_LANGUAGES),
      catalogueModel('vendor_c', 'c_model_9', DIALOGUE_LANGUAGES),
    ],
    options: [
      catalogueOption({
        name: 'voice_settings',
        type: 'object',
        description:
          'stability and similarity_boost (0 to 1, both required), optional style (0 to 1), speed (0.7 to 1.2) ' +
          "and use_speaker_boost. Null means the voice's stored settings. Dialogue models use stability only.",
      }),
      catalogueOption({
        name: 'apply_text_normalization',
        type: 'string',
        default: 'auto',
        values: ['auto', 'on', 'off'],
        description: 'Text normalization (numbers, dates, abbreviations spelled out).',
      }),
      catalogueOption({
        name: 'apply_language_text_normalization',
        type: 'boolean',
        description: 'Japanese text normalization. Adds latency.',
      }),
      catalogueOption({
        name: 'enable_ssml_parsing',
        type: 'boolean',
        default: false,
        description: 'Parse SSML tags in the text.',
      }),
      catalogueOption({
        name: 'enable_logging',
        type: 'boolean',
        default: true,
        description: 'Vendor-side request logging. False selects the zero-retention mode.',
      }),
      catalogueOption({
        name: 'pronunciation_dictionary_locators',
        type: 'array',
        description:
          'Up to 3 pronunciation dictionaries, each {pronunciation_dictionary_id, version_id}. A dictionary ' +
          'named without a version is re-read about once a minute.',
      }),
      catalogueOption({
        name: 'bitrate',
        type: 'string',
        default: '128k',
        nullable: true,
        values: ['32k', '48k', '64k', '96k', '128k', '192k'],
        description: 'mp3 bitrate: 32k at 22050 Hz, 48k at 24000 Hz, 32k to 192k at 44100 Hz (default 128k).',
      }),
      catalogueOption({
        name: 'sync_alignment',
        type: 'boolean',
        default: true,
        description: 'Word timings: /v1/stream sends them as words messages.',
      }),
      catalogueOption({
        name: 'preferred_alignment',
        type: 'string',
        values: ['normalized', 'original'],
        description:
          'Which text the word timings follow. Null means original for Japanese, Korean and Chinese, else normalized.',
      }),
    ],
    sample_rates: [8000, 16000, 22050, 24000, 32000, 44100, 48000],
    speed: null,
  },
  language: 'optional',
  speedDefault: null,
  formatRules: {
    mp3: { sampleRates: [22050, 24000, 44100] },
    mulaw: { sampleRates: [8000], defaultSampleRate: 8000 },
    alaw: { sampleRates: [8000], defaultSampleRate: 8000 },
  },
  optionRules: {
    voice_settings: {
      fields: [
        { name: 'stability', type: 'number', required: true, nullable: false, min: 0, max: 1 },
        { name: 'similarity_boost', type: 'number', required: true, nullable: false, min: 0, max: 1 },
        { name: 'style', type: 'number', required: false, nullable: false, min: 0, max: 1 },
        { name: 'speed', type: 'number', required: false, nullable: false, min: 0.7, max: 1.2 },
        { name: 'use_speaker_boost', type: 'boolean', required: false, nullable: false },
      ],
      dialogueFields: ['stability'],
      // The vendor takes a field left out (or null) from the voice's stored settings or the field's default;
      // the native surfaces still require both stability and similarity_boost (spec: Options).
      vendorFillsFields: true,
    },
    pronunciation_dictionary_locators: {
      maxItems: 3,
      fields: [
        { name: 'pronunciation_dictionary_id', type: 'string', required: true, nullable: false },
        // Left out (or null), the vendor uses the dictionary's latest version.
        { name: 'version_id', type: 'string', required: false, nullable: true },
      ],
    },
    bitrate: {
      formats: ['mp3'],
      valuesBySampleRate: {
        22050: ['32k'],
        24000: ['48k'],
        44100: ['32k', '64k', '96k', '128k', '192k'],
      },
      defaultBySampleRate: { 22050: '32k', 24000: '48k', 44100: '128k' },
    },
  },
  modelTraits: {
    c_model_8: { dialogue: true },
    c_model_9: { dialogue: true },
  },
  voices: null,
  splitter: 'standard',
  // No `maxInputChars`: the vendor states no input limit (it differs by model).
  unspeakable: null,
  wordTimings: true,
  finishesTakeOnInterrupt: true,
});
