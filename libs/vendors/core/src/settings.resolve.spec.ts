import { RouterError } from '@router/contracts';
import type { OptionSpec } from './catalogue.types';
import { checkVendorDefinition } from './vendor-definition.check';
import type { LanguageRule, OptionRule, VendorDefinition } from './vendor-definition.types';
import { resolveSettings, type ClientSettings, type SettingsSurface } from './settings.resolve';
import { testVendor } from './test-vendor.fixture';

/**
 * The generic validator against this lib's fixture vendor and variants of it (the real vendors live in
 * folders that depend on this lib; libs/native/src/speech runs the same validator over all ten).
 */
const base = testVendor();

function client(overrides: Partial<ClientSettings> = {}): ClientSettings {
  return { model: 'c_model_1', voice: 'one', options: {}, ...overrides };
}

function refusal(run: () => unknown): RouterError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(RouterError);
    const routerError = error as RouterError;
    expect(routerError.code).toBe('bad_request');
    expect(routerError.status).toBe(400);
    return routerError;
  }
  throw new Error('expected a bad_request, but the settings were accepted');
}

function option(partial: Partial<OptionSpec> & Pick<OptionSpec, 'name' | 'type'>): OptionSpec {
  return {
    default: null,
    nullable: true,
    min: null,
    max: null,
    values: null,
    models: null,
    description: 'A test option.',
    ...partial,
  };
}

/** The fixture with extra options and rules, checked for consistency so the variant itself is sound. */
function withOptions(options: OptionSpec[], rules: Record<string, OptionRule>): VendorDefinition {
  const def: VendorDefinition = {
    ...base,
    catalogue: { ...base.catalogue, options: [...base.catalogue.options, ...options] },
    optionRules: { ...base.optionRules, ...rules },
  };
  expect(checkVendorDefinition(def)).toEqual([]);
  return def;
}

const richDef = withOptions(
  [
    option({ name: 'settings', type: 'object' }),
    option({ name: 'instructions', type: 'string', models: ['c_model_2'] }),
    option({ name: 'quiet', type: 'boolean', default: false, nullable: false }),
    option({ name: 'pairs', type: 'object', models: ['c_model_1'] }),
    option({ name: 'pick', type: 'string' }),
    option({ name: 'free', type: 'object' }),
    option({ name: 'list', type: 'array' }),
  ],
  {
    settings: {
      fields: [
        { name: 'stability', type: 'number', required: true, nullable: false, min: 0, max: 1 },
        { name: 'boost', type: 'number', required: true, nullable: false, min: 0, max: 1 },
        { name: 'speed', type: 'number', required: false, nullable: false, min: 0.7, max: 1.2 },
        { name: 'loud', type: 'boolean', required: false, nullable: false },
        { name: 'mode', type: 'string', required: false, nullable: true, values: ['a', 'b'] },
      ],
      dialogueFields: ['stability'],
    },
    instructions: { outsideModels: 'ignore' },
    pairs: { entries: 2, requires: ['pick'], replacesVoice: true },
    pick: { requires: ['pairs'] },
  },
);

