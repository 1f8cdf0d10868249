import { defineVendor, type VendorDefinition } from '@router/vendors-core';
import {
  DIALOGUE_LANGUAGES,
  ENGLISH_ONLY,
  MULTILINGUAL_29,
  MULTILINGUAL_32,
  MULTILINGUAL_V1,
} from './vendor-c.languages';

const DOCS = 'https://docs.vendor-c.invalid';
const VOICES_URL = `${DOCS}/voices`;

/**
 * vendor_c: nine models, of which the last two (`c_model_8`, `c_model_9`) are dialogue models. Speed is
 * not top-level (it lives in `voice_settings.speed`), voices come from the org's account, mp3 exists only
 * at 22050, 24000 and 44100 Hz with a bitrate fixed by the rate below 44100, and G.711 only at 8000 Hz.
 */
export const vendorC: VendorDefinition = defineVendor({
  id: 'vendor_c',
  catalogue: {
    id: 'vendor_c',
    name: 'Vendor C',
    docs_url: `${DOCS}/text-to-speech`,
    formats: ['pcm', 'wav', 'mp3', 'mulaw', 'alaw'],
    models: [
      { id: 'c_model_1', languages: [...ENGLISH_ONLY], voices: null, voices_url: VOICES_URL },
      { id: 'c_model_2', languages: [...MULTILINGUAL_V1], voices: null, voices_url: VOICES_URL },
      { id: 'c_model_3', languages: [...MULTILINGUAL_29], voices: null, voices_url: VOICES_URL },
      { id: 'c_model_4', languages: [...ENGLISH_ONLY], voices: null, voices_url: VOICES_URL },
      { id: 'c_model_5', languages: [...MULTILINGUAL_32], voices: null, voices_url: VOICES_URL },
      { id: 'c_model_6', languages: [...ENGLISH_ONLY], voices: null, voices_url: VOICES_URL },
      { id: 'c_model_7', languages: [...MULTILINGUAL_32], voices: null, voices_url: VOICES_URL },
      { id: 'c_model_8', languages: [...DIALOGUE_LANGUAGES], voices: null, voices_url: VOICES_URL },
      { id: 'c_model_9', languages: [...DIALOGUE_LANGUAGES], voices: null, voices_url: VOICES_URL },
    ],
    options: [
      {
        name: 'voice_settings',
        type: 'object',
        default: null,
        nullable: true,
        min: null,
        max: null,
        values: null,
        models: null,
        description:
          'stability and similarity_boost (0 to 1, both required), optional style (0 to 1), speed (0.7 to 1.2) ' +
          "and use_speaker_boost. Null means the voice's stored settings. Dialogue models use stability only.",
      },
      {
        name: 'apply_text_normalization',
        type: 'string',
        default: 'auto',
        nullable: false,
        min: null,
        max: null,
        values: ['auto', 'on', 'off'],
        models: null,
        description: 'Text normalization (numbers, dates, abbreviations spelled out).',
      },
      {
        name: 'apply_language_text_normalization',
        type: 'boolean',
        default: null,
        nullable: true,
        min: null,
        max: null,
        values: null,
        models: null,
        description: 'Japanese text normalization. Adds latency.',
      },
      {
        name: 'enable_ssml_parsing',
        type: 'boolean',
        default: false,
        nullable: false,
        min: null,
        max: null,
        values: null,
        models: null,
        description: 'Parse SSML tags in the text.',
      },
      {
        name: 'enable_logging',
        type: 'boolean',
        default: true,
        nullable: false,
        min: null,
        max: null,
        values: null,
        models: null,
        description: 'Vendor-side request logging. False selects the zero-retention mode.',
      },
      {
        name: 'pronunciation_dictionary_locators',
        type: 'array',
        default: null,
        nullable: true,
        min: null,
        max: null,
        values: null,
        models: null,
        description:
          'Up to 3 pronunciation dictionaries, each {pronunciation_dictionary_id, version_id}. A dictionary ' +
          'named without a version is re-read about once a minute.',
      },
      {
        name: 'bitrate',
        type: 'string',
        default: '128k',
        nullable: true,
        min: null,
        max: null,
        values: ['32k', '48k', '64k', '96k', '128k', '192k'],
        models: null,
        description: 'mp3 bitrate: 32k at 22050 Hz, 48k at 24000 Hz, 32k to 192k at 44100 Hz (default 128k).',
      },
      {
        name: 'sync_alignment',
        type: 'boolean',
        default: true,
        nullable: false,
        min: null,
        max: null,
        values: null,
        models: null,
        description: 'Word timings: /v1/stream sends them as words messages.',
      },
      {
        name: 'preferred_alignment',
        type: 'string',
        default: null,
        nullable: true,
        min: null,
        max: null,
        values: ['normalized', 'original'],
        models: null,
        description:
          'Which text the word timings follow. Null means original for Japanese, Korean and Chinese, else normalized.',
      },
    ],
    sample_rates: [8000, 16000, 22050, 24000, 32000, 44100, 48000],
    speech_sample_rates: [8000, 16000, 22050, 24000, 32000, 44100, 48000],
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
  // The vendor states no input limit (it differs by model): 2000, the smallest any vendor states (vendor_e's), is safe whatever it is.
  maxInputChars: 2000,
  unspeakable: null,
  wordTimings: true,
  finishesTakeOnInterrupt: true,
});
