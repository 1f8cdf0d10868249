import { RouterError } from '@router/contracts';
import { getVendor, VENDOR_IDS, type VendorId } from '@router/vendors';
import { resolveSettings, type ClientSettings, type SettingsSurface } from '@router/vendors-core';

/**
 * `resolveSettings` over the real catalogue of all ten vendors, on both surfaces: the speech endpoint
 * (`speech_sample_rates`) and `/v1/stream` (`sample_rates`, options in an `options` object).
 */
const MINIMAL: Record<VendorId, ClientSettings> = {
  vendor_a: { model: 'a_model_1', voice: 'aarila', language: 'hi-IN', options: {} },
  vendor_b: { model: 'b_model_1', voice: 'v1', language: 'hi', format: 'pcm', options: {} },
  vendor_c: { model: 'c_model_1', voice: 'v1', options: {} },
  vendor_d: { model: 'd_model_1', voice: 'brook', options: {} },
  vendor_e: { model: 'e_model_1', voice: 'v1', options: {} },
  vendor_f: { model: 'f_model_1', voice: 'v1', options: {} },
  vendor_g: { model: 'g_model_1', voice: 'v1', language: 'en', options: {} },
  vendor_h: { model: 'h_model_1', voice: 'v1', format: 'pcm', options: {} },
  vendor_i: { model: 'i_model_1', voice: 'v1', options: {} },
  vendor_j: { model: 'j_model_1', voice: 'Kael', format: 'pcm', options: {} },
};

const settings = (
  vendor: VendorId,
  overrides: Partial<ClientSettings> = {},
  surface: SettingsSurface = 'stream',
) => resolveSettings(getVendor(vendor), { ...MINIMAL[vendor], ...overrides }, surface);

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(RouterError);
    expect((error as RouterError).code).toBe('bad_request');
    return (error as RouterError).message;
  }
  throw new Error('expected a bad_request, but the settings were accepted');
}

const refused = (vendor: VendorId, overrides: Partial<ClientSettings>, surface: SettingsSurface = 'stream') =>
  refusal(() => settings(vendor, overrides, surface));

describe('language rules for client settings (all ten vendors)', () => {
  /** The spec's rule, restated: what leaving language out gives, and a code the vendor's first model takes. */
  const RULES: [VendorId, 'required' | 'optional' | 'en' | 'none', string | null][] = [
    ['vendor_a', 'required', 'te-IN'],
    ['vendor_b', 'required', 'bn'],
    ['vendor_c', 'optional', 'en'],
    ['vendor_d', 'none', null],
    ['vendor_e', 'none', null],
    ['vendor_f', 'optional', 'ko'],
    ['vendor_g', 'required', 'ja'],
    ['vendor_h', 'en', 'ta'],
    ['vendor_i', 'en', 'de'],
    ['vendor_j', 'none', null],
  ];

  it('covers every vendor', () => {
    expect(RULES.map(([v]) => v)).toEqual([...VENDOR_IDS]);
  });

  describe.each(RULES)('%s (%s)', (vendor, rule, code) => {
    it('left out', () => {
      const run = () => settings(vendor, { language: undefined }).language;
      if (rule === 'required')
        expect(refusal(run)).toMatch(new RegExp(`^language is required for ${vendor}; use one of `));
      else expect(run()).toBe(rule === 'en' ? 'en' : null);
    });

    it('null is the same as left out', () => {
      const run = () => settings(vendor, { language: null });
      if (rule === 'required') expect(refusal(run)).toMatch(/^language is required/);
      else expect(run()).toEqual(settings(vendor, { language: undefined }));
    });

    it('a code of the model', () => {
      if (code === null) {
        expect(refusal(() => settings(vendor, { language: 'en' }))).toBe(
          `language is not a setting of ${vendor} (the vendor takes none); leave it out`,
        );
      } else {
        expect(settings(vendor, { language: code }).language).toBe(code);
      }
    });

    it('a code outside the model', () => {
      if (code === null)
        return expect(refused(vendor, { language: 'xx' })).toMatch(/^language is not a setting/);
      const model = MINIMAL[vendor].model;
      expect(refused(vendor, { language: 'xx' })).toMatch(
        new RegExp(`^language "xx" is not available for model ${model}; use `),
      );
    });
  });
});