describe('resolveSettings: the canonical settings', () => {
  it('fills every default and keeps the client values', () => {
    expect(resolveSettings(base, client(), 'speech')).toEqual({
      vendor: 'vendor_c',
      model: 'c_model_1',
      voice: 'one',
      language: null,
      speed: 1,
      sampleRate: 24000,
      format: 'mp3',
      options: { bitrate: '48k', rate: 48000 },
    });
  });

  it('gives exactly the contract shape (no extra keys)', () => {
    expect(Object.keys(resolveSettings(base, client(), 'speech')).sort()).toEqual(
      ['format', 'language', 'model', 'options', 'sampleRate', 'speed', 'vendor', 'voice'].sort(),
    );
  });

  it.each<[string, Partial<ClientSettings>]>([
    ['sample rate', { sampleRate: 24000 }],
    ['format', { format: 'mp3' }],
    ['speed', { speed: 1 }],
    ['bitrate at 24000', { options: { bitrate: '48k' } }],
    ['rate', { options: { rate: 48000 } }],
    ['nullable options set to null', { options: { bitrate: null, rate: null, locators: null } }],
    ['undefined options', { options: { rate: undefined } }],
    ['nulls at the top level', { language: null, speed: null, sampleRate: null, format: null }],
  ])('sending the default %s gives the same settings as leaving it out', (_what, overrides) => {
    expect(resolveSettings(base, client(overrides), 'speech')).toEqual(
      resolveSettings(base, client(), 'speech'),
    );
  });

  it('orders options as the catalogue does, whatever order the client used', () => {
    const settings = resolveSettings(base, client({ options: { rate: 32000, bitrate: '48k' } }), 'speech');
    expect(Object.keys(settings.options)).toEqual(['bitrate', 'rate']);
    expect(JSON.stringify(settings)).toBe(
      JSON.stringify(resolveSettings(base, client({ options: { bitrate: '48k', rate: 32000 } }), 'speech')),
    );
  });

  it('fills a per-rate default at the chosen rate', () => {
    const at44100 = resolveSettings(base, client({ sampleRate: 44100 }), 'speech');
    expect(at44100.options['bitrate']).toBe('128k');
    const at24000 = resolveSettings(base, client({ sampleRate: 24000 }), 'speech');
    expect(at24000.options['bitrate']).toBe('48k');
  });

  it('leaves out a format-bound option with another format', () => {
    const settings = resolveSettings(base, client({ format: 'pcm' }), 'speech');
    expect(settings.options).toEqual({ rate: 48000 });
  });

  it('fills a model-bound default only for its model', () => {
    expect(resolveSettings(base, client({ model: 'c_model_2', voice: 'x' }), 'speech').options['tempo']).toBe(
      1,
    );
    expect(resolveSettings(base, client(), 'speech').options).not.toHaveProperty('tempo');
  });

  it('uses the format default rate and normalises -0', () => {
    const settings = resolveSettings(base, client({ format: 'mulaw' }), 'speech');
    expect(settings.sampleRate).toBe(8000);
    const negative = resolveSettings(
      richDef,
      client({ options: { settings: { stability: -0, boost: 1 } } }),
      'speech',
    );
    expect(Object.is((negative.options['settings'] as { stability: number }).stability, 0)).toBe(true);
  });

  it('copies client values so later changes to the client object cannot reach the settings', () => {
    const locators = [{ id: 'd1' }];
    const settings = resolveSettings(base, client({ options: { locators } }), 'speech');
    locators[0].id = 'changed';
    expect(settings.options['locators']).toEqual([{ id: 'd1' }]);
  });
});

