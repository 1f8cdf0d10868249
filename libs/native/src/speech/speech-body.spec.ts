import { RouterError } from '@router/contracts';
import { JSON_MAX_DEPTH } from '@router/service-kit';
import { VENDOR_IDS, type VendorId } from '@router/vendors';
import { parseSpeechBody, SPEECH_BODY_FIELDS, SPEECH_INPUT_MAX_CHARS } from './speech-body';

/** A minimal valid body per vendor (vendor_b, vendor_h and vendor_j have no mp3, the default format). */
const MINIMAL: Record<VendorId, Record<string, unknown>> = {
  vendor_a: { model: 'vendor_a/a_model_1', input: 'Hello.', voice: 'aarila', language: 'hi-IN' },
  vendor_b: {
    model: 'vendor_b/b_model_1',
    input: 'Hello.',
    voice: 'v1',
    language: 'hi',
    response_format: 'pcm',
  },
  vendor_c: { model: 'vendor_c/c_model_1', input: 'Hello.', voice: 'v1' },
  vendor_d: { model: 'vendor_d/d_model_1', input: 'Hello.', voice: 'brook' },
  vendor_e: { model: 'vendor_e/e_model_1', input: 'Hello.', voice: 'v1' },
  vendor_f: { model: 'vendor_f/f_model_1', input: 'Hello.', voice: 'v1' },
  vendor_g: { model: 'vendor_g/g_model_1', input: 'Hello.', voice: 'v1', language: 'en' },
  vendor_h: { model: 'vendor_h/h_model_1', input: 'Hello.', voice: 'v1', response_format: 'pcm' },
  vendor_i: { model: 'vendor_i/i_model_1', input: 'Hello.', voice: 'v1' },
  vendor_j: { model: 'vendor_j/j_model_1', input: 'Hello.', voice: 'Kael', response_format: 'pcm' },
};

const body = (vendor: VendorId, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  ...MINIMAL[vendor],
  ...extra,
});

/** The message of the `bad_request` the body is refused with (fails when it is accepted). */
function refusal(input: unknown): string {
  try {
    parseSpeechBody(input);
  } catch (error) {
    expect(error).toBeInstanceOf(RouterError);
    const routerError = error as RouterError;
    expect(routerError.code).toBe('bad_request');
    expect(routerError.status).toBe(400);
    expect(routerError.toEnvelope().error.retryable).toBe(false);
    return routerError.message;
  }
  throw new Error(`expected a bad_request for ${JSON.stringify(input).slice(0, 200)}`);
}

const settingsOf = (input: Record<string, unknown>) => parseSpeechBody(input).settings;

describe('parseSpeechBody: the result', () => {
  it('returns the vendor, the canonical settings and the input untouched', () => {
    const parsed = parseSpeechBody(body('vendor_a', { input: '  Namaste,  world.  ' }));
    expect(parsed.def.id).toBe('vendor_a');
    expect(parsed.input).toBe('  Namaste,  world.  ');
    expect(parsed.settings).toEqual({
      vendor: 'vendor_a',
      model: 'a_model_1',
      voice: 'aarila',
      language: 'hi-IN',
      speed: 1,
      sampleRate: 24000,
      format: 'mp3',
      options: { temperature: 0.6, bitrate: '128k' },
    });
  });

  it.each<[VendorId, Record<string, unknown>]>([
    ['vendor_a', { temperature: 0.6, bitrate: '128k' }],
    ['vendor_b', {}],
    [
      'vendor_c',
      {
        apply_text_normalization: 'auto',
        enable_ssml_parsing: false,
        enable_logging: true,
        bitrate: '48k',
        sync_alignment: true,
      },
    ],
    ['vendor_d', {}],
    ['vendor_e', { mip_opt_out: false, bit_rate: 48000 }],
    ['vendor_f', { bit_rate: 128000 }],
    ['vendor_g', {}],
    ['vendor_h', {}],
    ['vendor_i', {}],
    ['vendor_j', {}],
  ])('%s: a minimal body gets the catalogue defaults %p', (vendor, options) => {
    expect(settingsOf(body(vendor)).options).toEqual(options);
  });

  it.each<[VendorId, string | null, number | null, string, number]>([
    ['vendor_a', 'hi-IN', 1, 'mp3', 24000],
    ['vendor_b', 'hi', 1, 'pcm', 24000],
    ['vendor_c', null, null, 'mp3', 24000],
    ['vendor_d', null, 1, 'mp3', 24000],
    ['vendor_e', null, 1, 'mp3', 24000],
    ['vendor_f', null, 1, 'mp3', 24000],
    ['vendor_g', 'en', 1, 'mp3', 24000],
    ['vendor_h', 'en', 1, 'pcm', 24000],
    ['vendor_i', 'en', null, 'mp3', 24000],
    ['vendor_j', null, null, 'pcm', 24000],
  ])('%s: language %p, speed %p, format %s, rate %p', (vendor, language, speed, format, rate) => {
    const settings = settingsOf(body(vendor));
    expect(settings).toEqual(expect.objectContaining({ vendor, language, speed, format, sampleRate: rate }));
  });
});