describe('sample rates by surface', () => {
  const RATES = [8000, 16000, 22050, 24000, 32000, 44100, 48000];
  /** Streaming rates per vendor and format (the catalogue's sample_rates, narrowed by the format rules). */
  const STREAM: [VendorId, string, number[]][] = [
    ['vendor_a', 'pcm', [8000, 16000, 22050, 24000]],
    ['vendor_a', 'mp3', [8000, 16000, 22050, 24000]],
    ['vendor_b', 'wav', [8000, 16000, 22050, 24000]],
    ['vendor_c', 'pcm', RATES],
    ['vendor_c', 'mp3', [22050, 24000, 44100]],
    ['vendor_c', 'alaw', [8000]],
    ['vendor_d', 'aac', [24000]],
    ['vendor_e', 'mulaw', RATES],
    ['vendor_f', 'pcm', [8000, 16000, 22050, 24000, 44100, 48000]],
    ['vendor_g', 'alaw', [8000, 16000, 24000, 32000, 44100, 48000]],
    ['vendor_h', 'wav', [8000, 16000, 24000, 44100]],
    ['vendor_i', 'pcm', [8000, 16000, 22050, 24000, 44100, 48000]],
    ['vendor_j', 'wav', [24000]],
  ];

  it.each(STREAM)('%s %s streams at %p', (vendor, format, allowed) => {
    for (const rate of RATES) {
      const overrides = { format, sampleRate: rate };
      if (allowed.includes(rate)) expect(settings(vendor, overrides).sampleRate).toBe(rate);
      else
        expect(refused(vendor, overrides)).toMatch(
          new RegExp(`^sample_rate ${rate} is not available for ${vendor} ${format}`),
        );
    }
  });

  it.each([32000, 44100, 48000])('vendor_a %p Hz: speech endpoint only, and the message says so', (rate) => {
    expect(settings('vendor_a', { sampleRate: rate, format: 'pcm' }, 'speech').sampleRate).toBe(rate);
    expect(refused('vendor_a', { sampleRate: rate, format: 'pcm' })).toBe(
      `sample_rate ${rate} is not available for vendor_a pcm when streaming (only POST /v1/audio/speech offers it); ` +
        'use one of 8000, 16000, 22050, 24000',
    );
  });

  it('uses the format default rate on both surfaces', () => {
    for (const surface of ['speech', 'stream'] as const) {
      expect(settings('vendor_c', { format: 'mulaw' }, surface).sampleRate).toBe(8000);
      expect(settings('vendor_c', { format: 'pcm' }, surface).sampleRate).toBe(24000);
      expect(settings('vendor_d', { format: 'pcm' }, surface).sampleRate).toBe(24000);
    }
  });

  it('both surfaces give equal settings for equal requests (they share cache entries)', () => {
    for (const vendor of VENDOR_IDS) {
      expect(settings(vendor, {}, 'stream')).toEqual(settings(vendor, {}, 'speech'));
    }
  });

  it('vendor_i mp3 (one-shot endpoint only) is still a format of both surfaces', () => {
    expect(settings('vendor_i', { format: 'mp3' }, 'stream').format).toBe('mp3');
  });
});

describe('speed on both surfaces', () => {
  it.each<[VendorId, number | null, number, number]>([
    ['vendor_a', 1, 0.5, 2.0],
    ['vendor_b', 1, 0.5, 1.5],
    ['vendor_d', 1, 0.25, 4.0],
    ['vendor_e', 1, 0.7, 1.5],
    ['vendor_f', 1, 0.7, 1.5],
    ['vendor_g', 1, 0.7, 1.3],
    ['vendor_h', 1, 0.5, 2.0],
    ['vendor_i', null, 0.6, 1.5],
  ])('%s: default %p, range %p to %p', (vendor, dflt, min, max) => {
    expect(settings(vendor).speed).toBe(dflt);
    expect(settings(vendor, { speed: min }).speed).toBe(min);
    expect(settings(vendor, { speed: max }).speed).toBe(max);
    const message = new RegExp(`^speed must be between ${min}(\\.0)? and ${max}(\\.0)? for ${vendor}$`);
    expect(refused(vendor, { speed: min - 0.01 })).toMatch(message);
    expect(refused(vendor, { speed: max + 0.01 })).toMatch(message);
  });

  it.each<[VendorId, string]>([
    ['vendor_c', 'speed is not a setting of vendor_c; use voice_settings.speed'],
    ['vendor_j', 'speed is not a setting of vendor_j; use instructions'],
  ])('%s has no speed', (vendor, message) => {
    expect(settings(vendor).speed).toBeNull();
    expect(refused(vendor, { speed: 1 })).toBe(message);
  });
});

describe('options of vendor_b and vendor_h (none)', () => {
  it.each<VendorId>(['vendor_b', 'vendor_h'])('%s refuses any option', (vendor) => {
    expect(refused(vendor, { options: { temperature: 0.5 } })).toBe(
      `unknown option "temperature" for ${vendor}; ${vendor} takes no options`,
    );
    expect(settings(vendor).options).toEqual({});
  });
});

