/**
 * Facts the spec states, written out by hand for tests (never imported from the implementation), so that a
 * definition that drifts from the spec fails. Unit tests check the definitions against them, e2e tests the
 * served catalogue.
 */

/** The ten vendor tokens, in the spec's order. */
export const SPEC_VENDOR_TOKENS = [
  'vendor_a',
  'vendor_b',
  'vendor_c',
  'vendor_d',
  'vendor_e',
  'vendor_f',
  'vendor_g',
  'vendor_h',
  'vendor_i',
  'vendor_j',
] as const;

/** The fields of a catalogue Provider, in the spec's order. */
export const SPEC_PROVIDER_FIELDS = [
  'id',
  'name',
  'docs_url',
  'formats',
  'models',
  'options',
  'sample_rates',
  'speech_sample_rates',
  'speed',
] as const;

/** The fields of a catalogue Model, in the spec's order. */
export const SPEC_MODEL_FIELDS = ['id', 'languages', 'voices', 'voices_url'] as const;

/** The fields of a catalogue Option, in the spec's order (`min, max` as two fields). */
export const SPEC_OPTION_FIELDS = [
  'name',
  'type',
  'default',
  'nullable',
  'min',
  'max',
  'values',
  'models',
  'description',
] as const;

/**
 * The spec's "Per-vendor catalogue facts" table, restated here by hand (not imported from the
 * definitions) so that a change to a definition that breaks the spec fails this test. The formats of
 * vendor_h, vendor_i and vendor_j are blank in the spec and completed from the vendor notes: vendor_h and
 * vendor_j audio is always 16-bit PCM (so pcm, and wav as the same samples behind a header).
 */
export const SPEC_CATALOGUE = {
  vendor_a: {
    formats: ['pcm', 'wav', 'mp3', 'aac', 'mulaw', 'alaw'],
    sample_rates: [8000, 16000, 22050, 24000],
    speech_sample_rates: [8000, 16000, 22050, 24000, 32000, 44100, 48000],
    speed: { min: 0.5, max: 2.0 },
  },
  vendor_b: {
    formats: ['pcm', 'wav', 'mulaw'],
    sample_rates: [8000, 16000, 22050, 24000],
    speech_sample_rates: [8000, 16000, 22050, 24000],
    speed: { min: 0.5, max: 1.5 },
  },
  vendor_c: {
    formats: ['pcm', 'wav', 'mp3', 'mulaw', 'alaw'],
    sample_rates: [8000, 16000, 22050, 24000, 32000, 44100, 48000],
    speech_sample_rates: [8000, 16000, 22050, 24000, 32000, 44100, 48000],
    speed: null,
  },
  vendor_d: {
    formats: ['pcm', 'wav', 'mp3', 'aac'],
    sample_rates: [24000],
    speech_sample_rates: [24000],
    speed: { min: 0.25, max: 4.0 },
  },
  vendor_e: {
    formats: ['pcm', 'wav', 'mulaw', 'alaw', 'mp3'],
    sample_rates: [8000, 16000, 22050, 24000, 32000, 44100, 48000],
    speech_sample_rates: [8000, 16000, 22050, 24000, 32000, 44100, 48000],
    speed: { min: 0.7, max: 1.5 },
  },
  vendor_f: {
    formats: ['pcm', 'wav', 'mp3', 'mulaw', 'alaw'],
    sample_rates: [8000, 16000, 22050, 24000, 44100, 48000],
    speech_sample_rates: [8000, 16000, 22050, 24000, 44100, 48000],
    speed: { min: 0.7, max: 1.5 },
  },
  vendor_g: {
    formats: ['pcm', 'wav', 'mp3', 'mulaw', 'alaw'],
    sample_rates: [8000, 16000, 24000, 32000, 44100, 48000],
    speech_sample_rates: [8000, 16000, 24000, 32000, 44100, 48000],
    speed: { min: 0.7, max: 1.3, default: 1.0 },
  },
  vendor_h: {
    formats: ['pcm', 'wav'],
    sample_rates: [8000, 16000, 24000, 44100],
    speech_sample_rates: [8000, 16000, 24000, 44100],
    speed: { min: 0.5, max: 2.0, default: 1.0 },
  },
  vendor_i: {
    formats: ['pcm', 'wav', 'mp3', 'mulaw', 'alaw'],
    sample_rates: [8000, 16000, 22050, 24000, 44100, 48000],
    speech_sample_rates: [8000, 16000, 22050, 24000, 44100, 48000],
    speed: { min: 0.6, max: 1.5 },
  },
  vendor_j: {
    formats: ['pcm', 'wav'],
    sample_rates: [24000],
    speech_sample_rates: [24000],
    speed: null,
  },
} as const;

/** The spec's options table: vendor, option, type, min, max, default, allowed values (null where not given). */
export const SPEC_OPTIONS: Array<
  [string, string, string, number | null, number | null, unknown, string[] | null]
> = [
  ['vendor_a', 'temperature', 'number', 0.01, 1.0, 0.6, null],
  ['vendor_a', 'dict_id', 'string', null, null, null, null],
  ['vendor_a', 'bitrate', 'string', null, null, '128k', ['32k', '64k', '96k', '128k', '192k']],
  ['vendor_a', 'pitch', 'number', -0.5, 0.5, 0, null],
  ['vendor_a', 'loudness', 'number', 0.1, 2.5, 1.0, null],
  ['vendor_a', 'enable_preprocessing', 'boolean', null, null, false, null],
  ['vendor_a', 'min_buffer_size', 'integer', 30, 200, null, null],
  ['vendor_a', 'max_chunk_length', 'integer', 50, 500, null, null],
  ['vendor_c', 'voice_settings', 'object', null, null, null, null],
  ['vendor_c', 'apply_text_normalization', 'string', null, null, 'auto', ['auto', 'on', 'off']],
  ['vendor_c', 'apply_language_text_normalization', 'boolean', null, null, null, null],
  ['vendor_c', 'enable_ssml_parsing', 'boolean', null, null, false, null],
  ['vendor_c', 'enable_logging', 'boolean', null, null, true, null],
  ['vendor_c', 'pronunciation_dictionary_locators', 'array', null, null, null, null],
  ['vendor_c', 'sync_alignment', 'boolean', null, null, true, null],
  ['vendor_c', 'preferred_alignment', 'string', null, null, null, ['normalized', 'original']],
  ['vendor_d', 'instructions', 'string', null, null, null, null],
  ['vendor_e', 'mip_opt_out', 'boolean', null, null, false, null],
  ['vendor_f', 'optimize_streaming_latency', 'integer', 0, 2, null, null],
  ['vendor_g', 'reduce_silence', 'boolean', null, null, null, null],
  ['vendor_i', 'volume', 'number', 0.5, 2.0, null, null],
  ['vendor_i', 'emotion', 'string', null, null, null, null],
  ['vendor_i', 'pronunciation_dict_id', 'string', null, null, null, null],
  ['vendor_i', 'word_timestamps', 'boolean', null, null, true, null],
  ['vendor_j', 'instructions', 'string', null, null, null, null],
  ['vendor_j', 'speakers', 'object', null, null, null, null],
  ['vendor_j', 'speaker', 'string', null, null, null, null],
];

/** Vendor_a's language codes as the spec lists them (od-IN, not or-IN). */
export const SPEC_VENDOR_A_LANGUAGES = [
  'bn-IN',
  'en-IN',
  'gu-IN',
  'hi-IN',
  'kn-IN',
  'ml-IN',
  'mr-IN',
  'od-IN',
  'pa-IN',
  'ta-IN',
  'te-IN',
];
