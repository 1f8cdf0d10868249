import { type CatalogueProvider, RouterClient } from '@router/client';
import { readE2eStack } from '@router/testing';

const stack = readE2eStack();
/** The catalogue is public: a client without a key. */
const router = new RouterClient({ baseUrl: stack.gatewayUrl });

/** The spec's per-vendor catalogue table, written out here (not imported from the implementation). */
const TABLE: Record<
  string,
  {
    formats: string[] | null;
    rates: number[];
    speechRates: number[];
    speed: { min: number; max: number } | null;
  }
> = {
  vendor_a: {
    formats: ['pcm', 'wav', 'mp3', 'aac', 'mulaw', 'alaw'],
    rates: [8000, 16000, 22050, 24000],
    speechRates: [8000, 16000, 22050, 24000, 32000, 44100, 48000],
    speed: { min: 0.5, max: 2.0 },
  },
  vendor_b: {
    formats: ['pcm', 'wav', 'mulaw'],
    rates: [8000, 16000, 22050, 24000],
    speechRates: [8000, 16000, 22050, 24000],
    speed: { min: 0.5, max: 1.5 },
  },
  vendor_c: {
    formats: ['pcm', 'wav', 'mp3', 'mulaw', 'alaw'],
    rates: [8000, 16000, 22050, 24000, 32000, 44100, 48000],
    speechRates: [8000, 16000, 22050, 24000, 32000, 44100, 48000],
    speed: null,
  },
  vendor_d: {
    formats: ['pcm', 'wav', 'mp3', 'aac'],
    rates: [24000],
    speechRates: [24000],
    speed: { min: 0.25, max: 4.0 },
  },
  vendor_e: {
    formats: ['pcm', 'wav', 'mulaw', 'alaw', 'mp3'],
    rates: [8000, 16000, 22050, 24000, 32000, 44100, 48000],
    speechRates: [8000, 16000, 22050, 24000, 32000, 44100, 48000],
    speed: { min: 0.7, max: 1.5 },
  },
  vendor_f: {
    formats: ['pcm', 'wav', 'mp3', 'mulaw', 'alaw'],
    rates: [8000, 16000, 22050, 24000, 44100, 48000],
    speechRates: [8000, 16000, 22050, 24000, 44100, 48000],
    speed: { min: 0.7, max: 1.5 },
  },
  vendor_g: {
    formats: ['pcm', 'wav', 'mp3', 'mulaw', 'alaw'],
    rates: [8000, 16000, 24000, 32000, 44100, 48000],
    speechRates: [8000, 16000, 24000, 32000, 44100, 48000],
    speed: { min: 0.7, max: 1.3 },
  },
  vendor_h: {
    formats: null,
    rates: [8000, 16000, 24000, 44100],
    speechRates: [8000, 16000, 24000, 44100],
    speed: { min: 0.5, max: 2.0 },
  },
  vendor_i: {
    formats: null,
    rates: [8000, 16000, 22050, 24000, 44100, 48000],
    speechRates: [8000, 16000, 22050, 24000, 44100, 48000],
    speed: { min: 0.6, max: 1.5 },
  },
  vendor_j: { formats: null, rates: [24000], speechRates: [24000], speed: null },
};

/** The spec's options table: vendor, option, type, min, max, default, allowed values (null where not given). */
const OPTIONS: Array<[string, string, string, number | null, number | null, unknown, string[] | null]> = [
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

const A_MODEL_2_ONLY = ['pitch', 'loudness', 'enable_preprocessing'];
const PROVIDER_FIELDS = [
  'id',
  'name',
  'docs_url',
  'formats',
  'models',
  'options',
  'sample_rates',
  'speech_sample_rates',
  'speed',
];
const OPTION_FIELDS = [
  'name',
  'type',
  'default',
  'nullable',
  'min',
  'max',
  'values',
  'models',
  'description',
];

describe('GET /v1/models (e2e)', () => {
  let providers: CatalogueProvider[];
  const provider = (id: string) => providers.find((p) => p.id === id)!;

  beforeAll(async () => {
    ({ providers } = await router.models());
  });

  it('lists the ten vendors in order with exactly the spec fields', () => {
    expect(providers.map((p) => p.id)).toEqual(Object.keys(TABLE));
    for (const p of providers) {
      expect(Object.keys(p).sort()).toEqual([...PROVIDER_FIELDS].sort());
      for (const o of p.options) expect(Object.keys(o).sort()).toEqual([...OPTION_FIELDS].sort());
      for (const m of p.models)
        expect(Object.keys(m).sort()).toEqual(['id', 'languages', 'voices', 'voices_url']);
    }
  });

  it.each(Object.entries(TABLE))('matches the catalogue table for %s', (id, facts) => {
    const p = provider(id);
    if (facts.formats) expect([...p.formats].sort()).toEqual([...facts.formats].sort());
    else expect(p.formats.length).toBeGreaterThan(0);
    expect(p.sample_rates).toEqual(facts.rates);
    expect(p.speech_sample_rates).toEqual(facts.speechRates);
    if (facts.speed === null) expect(p.speed).toBeNull();
    else expect({ min: p.speed?.min, max: p.speed?.max }).toEqual(facts.speed);
  });

  it.each(OPTIONS)(
    'has %s option %s as the options table gives it',
    (vendor, name, type, min, max, def, values) => {
      const option = provider(vendor).options.find((o) => o.name === name)!;
      expect(option).toBeDefined();
      expect(option.type).toBe(type);
      expect(option.min).toBe(min);
      expect(option.max).toBe(max);
      expect(option.default).toEqual(def);
      if (values) expect(option.values).toEqual(values);
      if (vendor === 'vendor_a')
        expect(option.models).toEqual(A_MODEL_2_ONLY.includes(name) ? ['a_model_2'] : null);
    },
  );

  it('gives vendor_b no options and vendor_a its two models, 11 languages and 37 a_model_1 speakers', () => {
    expect(provider('vendor_b').options).toEqual([]);
    const a = provider('vendor_a');
    expect(a.models.map((m) => m.id)).toEqual(['a_model_1', 'a_model_2']);
    const languages = [
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
    for (const m of a.models) expect([...m.languages].sort()).toEqual(languages);
    expect(a.models[0].voices).toHaveLength(37);
    expect(a.models[1].voices).toBeNull();
    expect(provider('vendor_c').models).toHaveLength(9);
    expect(provider('vendor_d').models).toHaveLength(4);
    expect(provider('vendor_b').models).toHaveLength(2);
  });
});
