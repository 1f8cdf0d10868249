import { APICallError, LoadAPIKeyError, NoSuchModelError } from '@ai-sdk/provider';
import { createProviderRegistry } from 'ai';
import type { SpeechRouterProviderOptions, SpeechSettings } from './speech-settings';
import { createSpeechRouter } from './speech-router.provider';

/** A fetch standing in for the router: answers with `respond` and keeps what it was sent. */
function fakeFetch(respond: () => Response) {
  const sent: Array<{ url: string; headers: Record<string, string>; body: any }> = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    sent.push({
      url: input instanceof URL ? input.href : (input as string),
      headers: init?.headers as Record<string, string>,
      body: JSON.parse(init?.body as string),
    });
    return respond();
  };
  return { fetch, sent };
}

const audio = () =>
  new Response(new Uint8Array([1, 2, 3]), {
    headers: { 'content-type': 'audio/mpeg', 'x-request-id': '7b7a2f43-7a9e-4d46-9d55-43c86e4e3b9e' },
  });

describe('SpeechRouterSpeechModel.doGenerate', () => {
  it('sends the call over the model defaults, provider options last, and answers with the audio and request id', async () => {
    const { fetch, sent } = fakeFetch(audio);
    const router = createSpeechRouter({ baseURL: 'http://router.test/base', apiKey: 'rtr_k', fetch });
    const model = router.speech('vendor_a/a_model_2', {
      voice: 'meravi',
      language: 'en-IN',
      sampleRate: 16000,
      options: { pitch: 0.2, temperature: 0.3 },
    });
    const result = await model.doGenerate({
      text: 'Hello there.',
      speed: 1.1,
      headers: { 'x-trace': 't1', 'x-none': undefined },
      providerOptions: { speechRouter: { temperature: 0.5 } },
    });
    expect(sent).toEqual([
      {
        url: 'http://router.test/base/v1/audio/speech',
        headers: expect.objectContaining({ authorization: 'Bearer rtr_k', 'x-trace': 't1' }),
        body: {
          model: 'vendor_a/a_model_2',
          input: 'Hello there.',
          voice: 'meravi',
          language: 'en-IN',
          response_format: 'mp3',
          sample_rate: 16000,
          speed: 1.1,
          pitch: 0.2,
          temperature: 0.5,
        },
      },
    ]);
    expect([...(result.audio as Uint8Array)]).toEqual([1, 2, 3]);
    expect(result.warnings).toEqual([]);
    expect(result.providerMetadata).toEqual({
      speechRouter: {
        requestId: '7b7a2f43-7a9e-4d46-9d55-43c86e4e3b9e',
        contentType: 'audio/mpeg',
        responseFormat: 'mp3',
      },
    });
    expect(result.response.headers).toEqual({
      'content-type': 'audio/mpeg',
      'x-request-id': '7b7a2f43-7a9e-4d46-9d55-43c86e4e3b9e',
    });
    // The text is not repeated in what is reported about the request.
    expect(String(result.request?.body)).not.toContain('Hello there.');
  });

  it('asks for wav where the vendor makes no mp3, and warns of settings the vendor does not take', async () => {
    const { fetch, sent } = fakeFetch(audio);
    const router = createSpeechRouter({ baseURL: 'http://router.test', apiKey: 'rtr_k', fetch });
    const result = await router
      .speech('vendor_j/j_model_1')
      .doGenerate({ text: 'Hi.', voice: 'Anselm', language: 'en', speed: 1.2, instructions: 'Calm.' });
    expect(sent[0].body).toEqual({
      model: 'vendor_j/j_model_1',
      input: 'Hi.',
      voice: 'Anselm',
      response_format: 'wav',
      instructions: 'Calm.',
    });
    expect(result.warnings.map((w) => (w.type === 'other' ? w.message : w.feature))).toEqual([
      'language',
      'speed',
    ]);

    await router.speech('vendor_b/b_model_1').doGenerate({ text: 'Hi.', voice: 'v', instructions: 'Calm.' });
    expect(sent[1].body).not.toHaveProperty('instructions');
  });

  it('turns a refusal into an APICallError retryable as the router says, without the text', async () => {
    const refusal = (status: number, code: string, retryable: boolean) => () =>
      new Response(JSON.stringify({ error: { code, message: 'the reason', retryable } }), {
        status,
        headers: { 'content-type': 'application/json' },
      });
    for (const [status, code, retryable] of [
      [400, 'bad_request', false],
      [504, 'provider_timeout', true],
    ] as const) {
      const { fetch } = fakeFetch(refusal(status, code, retryable));
      const model = createSpeechRouter({ baseURL: 'http://router.test', apiKey: 'rtr_k', fetch }).speech(
        'vendor_c/c_model_1',
      );
      const error = await model.doGenerate({ text: 'Secret words.', voice: 'v' }).catch((e: unknown) => e);
      expect(APICallError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        statusCode: status,
        isRetryable: retryable,
        message: `${code}: the reason`,
      });
      expect(JSON.stringify((error as APICallError).requestBodyValues)).not.toContain('Secret words.');
    }
  });

  it('names a missing key or address, and refuses a model id outside the ten vendors', async () => {
    const saved = { ...process.env };
    delete process.env.SPEECH_ROUTER_URL;
    delete process.env.SPEECH_ROUTER_API_KEY;
    try {
      const model = createSpeechRouter({ baseURL: 'http://router.test' }).speech('vendor_c/c_model_1');
      const error = await model.doGenerate({ text: 'Hi.', voice: 'v' }).catch((e: unknown) => e);
      expect(LoadAPIKeyError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(/SPEECH_ROUTER_API_KEY/);
      await expect(
        createSpeechRouter({ apiKey: 'rtr_k' }).speech('vendor_c/c_model_1').doGenerate({ text: 'Hi.' }),
      ).rejects.toThrow(/SPEECH_ROUTER_URL/);
    } finally {
      process.env = saved;
    }
    expect(() => createSpeechRouter().speech('vendor_x/x_model_1' as 'vendor_c/c_model_1')).toThrow(
      /Unknown model/,
    );
  });
});

