import { API_KEY_ENV, BASE_URL_ENV, type VoiceOptions, resolveRouter, resolveVoice } from './tts.options';

describe('resolveVoice', () => {
  it('makes the /v1/stream settings: <vendor>/<model>, pcm at 24000 Hz unless asked otherwise, options as given', () => {
    const voice = resolveVoice({
      vendor: 'vendor_a',
      model: 'a_model_2',
      voice: 'meravi',
      language: 'hi-IN',
      speed: 1.2,
      options: { pitch: 0.1 },
    });
    expect(voice).toEqual({
      vendor: 'vendor_a',
      modelId: 'vendor_a/a_model_2',
      format: 'pcm',
      sampleRate: 24000,
      wordTimings: false,
      settings: {
        model: 'vendor_a/a_model_2',
        voice: 'meravi',
        language: 'hi-IN',
        speed: 1.2,
        response_format: 'pcm',
        sample_rate: 24000,
        options: { pitch: 0.1 },
      },
    });
  });

  it.each([
    ['vendor_c by default', { vendor: 'vendor_c', model: 'c_model_1', voice: 'v' }, true],
    [
      'vendor_c with sync_alignment off',
      { vendor: 'vendor_c', model: 'c_model_1', voice: 'v', options: { sync_alignment: false } },
      false,
    ],
    ['vendor_i with pcm', { vendor: 'vendor_i', model: 'i_model_1', voice: 'v' }, true],
    [
      'vendor_i with wav (its one-shot endpoint)',
      { vendor: 'vendor_i', model: 'i_model_1', voice: 'v', format: 'wav' },
      false,
    ],
    [
      'vendor_i with word_timestamps off',
      { vendor: 'vendor_i', model: 'i_model_1', voice: 'v', options: { word_timestamps: false } },
      false,
    ],
    [
      'vendor_h (its REST endpoints give none)',
      { vendor: 'vendor_h', model: 'h_model_1', voice: 'v' },
      false,
    ],
  ] as const)('says whether word timings come: %s', (_what, options, expected) => {
    expect(resolveVoice(options).wordTimings).toBe(expected);
  });
});

describe('VoiceOptions', () => {
  it("types each vendor's settings from the catalogue (the type-check refuses the others)", () => {
    const taken: VoiceOptions[] = [
      {
        vendor: 'vendor_c',
        model: 'c_model_3',
        voice: 'v',
        language: 'ja',
        options: { sync_alignment: false },
      },
      {
        vendor: 'vendor_a',
        model: 'a_model_1',
        voice: 'aarila',
        language: 'en-IN',
        options: { temperature: 0.4 },
      },
      {
        vendor: 'vendor_b',
        model: 'b_model_1',
        voice: 'v',
        language: 'hi',
        format: 'mulaw',
        sampleRate: 8000,
      },
    ];
    const refused: VoiceOptions[] = [
      // @ts-expect-error temperature is vendor_a's option, not vendor_c's
      { vendor: 'vendor_c', model: 'c_model_1', voice: 'v', options: { temperature: 0.4 } },
      // @ts-expect-error c_model_1 speaks only en
      { vendor: 'vendor_c', model: 'c_model_1', voice: 'v', language: 'ja' },
      // @ts-expect-error vendor_c's speed is in voice_settings
      { vendor: 'vendor_c', model: 'c_model_1', voice: 'v', speed: 1.1 },
      // @ts-expect-error vendor_b streams at no more than 24000 Hz
      { vendor: 'vendor_b', model: 'b_model_1', voice: 'v', language: 'hi', sampleRate: 48000 },
      // @ts-expect-error mp3 does not reach the framework as PCM frames
      { vendor: 'vendor_c', model: 'c_model_1', voice: 'v', format: 'mp3' },
      // @ts-expect-error vendor_a needs a language
      { vendor: 'vendor_a', model: 'a_model_1', voice: 'aarila' },
      // @ts-expect-error a_model_1 is not vendor_d's
      { vendor: 'vendor_d', model: 'a_model_1', voice: 'v' },
    ];
    expect(taken.map((options) => resolveVoice(options).settings.model)).toEqual([
      'vendor_c/c_model_3',
      'vendor_a/a_model_1',
      'vendor_b/b_model_1',
    ]);
    expect(refused).toHaveLength(7);
  });
});

describe('resolveRouter', () => {
  it('takes the address and key from the options, else from the environment', () => {
    expect(resolveRouter({ baseUrl: 'http://a', apiKey: 'rtr_a' }, { [BASE_URL_ENV]: 'http://b' })).toEqual({
      baseUrl: 'http://a',
      apiKey: 'rtr_a',
    });
    expect(resolveRouter({}, { [BASE_URL_ENV]: 'http://b', [API_KEY_ENV]: 'rtr_b' })).toEqual({
      baseUrl: 'http://b',
      apiKey: 'rtr_b',
    });
  });

  it('names what is missing', () => {
    expect(() => resolveRouter({ apiKey: 'rtr_a' }, {})).toThrow(/baseUrl or set SPEECH_ROUTER_URL/);
    expect(() => resolveRouter({ baseUrl: 'http://a' }, {})).toThrow(/apiKey or set SPEECH_ROUTER_API_KEY/);
  });
});
