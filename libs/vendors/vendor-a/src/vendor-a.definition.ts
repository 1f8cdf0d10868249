import { defineVendor, type VendorDefinition } from '@router/vendors-core';
import { A_MODEL_1_VOICE_IDS, VENDOR_A_LANGUAGES, VENDOR_A_VOICES } from './vendor-a.voices';

const DOCS = 'https://docs.vendor-a.invalid';

/**
 * vendor_a: Indic languages, two models. `a_model_1` has a fixed speaker list; `a_model_2` takes
 * personas and is the only model with `pitch`, `loudness` and `enable_preprocessing`. The speech endpoint
 * adds 32000 to 48000 Hz, which the vendor serves only over REST with `bitrate` fixed at 128k.
 */
export const vendorA: VendorDefinition = defineVendor({
  id: 'vendor_a',
  catalogue: {
    id: 'vendor_a',
    name: 'Vendor A',
    docs_url: `${DOCS}/text-to-speech`,
    formats: ['pcm', 'wav', 'mp3', 'aac', 'mulaw', 'alaw'],
    models: [
      {
        id: 'a_model_1',
        languages: [...VENDOR_A_LANGUAGES],
        voices: [...A_MODEL_1_VOICE_IDS],
        voices_url: `${DOCS}/voices`,
      },
      { id: 'a_model_2', languages: [...VENDOR_A_LANGUAGES], voices: null, voices_url: `${DOCS}/voices` },
    ],
    options: [
      {
        name: 'temperature',
        type: 'number',
        default: 0.6,
        nullable: false,
        min: 0.01,
        max: 1.0,
        values: null,
        models: null,
        description: 'Sampling temperature: lower is steadier, higher is more varied.',
      },
      {
        name: 'dict_id',
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
        name: 'bitrate',
        type: 'string',
        default: '128k',
        nullable: false,
        min: null,
        max: null,
        values: ['32k', '64k', '96k', '128k', '192k'],
        models: null,
        description: 'Bitrate of mp3 and aac audio.',
      },
      {
        name: 'pitch',
        type: 'number',
        default: 0,
        nullable: false,
        min: -0.5,
        max: 0.5,
        values: null,
        models: ['a_model_2'],
        description: 'Pitch shift.',
      },
      {
        name: 'loudness',
        type: 'number',
        default: 1.0,
        nullable: false,
        min: 0.1,
        max: 2.5,
        values: null,
        models: ['a_model_2'],
        description: 'Loudness multiplier.',
      },
      {
        name: 'enable_preprocessing',
        type: 'boolean',
        default: false,
        nullable: false,
        min: null,
        max: null,
        values: null,
        models: ['a_model_2'],
        description: 'Normalise mixed-language text, numbers and abbreviations before synthesis.',
      },
      {
        name: 'min_buffer_size',
        type: 'integer',
        default: null,
        nullable: true,
        min: 30,
        max: 200,
        values: null,
        models: null,
        description: 'Characters buffered before synthesis starts. Null means the least the vendor allows.',
      },
      {
        name: 'max_chunk_length',
        type: 'integer',
        default: null,
        nullable: true,
        min: 50,
        max: 500,
        values: null,
        models: null,
        description: 'Longest piece of text synthesized at once. Null means the most the vendor allows.',
      },
    ],
    sample_rates: [8000, 16000, 22050, 24000],
    speech_sample_rates: [8000, 16000, 22050, 24000, 32000, 44100, 48000],
    speed: { min: 0.5, max: 2.0 },
  },
  language: 'required',
  speedDefault: 1.0,
  formatRules: {},
  optionRules: {
    bitrate: {
      formats: ['mp3', 'aac'],
      // The REST-only rates come at one fixed bitrate (spec: Native speech, sample_rate).
      valuesBySampleRate: { 32000: ['128k'], 44100: ['128k'], 48000: ['128k'] },
    },
  },
  modelTraits: {
    a_model_1: { apiVersion: 'v1' },
    // The vendor's second socket (`/ws/v2`) serves a_model_2 (spec: vendor_a drop-in).
    a_model_2: { apiVersion: 'v2' },
  },
  voices: VENDOR_A_VOICES,
  splitter: 'router',
  // The one-shot REST endpoint (32000, 44100, 48000 Hz) takes 2500 characters, the streaming one 3500: the
  // smaller for both, so a text gives the same pieces (and cache keys) at every sample rate.
  maxInputChars: 2500,
  unspeakable: 'no-letter-or-digit',
  wordTimings: false,
  finishesTakeOnInterrupt: false,
});