describe('resolveSettings: model, voice, language, speed', () => {
  it('refuses an unknown model, naming model and the choices', () => {
    expect(refusal(() => resolveSettings(base, client({ model: 'c_model_9' }), 'speech')).message).toBe(
      'model "c_model_9" is not a model of vendor_c; use one of c_model_1, c_model_2',
    );
    expect(refusal(() => resolveSettings(base, client({ model: '' }), 'speech')).message).toBe(
      'model is required',
    );
  });

  it('refuses a voice outside a listed model, accepts any voice for a live-listed model', () => {
    expect(refusal(() => resolveSettings(base, client({ voice: 'three' }), 'speech')).message).toBe(
      'voice "three" does not belong to model c_model_1',
    );
    expect(resolveSettings(base, client({ model: 'c_model_2', voice: 'anything' }), 'speech').voice).toBe(
      'anything',
    );
  });

  it.each<[unknown, string]>([
    ['', 'voice is required'],
    [undefined, 'voice is required'],
    [null, 'voice is required'],
    [7, 'voice must be a string'],
  ])('refuses voice %p', (voice, message) => {
    expect(refusal(() => resolveSettings(base, client({ voice: voice as string }), 'speech')).message).toBe(
      message,
    );
  });

  const languageDef = (rule: LanguageRule): VendorDefinition => ({ ...base, language: rule });

  it.each<[LanguageRule, string | null | undefined, string | null | RegExp]>([
    ['required', 'de', 'de'],
    ['required', undefined, /^language is required for vendor_c; use one of en, de$/],
    ['required', null, /^language is required/],
    ['required', 'fr', /^language "fr" is not available for model c_model_1; use one of en, de$/],
    ['optional', undefined, null],
    ['optional', 'en', 'en'],
    ['optional', 'fr', /^language "fr" is not available/],
    ['optional-default-en', undefined, 'en'],
    ['optional-default-en', 'de', 'de'],
    ['optional-default-en', 'xx', /^language "xx"/],
    ['none', undefined, null],
    ['none', null, null],
    ['none', 'en', /^language is not a setting of vendor_c/],
    ['optional', '', /^language must not be empty$/],
  ])('language rule %s with %p gives %p', (rule, language, expected) => {
    const run = (): unknown => resolveSettings(languageDef(rule), client({ language }), 'speech').language;
    if (expected instanceof RegExp) expect(refusal(run).message).toMatch(expected);
    else expect(run()).toBe(expected);
  });

  it.each<[number | null | undefined, number | null | RegExp]>([
    [undefined, 1],
    [null, 1],
    [0.5, 0.5],
    [2, 2],
    [0.49, /^speed must be between 0\.5 and 2\.0 for vendor_c$/],
    [2.01, /^speed must be between 0\.5 and 2\.0 for vendor_c$/],
    [Number.NaN, /^speed must be a number$/],
  ])('speed %p gives %p', (speed, expected) => {
    const run = (): unknown => resolveSettings(base, client({ speed }), 'speech').speed;
    if (expected instanceof RegExp) expect(refusal(run).message).toMatch(expected);
    else expect(run()).toBe(expected);
  });

  it('refuses a string speed (no coercion)', () => {
    expect(
      refusal(() => resolveSettings(base, client({ speed: '1.0' as unknown as number }), 'speech')).message,
    ).toBe('speed must be a number');
  });

  it('refuses speed for a vendor without one, pointing to the option that carries it', () => {
    const noSpeed: VendorDefinition = {
      ...richDef,
      catalogue: { ...richDef.catalogue, speed: null },
      speedDefault: null,
    };
    expect(refusal(() => resolveSettings(noSpeed, client({ speed: 1 }), 'speech')).message).toBe(
      'speed is not a setting of vendor_c; use settings.speed',
    );
    expect(resolveSettings(noSpeed, client(), 'speech').speed).toBeNull();
    const bare: VendorDefinition = {
      ...base,
      catalogue: { ...base.catalogue, speed: null },
      speedDefault: null,
    };
    expect(refusal(() => resolveSettings(bare, client({ speed: 1 }), 'speech')).message).toBe(
      'speed is not a setting of vendor_c',
    );
  });
});