describe('parseSpeechBody: the body table', () => {
  it.each([null, [], 'text', 42, true])('refuses a body that is not a JSON object (%p)', (input) => {
    expect(refusal(input)).toBe('the body must be a JSON object');
  });

  it('refuses a field nesting arrays and objects past the limit, naming it, before reading the fields', () => {
    const deep = JSON.parse(`${'['.repeat(20_000)}${']'.repeat(20_000)}`) as unknown;
    expect(refusal(body('vendor_c', { voice_settings: { speed: deep } }))).toBe(
      `voice_settings nests arrays and objects deeper than the limit of ${JSON_MAX_DEPTH} levels`,
    );
  });

  it('lists exactly the spec body fields besides the options', () => {
    expect([...SPEECH_BODY_FIELDS]).toEqual([
      'model',
      'input',
      'voice',
      'language',
      'response_format',
      'speed',
      'sample_rate',
      'stream_format',
    ]);
  });

  describe('model', () => {
    it.each<[unknown, RegExp]>([
      [undefined, /^model is required$/],
      [null, /^model is required$/],
      [42, /^model must be a string "<provider>\/<model_id>"$/],
      ['a_model_1', /^model "a_model_1" must be "<provider>\/<model_id>"/],
      ['vendor_a/', /^model "vendor_a\/" must be "<provider>\/<model_id>"/],
      ['/a_model_1', /^model "\/a_model_1" must be "<provider>\/<model_id>"/],
      [
        'vendor_z/z_model_1',
        /^model "vendor_z\/z_model_1" names unknown provider "vendor_z"; use one of vendor_a, /,
      ],
      ['VENDOR_A/a_model_1', /^model "VENDOR_A\/a_model_1" names unknown provider/],
      [
        'vendor_a/a_model_3',
        /^model "a_model_3" is not a model of vendor_a; use one of a_model_1, a_model_2$/,
      ],
      ['vendor_a/c_model_1', /^model "c_model_1" is not a model of vendor_a/],
      ['vendor_a/a_model_1/x', /^model "a_model_1\/x" is not a model of vendor_a/],
    ])('refuses %p', (model, message) => {
      const input = body('vendor_a');
      if (model === undefined) delete input['model'];
      else input['model'] = model;
      expect(refusal(input)).toMatch(message);
    });
  });

  describe('input', () => {
    const max = SPEECH_INPUT_MAX_CHARS;

    it('is limited to 20,000 characters', () => {
      expect(max).toBe(20000);
    });

    it.each<[string, string]>([
      ['1 character', 'a'],
      ['20,000 characters', 'a'.repeat(max)],
      ['20,000 characters outside the BMP (40,000 UTF-16 units)', '😀'.repeat(max)],
      ['whitespace only (skipped later, not refused)', ' '],
    ])('accepts %s', (_what, input) => {
      expect(parseSpeechBody(body('vendor_c', { input })).input).toBe(input);
    });

    it.each<[string, unknown, RegExp]>([
      ['0 characters', '', /^input must not be empty$/],
      ['20,001 characters', 'a'.repeat(max + 1), /^input must be at most 20,000 characters$/],
      [
        '20,001 characters outside the BMP',
        '😀'.repeat(max + 1),
        /^input must be at most 20,000 characters$/,
      ],
      ['a missing input', undefined, /^input is required$/],
      ['a null input', null, /^input is required$/],
      ['a number', 5, /^input must be a string$/],
      ['an array of strings', ['a'], /^input must be a string$/],
    ])('refuses %s', (_what, input, message) => {
      const b = body('vendor_c');
      if (input === undefined) delete b['input'];
      else b['input'] = input;
      expect(refusal(b)).toMatch(message);
    });
  });

  describe('voice', () => {
    it.each<[VendorId, unknown, RegExp]>([
      ['vendor_c', undefined, /^voice is required$/],
      ['vendor_c', null, /^voice is required$/],
      ['vendor_c', '', /^voice is required$/],
      ['vendor_c', 3, /^voice must be a string$/],
      ['vendor_a', 'nobody', /^voice "nobody" does not belong to model a_model_1$/],
      ['vendor_d', 'Brook', /^voice "Brook" does not belong to model d_model_1$/],
      ['vendor_j', 'kael', /^voice "kael" does not belong to model j_model_1$/],
    ])('%s refuses %p', (vendor, voice, message) => {
      const b = body(vendor);
      if (voice === undefined) delete b['voice'];
      else b['voice'] = voice;
      expect(refusal(b)).toMatch(message);
    });

    it('accepts any voice where the model has no fixed list (a_model_2, live lists)', () => {
      expect(settingsOf(body('vendor_a', { model: 'vendor_a/a_model_2', voice: 'anyone' })).voice).toBe(
        'anyone',
      );
      expect(settingsOf(body('vendor_c', { voice: 'org-clone-17' })).voice).toBe('org-clone-17');
    });
  });

  describe('language', () => {
    it.each<[VendorId, unknown, string | null | RegExp]>([
      ['vendor_a', 'ta-IN', 'ta-IN'],
      ['vendor_a', undefined, /^language is required for vendor_a; use one of bn-IN, en-IN, /],
      ['vendor_a', null, /^language is required for vendor_a/],
      ['vendor_a', 'hi', /^language "hi" is not available for model a_model_1; use one of bn-IN/],
      ['vendor_a', 'hi-in', /^language "hi-in" is not available/],
      ['vendor_b', 'en-us', 'en-us'],
      ['vendor_b', undefined, /^language is required for vendor_b/],
      ['vendor_b', 'hi-IN', /^language "hi-IN" is not available for model b_model_1/],
      ['vendor_c', undefined, null],
      ['vendor_c', null, null],
      ['vendor_c', 'en', 'en'],
      ['vendor_c', 'de', /^language "de" is not available for model c_model_1; use en$/],
      ['vendor_c', '', /^language must not be empty/],
      ['vendor_c', 7, /^language must be a string or null$/],
      ['vendor_d', 'en', /^language is not a setting of vendor_d/],
      ['vendor_e', 'en', /^language is not a setting of vendor_e/],
      ['vendor_f', undefined, null],
      ['vendor_f', 'pt-BR', 'pt-BR'],
      ['vendor_g', undefined, /^language is required for vendor_g/],
      ['vendor_g', 'de', 'de'],
      ['vendor_h', undefined, 'en'],
      ['vendor_h', 'hi', 'hi'],
      ['vendor_h', 'ja', /^language "ja" is not available for model h_model_1/],
      ['vendor_i', undefined, 'en'],
      ['vendor_i', 'fr', 'fr'],
      ['vendor_j', 'en-US', /^language is not a setting of vendor_j/],
      ['vendor_j', null, null],
    ])('%s with %p gives %p', (vendor, language, expected) => {
      const b = body(vendor);
      if (language === undefined) delete b['language'];
      else b['language'] = language;
      if (expected instanceof RegExp) expect(refusal(b)).toMatch(expected);
      else expect(settingsOf(b).language).toBe(expected);
    });
  });

  describe('speed', () => {
    it.each<[VendorId, unknown, number | RegExp]>([
      ['vendor_a', 0.5, 0.5],
      ['vendor_a', 2.0, 2],
      ['vendor_a', 0.49, /^speed must be between 0\.5 and 2\.0 for vendor_a$/],
      ['vendor_a', 2.01, /^speed must be between 0\.5 and 2\.0 for vendor_a$/],
      ['vendor_b', 1.5, 1.5],
      ['vendor_b', 1.51, /^speed must be between 0\.5 and 1\.5 for vendor_b$/],
      ['vendor_c', 1.0, /^speed is not a setting of vendor_c; use voice_settings\.speed$/],
      ['vendor_d', 0.25, 0.25],
      ['vendor_d', 4.0, 4],
      ['vendor_d', 4.01, /^speed must be between 0\.25 and 4\.0 for vendor_d$/],
      ['vendor_e', 0.69, /^speed must be between 0\.7 and 1\.5 for vendor_e$/],
      ['vendor_f', 1.5, 1.5],
      ['vendor_g', 1.3, 1.3],
      ['vendor_g', 1.31, /^speed must be between 0\.7 and 1\.3 for vendor_g$/],
      ['vendor_h', 0.5, 0.5],
      ['vendor_i', 0.6, 0.6],
      ['vendor_i', 0.59, /^speed must be between 0\.6 and 1\.5 for vendor_i$/],
      ['vendor_j', 1.0, /^speed is not a setting of vendor_j; use instructions$/],
      ['vendor_a', '1.0', /^speed must be a number$/],
      ['vendor_a', null, /^speed must be a number$/],
      ['vendor_a', true, /^speed must be a number$/],
    ])('%s speed %p gives %p', (vendor, speed, expected) => {
      const b = body(vendor, { speed });
      if (expected instanceof RegExp) expect(refusal(b)).toMatch(expected);
      else expect(settingsOf(b).speed).toBe(expected);
    });
  });

  describe('stream_format', () => {
    it('takes audio, the default', () => {
      expect(settingsOf(body('vendor_c', { stream_format: 'audio' }))).toEqual(settingsOf(body('vendor_c')));
    });

    it.each<[unknown, RegExp]>([
      ['sse', /^stream_format sse is not supported: the body is the audio itself; use audio$/],
      ['json', /^stream_format must be audio$/],
      [null, /^stream_format must be audio$/],
      [1, /^stream_format must be audio$/],
    ])('refuses %p', (streamFormat, message) => {
      expect(refusal(body('vendor_c', { stream_format: streamFormat }))).toMatch(message);
    });
  });

  describe('fields outside the table', () => {
    it.each<[VendorId, string, unknown]>([
      ['vendor_a', 'foo', 1],
      ['vendor_a', 'voice_settings', { stability: 0.5, similarity_boost: 0.5 }],
      ['vendor_a', 'instructions', 'calm'],
      ['vendor_b', 'temperature', 0.5],
      ['vendor_c', 'temperature', 0.5],
      ['vendor_c', 'options', {}],
      ['vendor_c', 'text', 'Hello'],
      ['vendor_d', 'voice_settings', null],
      ['vendor_h', 'word_timestamps', true],
      ['vendor_j', '__proto__', {}],
    ])('%s refuses %s, naming it', (vendor, field, value) => {
      const input = JSON.parse(JSON.stringify(body(vendor))) as Record<string, unknown>;
      Object.defineProperty(input, field, { value, enumerable: true, configurable: true, writable: true });
      expect(refusal(input)).toBe(
        `unknown field ${JSON.stringify(field)}: it is neither a speech body field nor an option of ${vendor}`,
      );
    });

    it('refuses __proto__ sent in JSON text', () => {
      const input = JSON.parse(`{"model":"vendor_c/c_model_1","input":"Hi","voice":"v","__proto__":{"x":1}}`);
      expect(refusal(input)).toMatch(/^unknown field "__proto__"/);
    });
  });
});