describe('vendor_a options in an options object', () => {
  it('refuses an option of another vendor, naming it and listing its own', () => {
    expect(refused('vendor_a', { options: { voice_settings: null } })).toBe(
      'unknown option "voice_settings" for vendor_a; its options are temperature, dict_id, bitrate, pitch, loudness, ' +
        'enable_preprocessing, min_buffer_size, max_chunk_length',
    );
  });

  it('takes a dictionary id and nullable sizes', () => {
    const options = settings('vendor_a', {
      options: { dict_id: 'dict-1', min_buffer_size: null, max_chunk_length: 120 },
    }).options;
    expect(options).toEqual({ temperature: 0.6, dict_id: 'dict-1', bitrate: '128k', max_chunk_length: 120 });
  });

  it('refuses null for an option that is not nullable (stream options object)', () => {
    expect(refused('vendor_a', { options: { temperature: null } })).toBe('temperature must not be null');
  });
});

describe('vendor_d options', () => {
  it.each(['d_model_1', 'd_model_2'])('%s ignores instructions, so the router drops them', (model) => {
    const withInstructions = settings('vendor_d', { model, options: { instructions: 'Speak softly.' } });
    expect(withInstructions).toEqual(settings('vendor_d', { model }));
    expect(withInstructions.options).toEqual({});
  });

  it.each(['d_model_3', 'd_model_4'])('%s takes instructions', (model) => {
    expect(settings('vendor_d', { model, options: { instructions: 'Speak softly.' } }).options).toEqual({
      instructions: 'Speak softly.',
    });
  });

  it('type-checks instructions even where they are dropped', () => {
    expect(refused('vendor_d', { options: { instructions: 42 } })).toBe('instructions must be a string');
  });

  it('refuses a voice outside the catalogue', () => {
    expect(refused('vendor_d', { voice: 'nobody' })).toBe(
      'voice "nobody" does not belong to model d_model_1',
    );
  });
});

describe('vendor_e options', () => {
  it('fills mip_opt_out, and bit_rate for mp3 on the first-generation models', () => {
    expect(settings('vendor_e', { model: 'e_model_2' }).options).toEqual({
      mip_opt_out: false,
      bit_rate: 48000,
    });
    expect(settings('vendor_e', { model: 'e_model_3' }).options).toEqual({ mip_opt_out: false });
    expect(settings('vendor_e', { format: 'pcm' }).options).toEqual({ mip_opt_out: false });
  });

  it.each<[Partial<ClientSettings>, Record<string, unknown> | string]>([
    [{ options: { mip_opt_out: true } }, { mip_opt_out: true, bit_rate: 48000 }],
    [{ options: { bit_rate: 32000 } }, { mip_opt_out: false, bit_rate: 32000 }],
    [{ options: { bit_rate: null } }, { mip_opt_out: false, bit_rate: 48000 }],
    [{ options: { bit_rate: 64000 } }, 'bit_rate 64000 is not allowed for vendor_e; use one of 32000, 48000'],
    [{ options: { bit_rate: '32000' } }, 'bit_rate must be a number'],
    [
      { model: 'e_model_3', options: { bit_rate: 32000 } },
      'bit_rate applies only to vendor_e models e_model_1, e_model_2, not to e_model_3',
    ],
    [{ format: 'pcm', options: { bit_rate: 32000 } }, 'bit_rate applies only to mp3 audio, not to pcm'],
    [{ options: { mip_opt_out: 'no' } }, 'mip_opt_out must be true or false'],
  ])('%p gives %p', (overrides, expected) => {
    if (typeof expected === 'string') expect(refused('vendor_e', overrides)).toBe(expected);
    else expect(settings('vendor_e', overrides).options).toEqual(expected);
  });
});

describe('vendor_f options', () => {
  it.each<[Partial<ClientSettings>, Record<string, unknown> | string]>([
    [{}, { bit_rate: 128000 }],
    [{ format: 'wav' }, {}],
    [{ options: { optimize_streaming_latency: 0 } }, { optimize_streaming_latency: 0, bit_rate: 128000 }],
    [
      { options: { optimize_streaming_latency: 2, text_normalization: true } },
      { optimize_streaming_latency: 2, text_normalization: true, bit_rate: 128000 },
    ],
    [{ options: { bit_rate: 192000 } }, { bit_rate: 192000 }],
    [
      { options: { optimize_streaming_latency: 3 } },
      'optimize_streaming_latency must be between 0 and 2 for vendor_f',
    ],
    [{ options: { optimize_streaming_latency: 1.5 } }, 'optimize_streaming_latency must be an integer'],
    [{ options: { text_normalization: 'true' } }, 'text_normalization must be true or false'],
    [
      { options: { bit_rate: 100000 } },
      'bit_rate 100000 is not allowed for vendor_f; use one of 32000, 64000, 96000, 128000, 192000',
    ],
    [{ format: 'wav', options: { bit_rate: 64000 } }, 'bit_rate applies only to mp3 audio, not to wav'],
  ])('%p gives %p', (overrides, expected) => {
    if (typeof expected === 'string') expect(refused('vendor_f', overrides)).toBe(expected);
    else expect(settings('vendor_f', overrides).options).toEqual(expected);
  });
});