describe('resolveSettings: format and sample rate', () => {
  it.each<[string | undefined, string | RegExp]>([
    [undefined, 'mp3'],
    ['pcm', 'pcm'],
    ['mulaw', 'mulaw'],
    ['aac', /^response_format aac is not available for vendor_c; use one of pcm, wav, mp3, mulaw$/],
    ['flac', /^response_format flac is never available: .* use one of pcm, wav, mp3, mulaw for vendor_c$/],
    ['opus', /^response_format opus is never available/],
    ['ogg', /^response_format must be one of pcm, wav, mp3, aac, mulaw, alaw, flac, opus$/],
    ['MP3', /^response_format must be one of/],
  ])('format %p gives %p', (format, expected) => {
    const run = (): unknown => resolveSettings(base, client({ format }), 'speech').format;
    if (expected instanceof RegExp) expect(refusal(run).message).toMatch(expected);
    else expect(run()).toBe(expected);
  });

  it('refuses the default mp3 for a vendor without it, naming its formats', () => {
    const noMp3: VendorDefinition = {
      ...base,
      catalogue: { ...base.catalogue, formats: ['pcm', 'wav'] },
      formatRules: {},
      optionRules: { locators: base.optionRules['locators'] },
    };
    expect(refusal(() => resolveSettings(noMp3, client(), 'speech')).message).toBe(
      'response_format defaults to mp3, which vendor_c does not produce; set response_format to one of pcm, wav',
    );
  });

  it.each<[SettingsSurface, string, number | undefined, number | RegExp]>([
    ['speech', 'pcm', 44100, 44100],
    [
      'stream',
      'pcm',
      44100,
      /^sample_rate 44100 is not available for vendor_c pcm when streaming .*; use one of 8000, 16000, 24000$/,
    ],
    [
      'speech',
      'pcm',
      22050,
      /^sample_rate 22050 is not available for vendor_c pcm; use one of 8000, 16000, 24000, 44100$/,
    ],
    [
      'speech',
      'mp3',
      16000,
      /^sample_rate 16000 is not available for vendor_c mp3; use one of 24000, 44100$/,
    ],
    ['stream', 'mp3', 16000, /^sample_rate 16000 is not available for vendor_c mp3; use 24000$/],
    ['speech', 'mulaw', 16000, /^sample_rate 16000 is not available for vendor_c mulaw; use 8000$/],
    ['speech', 'mulaw', undefined, 8000],
    ['stream', 'mulaw', undefined, 8000],
    ['stream', 'pcm', undefined, 24000],
    ['speech', 'pcm', 12345, /^sample_rate must be one of 8000, 16000, 22050, 24000, 32000, 44100, 48000$/],
  ])('%s %s at %p gives %p', (surface, format, sampleRate, expected) => {
    const run = (): unknown => resolveSettings(base, client({ format, sampleRate }), surface).sampleRate;
    if (expected instanceof RegExp) expect(refusal(run).message).toMatch(expected);
    else expect(run()).toBe(expected);
  });

  it('refuses a string sample rate (no coercion)', () => {
    const run = (): unknown =>
      resolveSettings(base, client({ sampleRate: '24000' as unknown as number }), 'speech');
    expect(refusal(run).message).toMatch(/^sample_rate must be one of/);
  });
});