describe('SpeechSettings and SpeechRouterProviderOptions', () => {
  it("type each vendor's settings from the catalogue (the type-check refuses the others)", () => {
    const router = createSpeechRouter({ baseURL: 'http://router.test', apiKey: 'rtr_k' });
    const taken = [
      router.speech('vendor_c/c_model_3', { language: 'ja', options: { sync_alignment: false } }),
      router.speech('vendor_a/a_model_1', {
        language: 'en-IN',
        sampleRate: 48000,
        options: { temperature: 0.4 },
      }),
    ];
    const cOptions = {
      voice_settings: { stability: 0.4, similarity_boost: 0.8 },
    } satisfies SpeechRouterProviderOptions<'vendor_c'>;
    const refused = [
      // @ts-expect-error temperature is vendor_a's option, not vendor_c's
      { options: { temperature: 0.4 } } satisfies SpeechSettings<'vendor_c/c_model_1'>,
      // @ts-expect-error c_model_1 speaks only en
      { language: 'ja' } satisfies SpeechSettings<'vendor_c/c_model_1'>,
      // @ts-expect-error vendor_c's speed is in voice_settings
      { speed: 1 } satisfies SpeechSettings<'vendor_c/c_model_1'>,
      // @ts-expect-error vendor_b makes no mp3
      { responseFormat: 'mp3' } satisfies SpeechSettings<'vendor_b/b_model_1'>,
      // @ts-expect-error temperature is vendor_a's option, not vendor_c's
      { temperature: 0.4 } satisfies SpeechRouterProviderOptions<'vendor_c'>,
      // @ts-expect-error vendor_b speaks at no more than 24000 Hz
      { sample_rate: 48000 } satisfies SpeechRouterProviderOptions<'vendor_b'>,
    ];
    expect(taken.map((model) => model.modelId)).toEqual(['vendor_c/c_model_3', 'vendor_a/a_model_1']);
    expect(cOptions.voice_settings.stability).toBe(0.4);
    expect(refused).toHaveLength(6);
  });
});

describe('createSpeechRouter', () => {
  it("is a provider the AI SDK's registry takes, with speech models only", () => {
    const registry = createProviderRegistry({
      speechRouter: createSpeechRouter({ baseURL: 'http://router.test' }),
    });
    const model = registry.speechModel('speechRouter:vendor_c/c_model_1');
    expect([model.specificationVersion, model.provider, model.modelId]).toEqual([
      'v3',
      'speech-router.speech',
      'vendor_c/c_model_1',
    ]);
    expect(() => registry.languageModel('speechRouter:anything')).toThrow(NoSuchModelError);
  });
});