describe('parseSpeechBody: formats and sample rates', () => {
  const FORMATS = ['pcm', 'wav', 'mp3', 'aac', 'mulaw', 'alaw', 'flac', 'opus'] as const;
  /** The spec's format support table: true = yes; a rate list = only those rates; false = no. */
  const TABLE: Record<
    (typeof FORMATS)[number],
    Record<'vendor_a' | 'vendor_b' | 'vendor_c', boolean | number[]>
  > = {
    pcm: { vendor_a: true, vendor_b: true, vendor_c: true },
    wav: { vendor_a: true, vendor_b: true, vendor_c: true },
    mp3: { vendor_a: true, vendor_b: false, vendor_c: [22050, 24000, 44100] },
    aac: { vendor_a: true, vendor_b: false, vendor_c: false },
    mulaw: { vendor_a: true, vendor_b: true, vendor_c: [8000] },
    alaw: { vendor_a: true, vendor_b: false, vendor_c: [8000] },
    flac: { vendor_a: false, vendor_b: false, vendor_c: false },
    opus: { vendor_a: false, vendor_b: false, vendor_c: false },
  };
  const ALL_RATES = [8000, 16000, 22050, 24000, 32000, 44100, 48000];
  const VENDOR_RATES = { vendor_a: ALL_RATES, vendor_b: [8000, 16000, 22050, 24000], vendor_c: ALL_RATES };
  const rows = FORMATS.flatMap((format) =>
    (['vendor_a', 'vendor_b', 'vendor_c'] as const).map(
      (vendor) => [format, vendor, TABLE[format][vendor]] as const,
    ),
  );

  it.each(rows)('%s for %s: %p', (format, vendor, support) => {
    if (support === false) {
      const message = refusal(body(vendor, { response_format: format }));
      expect(message).toMatch(new RegExp(`^response_format ${format} is (not|never) available`));
      expect(message).toContain(vendor === 'vendor_b' ? 'pcm, wav, mulaw' : 'pcm, wav, mp3');
      return;
    }
    const allowed = support === true ? VENDOR_RATES[vendor] : support;
    for (const rate of ALL_RATES) {
      const b = body(vendor, { response_format: format, sample_rate: rate });
      if (allowed.includes(rate)) {
        expect(settingsOf(b)).toEqual(expect.objectContaining({ format, sampleRate: rate }));
      } else {
        expect(refusal(b)).toBe(
          `sample_rate ${rate} is not available for ${vendor} ${format}; use ` +
            (allowed.length === 1 ? `${allowed[0]}` : `one of ${allowed.join(', ')}`),
        );
      }
    }
  });

  it.each<[VendorId, string, number]>([
    ['vendor_c', 'mulaw', 8000],
    ['vendor_c', 'alaw', 8000],
    ['vendor_c', 'mp3', 24000],
    ['vendor_c', 'pcm', 24000],
    ['vendor_a', 'mulaw', 24000],
    ['vendor_b', 'mulaw', 24000],
    ['vendor_d', 'aac', 24000],
    ['vendor_h', 'wav', 24000],
  ])('%s %s without sample_rate uses %p', (vendor, format, rate) => {
    expect(settingsOf(body(vendor, { response_format: format })).sampleRate).toBe(rate);
  });

  it('refuses the default mp3 for vendor_b, naming its formats', () => {
    const input = body('vendor_b');
    delete input['response_format'];
    expect(refusal(input)).toBe(
      'response_format defaults to mp3, which vendor_b does not produce; set response_format to one of pcm, wav, mulaw',
    );
  });

  it.each<[unknown, RegExp]>([
    ['MP3', /^response_format must be one of pcm, wav, mp3, aac, mulaw, alaw, flac, opus$/],
    ['ogg', /^response_format must be one of/],
    [null, /^response_format must be one of/],
    [3, /^response_format must be one of/],
  ])('refuses response_format %p', (format, message) => {
    expect(refusal(body('vendor_c', { response_format: format }))).toMatch(message);
  });

  it.each<[unknown, RegExp]>([
    [12000, /^sample_rate must be one of 8000, 16000, 22050, 24000, 32000, 44100, 48000$/],
    ['24000', /^sample_rate must be one of/],
    [24000.5, /^sample_rate must be one of/],
    [null, /^sample_rate must be one of/],
  ])('refuses sample_rate %p', (rate, message) => {
    expect(refusal(body('vendor_c', { sample_rate: rate }))).toMatch(message);
  });

  it.each<[VendorId, number, string]>([
    ['vendor_d', 16000, 'sample_rate 16000 is not available for vendor_d mp3; use 24000'],
    ['vendor_j', 16000, 'sample_rate 16000 is not available for vendor_j pcm; use 24000'],
    [
      'vendor_f',
      32000,
      'sample_rate 32000 is not available for vendor_f mp3; use one of 8000, 16000, 22050, 24000, 44100, 48000',
    ],
    [
      'vendor_g',
      22050,
      'sample_rate 22050 is not available for vendor_g mp3; use one of 8000, 16000, 24000, 32000, 44100, 48000',
    ],
    [
      'vendor_h',
      22050,
      'sample_rate 22050 is not available for vendor_h pcm; use one of 8000, 16000, 24000, 44100',
    ],
  ])('%s refuses %p', (vendor, rate, message) => {
    expect(refusal(body(vendor, { sample_rate: rate }))).toBe(message);
  });

  describe('vendor_a above 24000 Hz (REST only, bitrate fixed at 128k)', () => {
    it.each([32000, 44100, 48000])('%p Hz takes mp3 and aac at 128k only', (rate) => {
      for (const format of ['mp3', 'aac']) {
        expect(
          settingsOf(body('vendor_a', { response_format: format, sample_rate: rate })).options['bitrate'],
        ).toBe('128k');
        expect(
          settingsOf(body('vendor_a', { response_format: format, sample_rate: rate, bitrate: '128k' }))
            .options['bitrate'],
        ).toBe('128k');
        expect(
          refusal(body('vendor_a', { response_format: format, sample_rate: rate, bitrate: '64k' })),
        ).toBe(`bitrate "64k" is not allowed at ${rate} Hz for vendor_a ${format}; use 128k`);
      }
    });

    it('takes every bitrate at 24000 Hz and below', () => {
      for (const bitrate of ['32k', '64k', '96k', '128k', '192k']) {
        expect(settingsOf(body('vendor_a', { bitrate })).options['bitrate']).toBe(bitrate);
      }
      expect(refusal(body('vendor_a', { bitrate: '48k' }))).toBe(
        'bitrate "48k" is not allowed for vendor_a; use one of 32k, 64k, 96k, 128k, 192k',
      );
    });
  });

  describe('bitrate only for compressed formats', () => {
    it.each<[VendorId, string, string]>([
      ['vendor_a', 'pcm', 'bitrate applies only to mp3, aac audio, not to pcm'],
      ['vendor_a', 'mulaw', 'bitrate applies only to mp3, aac audio, not to mulaw'],
      ['vendor_c', 'wav', 'bitrate applies only to mp3 audio, not to wav'],
    ])('%s refuses bitrate with %s', (vendor, format, message) => {
      expect(refusal(body(vendor, { response_format: format, bitrate: '128k' }))).toBe(message);
    });

    it('leaves the bitrate out of pcm settings, and accepts a null bitrate there', () => {
      expect(settingsOf(body('vendor_a', { response_format: 'pcm' })).options).toEqual({ temperature: 0.6 });
      expect(settingsOf(body('vendor_a', { response_format: 'pcm', bitrate: null })).options).toEqual({
        temperature: 0.6,
      });
    });
  });

  describe('vendor_c mp3 bitrate by rate', () => {
    it.each<[number, string, string[]]>([
      [22050, '32k', ['32k']],
      [24000, '48k', ['48k']],
      [44100, '128k', ['32k', '64k', '96k', '128k', '192k']],
    ])('at %p Hz the default is %s and the allowed values %p', (rate, dflt, allowed) => {
      const mp3 = { response_format: 'mp3', sample_rate: rate };
      expect(settingsOf(body('vendor_c', mp3)).options['bitrate']).toBe(dflt);
      expect(settingsOf(body('vendor_c', { ...mp3, bitrate: null })).options['bitrate']).toBe(dflt);
      for (const bitrate of ['32k', '48k', '64k', '96k', '128k', '192k']) {
        const b = body('vendor_c', { ...mp3, bitrate });
        if (allowed.includes(bitrate)) expect(settingsOf(b).options['bitrate']).toBe(bitrate);
        else
          expect(refusal(b)).toMatch(
            new RegExp(`^bitrate "${bitrate}" is not allowed at ${rate} Hz for vendor_c mp3`),
          );
      }
    });
  });
});