describe('resolveSettings: options', () => {
  const resolve = (options: Record<string, unknown>, overrides: Partial<ClientSettings> = {}) =>
    resolveSettings(richDef, client({ options, ...overrides }), 'speech').options;
  const refused = (options: Record<string, unknown>, overrides: Partial<ClientSettings> = {}): string =>
    refusal(() => resolve(options, overrides)).message;

  it('refuses an unknown option, naming it and listing the known ones', () => {
    expect(refusal(() => resolveSettings(base, client({ options: { foo: 1 } }), 'speech')).message).toBe(
      'unknown option "foo" for vendor_c; its options are bitrate, tempo, rate, locators',
    );
    expect(refused({ ['__proto__']: 1 })).toMatch(/^unknown option "__proto__"/);
    const noOptions: VendorDefinition = {
      ...base,
      catalogue: { ...base.catalogue, options: [] },
      optionRules: {},
    };
    expect(refusal(() => resolveSettings(noOptions, client({ options: { foo: 1 } }), 'speech')).message).toBe(
      'unknown option "foo" for vendor_c; vendor_c takes no options',
    );
  });

  it('refuses a non-object options value', () => {
    expect(
      refusal(() =>
        resolveSettings(base, client({ options: [] as unknown as Record<string, unknown> }), 'speech'),
      ).message,
    ).toBe('options must be an object');
  });

  it.each<[string, Record<string, unknown>, Partial<ClientSettings>, RegExp]>([
    [
      'model-bound option on another model',
      { tempo: 1.5 },
      {},
      /^tempo applies only to vendor_c model c_model_2, not to c_model_1$/,
    ],
    [
      'format-bound option on another format',
      { bitrate: '48k' },
      { format: 'pcm' },
      /^bitrate applies only to mp3 audio, not to pcm$/,
    ],
    ['non-nullable null', { quiet: null }, {}, /^quiet must not be null$/],
    ['wrong boolean type', { quiet: 'true' }, {}, /^quiet must be true or false$/],
    ['number as string', { tempo: '1.0' }, { model: 'c_model_2', voice: 'x' }, /^tempo must be a number$/],
    [
      'number below range',
      { tempo: 0.4 },
      { model: 'c_model_2', voice: 'x' },
      /^tempo must be between 0\.5 and 2\.0 for vendor_c$/,
    ],
    [
      'number above range',
      { tempo: 2.5 },
      { model: 'c_model_2', voice: 'x' },
      /^tempo must be between 0\.5 and 2\.0/,
    ],
    ['integer not integral', { rate: 32000.5 }, {}, /^rate must be an integer$/],
    [
      'integer outside values',
      { rate: 44100 },
      {},
      /^rate 44100 is not allowed for vendor_c; use one of 32000, 48000$/,
    ],
    ['integer as string', { rate: '32000' }, {}, /^rate must be a number$/],
    [
      'string outside rate values',
      { bitrate: '128k' },
      {},
      /^bitrate "128k" is not allowed at 24000 Hz for vendor_c mp3; use 48k$/,
    ],
    [
      'string outside values',
      { bitrate: '64k' },
      { sampleRate: 44100 },
      /^bitrate "64k" is not allowed at 44100 Hz for vendor_c mp3; use one of 32k, 128k$/,
    ],
    ['array not array', { locators: { id: 'x' } }, {}, /^locators must be an array$/],
    [
      'array too long',
      { locators: [{ id: 'a' }, { id: 'b' }, { id: 'c' }, { id: 'd' }] },
      {},
      /^locators takes at most 3 items \(it has 4\)$/,
    ],
    ['array item missing field', { locators: [{ id: 'a' }, {}] }, {}, /^locators\[1\]\.id is required$/],
    [
      'array item unknown field',
      { locators: [{ id: 'a', v: 1 }] },
      {},
      /^locators\[0\]\.v is not a field of locators\[0\]; use id$/,
    ],
    ['array item wrong type', { locators: [{ id: 3 }] }, {}, /^locators\[0\]\.id must be a string$/],
    ['array item not object', { locators: ['a'] }, {}, /^locators\[0\] must be an object$/],
    ['object not object', { settings: [1] }, {}, /^settings must be an object$/],
    ['object missing required', { settings: { stability: 0.5 } }, {}, /^settings\.boost is required$/],
    [
      'object unknown field',
      { settings: { stability: 0.5, boost: 0.5, x: 1 } },
      {},
      /^settings\.x is not a field of settings; use one of stability, boost, speed, loud, mode$/,
    ],
    [
      'object field range',
      { settings: { stability: 1.1, boost: 0.5 } },
      {},
      /^settings\.stability must be between 0\.0 and 1\.0$/,
    ],
    [
      'object field low',
      { settings: { stability: 0.5, boost: 0.5, speed: 0.69 } },
      {},
      /^settings\.speed must be between 0\.7 and 1\.2$/,
    ],
    [
      'object field high',
      { settings: { stability: 0.5, boost: 0.5, speed: 1.21 } },
      {},
      /^settings\.speed must be between 0\.7 and 1\.2$/,
    ],
    [
      'object field boolean',
      { settings: { stability: 0.5, boost: 0.5, loud: 1 } },
      {},
      /^settings\.loud must be true or false$/,
    ],
    [
      'object field null',
      { settings: { stability: null, boost: 0.5 } },
      {},
      /^settings\.stability must not be null$/,
    ],
    [
      'object field values',
      { settings: { stability: 0.5, boost: 0.5, mode: 'c' } },
      {},
      /^settings\.mode "c" is not allowed; use one of a, b$/,
    ],
    [
      'dialogue model field',
      { settings: { stability: 0.5, boost: 0.5 } },
      { model: 'c_model_2', voice: 'x' },
      /^settings\.boost is not available with dialogue model c_model_2; settings takes only stability$/,
    ],
    ['free object not object', { free: 'x' }, {}, /^free must be an object$/],
    [
      'free object non-JSON',
      { free: { a: Number.POSITIVE_INFINITY } },
      {},
      /^free\.a must be a finite number$/,
    ],
    ['free array non-JSON', { list: [() => 1] }, {}, /^list\[0\] must be JSON$/],
    ['ignored option still type-checked', { instructions: 5 }, {}, /^instructions must be a string$/],
  ])('refuses %s', (_what, options, overrides, message) => {
    expect(refused(options, overrides)).toMatch(message);
  });

  it.each<[string, Record<string, unknown>, Partial<ClientSettings>, Record<string, unknown>, string[]]>([
    ['range bottom edge', { tempo: 0.5 }, { model: 'c_model_2', voice: 'x' }, { tempo: 0.5 }, []],
    ['range top edge', { tempo: 2 }, { model: 'c_model_2', voice: 'x' }, { tempo: 2 }, []],
    [
      'three locators',
      { locators: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] },
      {},
      { locators: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] },
      [],
    ],
    ['empty locators', { locators: [] }, {}, { locators: [] }, []],
    [
      'object with optional fields, nullable null dropped',
      { settings: { boost: 1, stability: 0, speed: 0.7, mode: null } },
      {},
      { settings: { stability: 0, boost: 1, speed: 0.7 } },
      [],
    ],
    [
      'dialogue model with stability only',
      { settings: { stability: 0.3 } },
      { model: 'c_model_2', voice: 'x' },
      { settings: { stability: 0.3 } },
      [],
    ],
    ['free object', { free: { a: [1, 'b', null] } }, {}, { free: { a: [1, 'b', null] } }, []],
    ['ignored option dropped on another model', { instructions: 'calm' }, {}, {}, ['instructions']],
    [
      'ignored option kept on its model',
      { instructions: 'calm' },
      { model: 'c_model_2', voice: 'x' },
      { instructions: 'calm' },
      [],
    ],
    [
      'null for another model is no setting',
      { instructions: null, pairs: null },
      { model: 'c_model_2', voice: 'x' },
      {},
      ['instructions', 'pairs'],
    ],
    ['null settings mean the stored ones', { settings: null }, {}, {}, ['settings']],
  ])('accepts %s', (_what, options, overrides, expected, absent) => {
    const resolved = resolve(options, overrides);
    expect(resolved).toEqual(expect.objectContaining(expected));
    for (const name of absent) expect(resolved).not.toHaveProperty(name);
  });

  describe('an option that replaces the voice', () => {
    const pairs = { A: 'one', B: 'two' };

    it('is accepted with its selector and the selected voice', () => {
      expect(resolve({ pairs, pick: 'A' })).toEqual(expect.objectContaining({ pairs, pick: 'A' }));
      expect(resolve({ pairs, pick: 'B' }, { voice: 'two' })).toEqual(expect.objectContaining({ pick: 'B' }));
    });

    it.each<[string, Record<string, unknown>, Partial<ClientSettings>, RegExp]>([
      ['without its selector', { pairs }, {}, /^pairs requires pick$/],
      ['selector alone', { pick: 'A' }, {}, /^pick requires pairs$/],
      [
        'selector naming no entry',
        { pairs, pick: 'C' },
        {},
        /^pick "C" is not one of the pairs names \(A, B\)$/,
      ],
      [
        'voice other than the selected one',
        { pairs, pick: 'B' },
        {},
        /^voice must be "two", the voice of pick "B", when pairs is set$/,
      ],
      [
        'one entry',
        { pairs: { A: 'one' }, pick: 'A' },
        {},
        /^pairs must name exactly 2 entries, each with a voice \(it has 1\)$/,
      ],
      [
        'three entries',
        { pairs: { A: 'one', B: 'two', C: 'one' }, pick: 'A' },
        {},
        /^pairs must name exactly 2 entries/,
      ],
      [
        'a voice of another model',
        { pairs: { A: 'one', B: 'three' }, pick: 'A' },
        {},
        /^pairs\.B: voice "three" does not belong to model c_model_1$/,
      ],
      ['a non-string voice', { pairs: { A: 'one', B: 2 }, pick: 'A' }, {}, /^pairs\.B must be a voice id$/],
      ['an empty name', { pairs: { A: 'one', ' ': 'two' }, pick: 'A' }, {}, /^pairs has an empty name$/],
      ['not an object', { pairs: 'one', pick: 'A' }, {}, /^pairs must be an object of names/],
      [
        'another model',
        { pairs, pick: 'A' },
        { model: 'c_model_2', voice: 'one' },
        /^pairs applies only to vendor_c model c_model_1, not to c_model_2$/,
      ],
    ])('is refused %s', (_what, options, overrides, message) => {
      expect(refused(options, overrides)).toMatch(message);
    });

    it('keeps a name such as __proto__ as a plain key', () => {
      const tricky = JSON.parse('{"__proto__": "one", "B": "two"}') as Record<string, unknown>;
      const options = resolve({ pairs: tricky, pick: '__proto__' });
      expect(Object.keys(options['pairs'] as object)).toEqual(['__proto__', 'B']);
      expect(Object.getPrototypeOf(options['pairs'])).toBe(Object.prototype);
    });
  });
});