describe('vendor_g options', () => {
  it('takes reduce_silence, sends nothing by default', () => {
    expect(settings('vendor_g').options).toEqual({});
    expect(settings('vendor_g', { options: { reduce_silence: true } }).options).toEqual({
      reduce_silence: true,
    });
    expect(settings('vendor_g', { options: { reduce_silence: null } })).toEqual(settings('vendor_g'));
    expect(refused('vendor_g', { options: { reduce_silence: 1 } })).toBe(
      'reduce_silence must be true or false',
    );
  });
});

describe('vendor_i options', () => {
  it.each<[Partial<ClientSettings>, Record<string, unknown> | string]>([
    [{ format: 'pcm' }, { word_timestamps: true }],
    [{ format: 'alaw', sampleRate: 8000 }, { word_timestamps: true }],
    [{ format: 'mp3' }, {}],
    [{ format: 'pcm', options: { word_timestamps: false } }, { word_timestamps: false }],
    [
      { format: 'mp3', options: { word_timestamps: true } },
      'word_timestamps applies only to pcm, wav, mulaw, alaw audio, not to mp3',
    ],
    [
      { options: { volume: 0.5, emotion: 'calm', pronunciation_dict_id: 'dict-9' } },
      { volume: 0.5, emotion: 'calm', pronunciation_dict_id: 'dict-9' },
    ],
    [{ options: { volume: 2.01 } }, 'volume must be between 0.5 and 2.0 for vendor_i'],
    [{ options: { emotion: 3 } }, 'emotion must be a string'],
  ])('%p gives %p', (overrides, expected) => {
    if (typeof expected === 'string') expect(refused('vendor_i', overrides)).toBe(expected);
    else expect(settings('vendor_i', overrides).options).toEqual(expected);
  });
});

describe('vendor_j options', () => {
  const two = { Host: 'Kael', Guest: 'Wren' };

  it('takes instructions on every model', () => {
    for (const model of ['j_model_1', 'j_model_2', 'j_model_3']) {
      expect(settings('vendor_j', { model, options: { instructions: 'Slowly, warmly.' } }).options).toEqual({
        instructions: 'Slowly, warmly.',
      });
    }
  });

  it('takes two speakers on the two newest models, voiced by the chosen speaker', () => {
    for (const model of ['j_model_2', 'j_model_3']) {
      expect(settings('vendor_j', { model, options: { speakers: two, speaker: 'Host' } }).options).toEqual({
        speakers: two,
        speaker: 'Host',
      });
      expect(
        settings('vendor_j', { model, voice: 'Wren', options: { speakers: two, speaker: 'Guest' } }).voice,
      ).toBe('Wren');
    }
  });

  it.each<[Partial<ClientSettings>, string]>([
    [
      { options: { speakers: two, speaker: 'Host' } },
      'speakers applies only to vendor_j models j_model_2, j_model_3, not to j_model_1',
    ],
    [{ options: { speaker: 'Host' } }, 'speaker requires speakers'],
    [{ model: 'j_model_2', options: { speakers: two } }, 'speakers requires speaker'],
    [{ model: 'j_model_2', options: { speaker: 'Host' } }, 'speaker requires speakers'],
    [
      { model: 'j_model_2', options: { speakers: { Host: 'Kael' }, speaker: 'Host' } },
      'speakers must name exactly 2 entries, each with a voice (it has 1)',
    ],
    [
      { model: 'j_model_2', options: { speakers: { ...two, Third: 'Yara' }, speaker: 'Host' } },
      'speakers must name exactly 2 entries, each with a voice (it has 3)',
    ],
    [
      { model: 'j_model_2', options: { speakers: { Host: 'Kael', Guest: 'Nobody' }, speaker: 'Host' } },
      'speakers.Guest: voice "Nobody" does not belong to model j_model_2',
    ],
    [
      { model: 'j_model_2', options: { speakers: two, speaker: 'Narrator' } },
      'speaker "Narrator" is not one of the speakers names (Host, Guest)',
    ],
    [
      { model: 'j_model_2', options: { speakers: two, speaker: 'Guest' } },
      'voice must be "Wren", the voice of speaker "Guest", when speakers is set',
    ],
    [
      { model: 'j_model_2', options: { speakers: ['Kael', 'Wren'], speaker: 'Host' } },
      'speakers must be an object of names, each with a voice',
    ],
  ])('%p is refused: %s', (overrides, message) => {
    expect(refused('vendor_j', overrides)).toBe(message);
  });
});