describe('parseSpeechBody: vendor options top-level', () => {
  const a2 = (extra: Record<string, unknown>) =>
    body('vendor_a', { model: 'vendor_a/a_model_2', voice: 'p', ...extra });

  it.each<[string, Record<string, unknown>, string]>([
    ['pitch', { pitch: 0.1 }, 'pitch applies only to vendor_a model a_model_2, not to a_model_1'],
    ['loudness', { loudness: 1.2 }, 'loudness applies only to vendor_a model a_model_2, not to a_model_1'],
    [
      'enable_preprocessing',
      { enable_preprocessing: true },
      'enable_preprocessing applies only to vendor_a model a_model_2, not to a_model_1',
    ],
  ])('refuses the a_model_2-only %s for a_model_1', (_name, extra, message) => {
    expect(refusal(body('vendor_a', extra))).toBe(message);
  });

  it('fills the a_model_2 defaults only for a_model_2', () => {
    expect(settingsOf(a2({})).options).toEqual({
      temperature: 0.6,
      bitrate: '128k',
      pitch: 0,
      loudness: 1,
      enable_preprocessing: false,
    });
  });

  type Limit = [
    string,
    (extra: Record<string, unknown>) => Record<string, unknown>,
    string,
    unknown[],
    unknown[],
    RegExp,
  ];
  const LIMITS: Limit[] = [
    [
      'temperature',
      (e) => body('vendor_a', e),
      'temperature',
      [0.01, 0.5, 1.0],
      [0.0, 0.009, 1.01, -1],
      /^temperature must be between 0\.01 and 1\.0 for vendor_a$/,
    ],
    [
      'pitch',
      a2,
      'pitch',
      [-0.5, 0, 0.5],
      [-0.51, 0.51],
      /^pitch must be between -0\.5 and 0\.5 for vendor_a$/,
    ],
    [
      'loudness',
      a2,
      'loudness',
      [0.1, 2.5],
      [0.09, 2.51, 0],
      /^loudness must be between 0\.1 and 2\.5 for vendor_a$/,
    ],
    [
      'min_buffer_size',
      (e) => body('vendor_a', e),
      'min_buffer_size',
      [30, 200],
      [29, 201],
      /^min_buffer_size must be between 30 and 200 for vendor_a$/,
    ],
    [
      'min_buffer_size (integer)',
      (e) => body('vendor_a', e),
      'min_buffer_size',
      [100],
      [30.5],
      /^min_buffer_size must be an integer$/,
    ],
    [
      'max_chunk_length',
      (e) => body('vendor_a', e),
      'max_chunk_length',
      [50, 500],
      [49, 501],
      /^max_chunk_length must be between 50 and 500 for vendor_a$/,
    ],
    [
      'optimize_streaming_latency',
      (e) => body('vendor_f', e),
      'optimize_streaming_latency',
      [0, 1, 2],
      [-1, 3],
      /^optimize_streaming_latency must be between 0 and 2 for vendor_f$/,
    ],
    [
      'volume',
      (e) => body('vendor_i', e),
      'volume',
      [0.5, 2.0],
      [0.49, 2.01],
      /^volume must be between 0\.5 and 2\.0 for vendor_i$/,
    ],
  ];

  describe.each(LIMITS)('limit %s', (_what, make, name, accepted, refused, message) => {
    it.each(accepted)('accepts %p', (value) => {
      expect(settingsOf(make({ [name]: value })).options[name]).toBe(value);
    });
    it.each(refused)('refuses %p', (value) => {
      expect(refusal(make({ [name]: value }))).toMatch(message);
    });
    it('refuses a string (no coercion)', () => {
      expect(refusal(make({ [name]: String(accepted[0]) }))).toMatch(
        new RegExp(`^${name} must be a number$`),
      );
    });
  });

  describe('voice_settings (vendor_c)', () => {
    const vs = (voiceSettings: unknown, model = 'c_model_1') =>
      body('vendor_c', { model: `vendor_c/${model}`, voice_settings: voiceSettings });

    it.each<[unknown, unknown]>([
      [
        { stability: 0, similarity_boost: 1 },
        { stability: 0, similarity_boost: 1 },
      ],
      [
        { use_speaker_boost: true, speed: 0.7, style: 1, similarity_boost: 0.2, stability: 0.4 },
        { stability: 0.4, similarity_boost: 0.2, style: 1, speed: 0.7, use_speaker_boost: true },
      ],
      [
        { stability: 0.5, similarity_boost: 0.5, speed: 1.2 },
        { stability: 0.5, similarity_boost: 0.5, speed: 1.2 },
      ],
    ])('accepts %p', (given, expected) => {
      expect(settingsOf(vs(given)).options['voice_settings']).toEqual(expected);
    });

    it('null means the stored settings, the same as leaving it out', () => {
      expect(settingsOf(vs(null))).toEqual(settingsOf(body('vendor_c')));
      expect(settingsOf(vs(null)).options).not.toHaveProperty('voice_settings');
    });

    it.each<[unknown, string]>([
      [{ stability: 0.5 }, 'voice_settings.similarity_boost is required'],
      [{ similarity_boost: 0.5 }, 'voice_settings.stability is required'],
      [{ stability: 1.01, similarity_boost: 0.5 }, 'voice_settings.stability must be between 0.0 and 1.0'],
      [
        { stability: 0.5, similarity_boost: -0.01 },
        'voice_settings.similarity_boost must be between 0.0 and 1.0',
      ],
      [
        { stability: 0.5, similarity_boost: 0.5, style: 1.5 },
        'voice_settings.style must be between 0.0 and 1.0',
      ],
      [
        { stability: 0.5, similarity_boost: 0.5, speed: 0.69 },
        'voice_settings.speed must be between 0.7 and 1.2',
      ],
      [
        { stability: 0.5, similarity_boost: 0.5, speed: 1.21 },
        'voice_settings.speed must be between 0.7 and 1.2',
      ],
      [
        { stability: 0.5, similarity_boost: 0.5, use_speaker_boost: 'yes' },
        'voice_settings.use_speaker_boost must be true or false',
      ],
      [{ stability: '0.5', similarity_boost: 0.5 }, 'voice_settings.stability must be a number'],
      [
        { stability: 0.5, similarity_boost: 0.5, pitch: 1 },
        'voice_settings.pitch is not a field of voice_settings; use one of stability, similarity_boost, style, speed, use_speaker_boost',
      ],
      ['calm', 'voice_settings must be an object'],
    ])('refuses %p', (given, message) => {
      expect(refusal(vs(given))).toBe(message);
    });

    it('dialogue models take stability only', () => {
      expect(settingsOf(vs({ stability: 0.3 }, 'c_model_8')).options['voice_settings']).toEqual({
        stability: 0.3,
      });
      expect(refusal(vs({ stability: 0.3, similarity_boost: 0.5 }, 'c_model_9'))).toBe(
        'voice_settings.similarity_boost is not available with dialogue model c_model_9; voice_settings takes only stability',
      );
    });
  });

  describe('pronunciation_dictionary_locators (vendor_c)', () => {
    const loc = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ pronunciation_dictionary_id: `d${i}`, version_id: `v${i}` }));
    const withLocators = (locators: unknown) =>
      body('vendor_c', { pronunciation_dictionary_locators: locators });

    it.each([0, 1, 3])('accepts %p locators', (n) => {
      expect(settingsOf(withLocators(loc(n))).options['pronunciation_dictionary_locators']).toEqual(loc(n));
    });

    it('accepts a locator without a version (the latest), dropping a null version', () => {
      expect(
        settingsOf(withLocators([{ pronunciation_dictionary_id: 'd', version_id: null }])).options[
          'pronunciation_dictionary_locators'
        ],
      ).toEqual([{ pronunciation_dictionary_id: 'd' }]);
    });

    it.each<[unknown, string]>([
      [loc(4), 'pronunciation_dictionary_locators takes at most 3 items (it has 4)'],
      [[{ version_id: 'v' }], 'pronunciation_dictionary_locators[0].pronunciation_dictionary_id is required'],
      [
        [{ pronunciation_dictionary_id: 5 }],
        'pronunciation_dictionary_locators[0].pronunciation_dictionary_id must be a string',
      ],
      [
        [{ pronunciation_dictionary_id: 'd', id: 'x' }],
        'pronunciation_dictionary_locators[0].id is not a field of pronunciation_dictionary_locators[0]; use one of pronunciation_dictionary_id, version_id',
      ],
      [{ pronunciation_dictionary_id: 'd' }, 'pronunciation_dictionary_locators must be an array'],
    ])('refuses %p', (locators, message) => {
      expect(refusal(withLocators(locators))).toBe(message);
    });
  });

  describe('other vendor_c options', () => {
    it.each<[string, unknown, unknown]>([
      ['apply_text_normalization', 'on', 'on'],
      ['apply_text_normalization', 'off', 'off'],
      ['apply_language_text_normalization', true, true],
      ['enable_ssml_parsing', true, true],
      ['enable_logging', false, false],
      ['sync_alignment', false, false],
      ['preferred_alignment', 'original', 'original'],
    ])('%s %p', (name, value, expected) => {
      expect(settingsOf(body('vendor_c', { [name]: value })).options[name]).toBe(expected);
    });

    it.each<[string, unknown, string]>([
      [
        'apply_text_normalization',
        'yes',
        'apply_text_normalization "yes" is not allowed for vendor_c; use one of auto, on, off',
      ],
      [
        'preferred_alignment',
        'both',
        'preferred_alignment "both" is not allowed for vendor_c; use one of normalized, original',
      ],
      ['enable_logging', 'false', 'enable_logging must be true or false'],
      ['enable_ssml_parsing', 0, 'enable_ssml_parsing must be true or false'],
    ])('refuses %s %p', (name, value, message) => {
      expect(refusal(body('vendor_c', { [name]: value }))).toBe(message);
    });
  });

  describe('leaving an option out matches sending its default (every vendor)', () => {
    it.each<[VendorId, Record<string, unknown>]>([
      [
        'vendor_a',
        { temperature: 0.6, bitrate: '128k', dict_id: null, min_buffer_size: null, max_chunk_length: null },
      ],
      [
        'vendor_a',
        { model: 'vendor_a/a_model_2', voice: 'p', pitch: 0, loudness: 1.0, enable_preprocessing: false },
      ],
      [
        'vendor_c',
        {
          apply_text_normalization: 'auto',
          enable_ssml_parsing: false,
          enable_logging: true,
          sync_alignment: true,
          bitrate: '48k',
          voice_settings: null,
          pronunciation_dictionary_locators: null,
          preferred_alignment: null,
          apply_language_text_normalization: null,
        },
      ],
      ['vendor_c', { response_format: 'mp3', sample_rate: 44100, bitrate: '128k' }],
      ['vendor_d', { model: 'vendor_d/d_model_3', instructions: null }],
      ['vendor_e', { mip_opt_out: false, bit_rate: 48000 }],
      ['vendor_f', { bit_rate: 128000, optimize_streaming_latency: null, text_normalization: null }],
      ['vendor_g', { reduce_silence: null }],
      [
        'vendor_i',
        {
          response_format: 'pcm',
          word_timestamps: true,
          volume: null,
          emotion: null,
          pronunciation_dict_id: null,
        },
      ],
      ['vendor_j', { instructions: null, speaker: null, speakers: null }],
      ['vendor_a', { speed: 1.0, sample_rate: 24000, response_format: 'mp3', stream_format: 'audio' }],
      ['vendor_h', { speed: 1.0, language: 'en', sample_rate: 24000 }],
    ])('%s with %p', (vendor, defaults) => {
      const keys = ['model', 'voice', 'response_format', 'sample_rate'] as const;
      const without = body(
        vendor,
        Object.fromEntries(keys.filter((k) => k in defaults).map((k) => [k, defaults[k]])),
      );
      expect(settingsOf(body(vendor, defaults))).toEqual(settingsOf(without));
    });

    it('sending a value other than the default changes the settings', () => {
      expect(settingsOf(body('vendor_a', { temperature: 0.7 }))).not.toEqual(settingsOf(body('vendor_a')));
    });
  });
});

describe('parseSpeechBody: every vendor token is a provider', () => {
  it.each(VENDOR_IDS)('%s', (vendor) => {
    expect(parseSpeechBody(body(vendor)).def.id).toBe(vendor);
  });
});