describe('resolveSettings: the vendor mode (a mirror reading its vendor own request)', () => {
  /** The rich fixture whose `settings` the vendor fills where a request leaves fields out. */
  const filledDef: VendorDefinition = {
    ...richDef,
    optionRules: {
      ...richDef.optionRules,
      settings: { ...richDef.optionRules['settings'], vendorFillsFields: true },
    },
  };
  const vendor = (
    options: Record<string, unknown>,
    overrides: Partial<ClientSettings> = {},
    def = filledDef,
  ) => resolveSettings(def, client({ options, ...overrides }), 'speech', 'vendor').options;
  const native = (
    options: Record<string, unknown>,
    overrides: Partial<ClientSettings> = {},
    def = filledDef,
  ) => resolveSettings(def, client({ options, ...overrides }), 'speech').options;

  it('is a sound definition fact, only on objects with fields', () => {
    expect(checkVendorDefinition(filledDef)).toEqual([]);
    const misplaced: VendorDefinition = {
      ...filledDef,
      optionRules: { ...filledDef.optionRules, free: { vendorFillsFields: true } },
    };
    expect(checkVendorDefinition(misplaced)).toEqual([
      'vendor_c option free rule: vendorFillsFields on an option without object fields',
    ]);
  });

  it('fills the same defaults as the native mode', () => {
    expect(resolveSettings(filledDef, client(), 'speech', 'vendor')).toEqual(
      resolveSettings(filledDef, client(), 'speech'),
    );
    expect(vendor({ quiet: true, settings: { stability: 0.5, boost: 0.5 } })).toEqual(
      native({ quiet: true, settings: { stability: 0.5, boost: 0.5 } }),
    );
  });

  it('takes partial settings the vendor fills, as sent, where the native mode requires every field', () => {
    expect(refusal(() => native({ settings: { speed: 1.1 } })).message).toBe(
      'settings.stability is required',
    );
    expect(vendor({ settings: { speed: 1.1 } })['settings']).toEqual({ speed: 1.1 });
    expect(vendor({ settings: { speed: 1.1, stability: null } })['settings']).toEqual({ speed: 1.1 });
    expect(vendor({ settings: { boost: 0.2, loud: false } })['settings']).toEqual({
      boost: 0.2,
      loud: false,
    });
  });

  it('takes settings with every field left to the vendor as the option left out', () => {
    const left = vendor({});
    for (const settings of [{}, { stability: null, boost: null }, null]) {
      expect(vendor({ settings })).toEqual(left);
    }
    expect(left).not.toHaveProperty('settings');
  });

  it('still requires the fields of an object the vendor does not fill', () => {
    expect(refusal(() => vendor({ settings: { stability: 0.5 } }, {}, richDef)).message).toBe(
      'settings.boost is required',
    );
    expect(refusal(() => vendor({ locators: [{}] })).message).toBe('locators[0].id is required');
  });

  it('keeps an option outside the catalogue as sent, after the catalogue options', () => {
    expect(refusal(() => native({ seed: 7 })).message).toMatch(/^unknown option "seed"/);
    const options = vendor({ seed: 7, quiet: true, extra: { a: [1, null] } });
    expect(options).toMatchObject({ seed: 7, quiet: true, extra: { a: [1, null] } });
    expect(Object.keys(options).slice(-2)).toEqual(['seed', 'extra']);
    const tricky = vendor(JSON.parse('{"__proto__": {"x": 1}}') as Record<string, unknown>);
    expect(Object.keys(tricky)).toContain('__proto__');
    expect(Object.getPrototypeOf(tricky)).toBe(Object.prototype);
  });

  it('keeps fields outside an object rule as sent, after the known ones, in objects and array items', () => {
    expect(refusal(() => native({ settings: { stability: 0.5, boost: 0.5, x: 1 } })).message).toMatch(
      /^settings\.x is not a field of settings/,
    );
    const settings = vendor({ settings: { x: [1], speed: 1, stability: 0.5 } })['settings'];
    expect(settings).toEqual({ stability: 0.5, speed: 1, x: [1] });
    expect(Object.keys(settings as object)).toEqual(['stability', 'speed', 'x']);
    expect(vendor({ locators: [{ v: 2, id: 'a' }] })['locators']).toEqual([{ id: 'a', v: 2 }]);
  });

  it.each<[string, Record<string, unknown>, Partial<ClientSettings>, RegExp]>([
    ['a field out of range', { settings: { stability: 1.1 } }, {}, /^settings\.stability must be between/],
    ['a field of the wrong type', { settings: { speed: '1.0' } }, {}, /^settings\.speed must be a number$/],
    ['a boolean field as a number', { settings: { loud: 1 } }, {}, /^settings\.loud must be true or false$/],
    ['a field outside its values', { settings: { mode: 'c' } }, {}, /^settings\.mode "c" is not allowed/],
    [
      'a field the dialogue model lacks',
      { settings: { boost: 0.5 } },
      { model: 'c_model_2', voice: 'x' },
      /^settings\.boost is not available with dialogue model c_model_2/,
    ],
    [
      'an unknown field on the dialogue model, whose list is closed',
      { settings: { x: 1 } },
      { model: 'c_model_2', voice: 'x' },
      /^settings\.x is not a field of settings/,
    ],
    ['an option out of range', { tempo: 2.5 }, { model: 'c_model_2', voice: 'x' }, /^tempo must be between/],
    ['an option of the wrong type', { quiet: 'true' }, {}, /^quiet must be true or false$/],
    ['null for an option that is not nullable', { quiet: null }, {}, /^quiet must not be null$/],
    ['too many items', { locators: [{ id: 'a' }, { id: 'b' }, { id: 'c' }, { id: 'd' }] }, {}, /at most 3/],
    ['an unknown option that is not JSON', { seed: Number.NaN }, {}, /^seed must be a finite number$/],
  ])('still refuses what the vendor refuses: %s', (_what, options, overrides, message) => {
    expect(refusal(() => vendor(options, overrides)).message).toMatch(message);
  });

  it('takes a dialogue model with its field left to the vendor', () => {
    expect(vendor({ settings: {} }, { model: 'c_model_2', voice: 'x' })).not.toHaveProperty('settings');
    expect(vendor({ settings: { stability: 0.2 } }, { model: 'c_model_2', voice: 'x' })['settings']).toEqual({
      stability: 0.2,
    });
  });
});
