import { catalogueHead, catalogueModel, catalogueOption, defineVendor } from '@router/vendors-core';
import { A_MODEL_1_VOICE_IDS, VENDOR_A_LANGUAGES, VENDOR_A_VOICES } from './vendor-a.voices';

/**
 * vendor_a: Indic languages, two models. `a_model_1` has a fixed speaker list; `a_model_2` takes
 * personas and is the only model with `pitch`, `loudness` and `enable_preprocessing`. The speech endpoint
 * adds 32000 to 48000 Hz, which the vendor serves only over REST with `bitrate` fixed at 128k.
 */
export const vendorA = defineVendor({
  id: 'vendor_a',
  catalogue: {
    ...catalogueHead('vendor_a'),
    formats: ['pcm', 'wav', 'mp3', 'aac', 'mulaw', 'alaw'],
    models: [
      catalogueModel('vendor_a', 'a_model_1', VENDOR_A_LANGUAGES, A_MODEL_1_VOICE_IDS),
      catalogueModel('vendor_a', 'a_model_2', VENDOR_A_LANGUAGES),
    ],
    options: [
      catalogueOption({
        name: 'temperature',
        type: 'number',
        default: 0.6,
        min: 0.01,
        max: 1.0,
        description: 'Sampling temperature: lower is steadier, higher is more varied.',
      }),
      catalogueOption({
        name: 'dict_id',
        type: 'string',
        description: 'Pronunciation dictionary id stored at the vendor. Cached by id, not by content.',
      }),
      catalogueOption({
        name: 'bitrate',
        type: 'string',
        default: '128k',
        values: ['32k', '64k', '96k', '128k', '192k'],
        description: 'Bitrate of mp3 and aac audio.',
      }),
      catalogueOption({
        name: 'pitch',
        type: 'number',
        default: 0,
        min: -0.5,
        max: 0.5,
        models: ['a_model_2'],
        description: 'Pitch shift.',
      }),
      catalogueOption({
        name: 'loudness',
        type: 'number',
        default: 1.0,
        min: 0.1,
        max: 2.5,
        models: ['a_model_2'],
        description: 'Loudness multiplier.',
      }),
      catalogueOption({
        name: 'enable_preprocessing',
        type: 'boolean',
        default: false,
        models: ['a_model_2'],
        description: 'Normalise mixed-language text, numbers and abbreviations before synthesis.',
      }),
      catalogueOption({
        name: 'min_buffer_size',
        type: 'integer',
        min: 30,
        max: 200,
        description: 'Characters buffered before synthesis starts. Null means the least the vendor allows.',
      }),
      catalogueOption({
        name: 'max_chunk_length',
        type: 'integer',
        min: 50,
        max: 500,
        description: 'Longest piece of text synthesized at once. Null means the most the vendor allows.',
      }),
    ],
    sample_rates: [8000, 16000, 22050, 24000],
    speech_sample_rates: [8000, 16000, 22050, 24000, 32000, 44100, 48000],
    speed: { min: 0.5, max: 2.0 },
  },
  language: 'required',
  speedDefault: 1.0,
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
