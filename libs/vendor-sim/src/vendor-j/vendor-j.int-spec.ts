import { parseWav } from '../kit/audio/pcm.codec';
import { readTakeId } from '../kit/audio/read-take-id';
import { sampleCount } from '../kit/audio/sample-source';
import { spokenMs } from '../kit/audio/take';
import { expectFreshTakes, keyHeader, sendJson, useTestSim } from '../test/sim-harness';
import { VENDOR_J_VOICE_NAMES } from '@router/vendor-j';

const KEY = 'j-key-1';
const TEXT = 'Say calmly: the library opens at nine.';
const VOICE = VENDOR_J_VOICE_NAMES[0] ?? '';
const PCM_MIME = 'audio/L16;codec=pcm;rate=24000';

function body(
  text = TEXT,
  speechConfig: unknown = { voiceConfig: { prebuiltVoiceConfig: { voiceName: VOICE } } },
) {
  return {
    contents: [{ role: 'user', parts: [{ text }] }],
    generationConfig: { responseModalities: ['AUDIO'], speechConfig },
  };
}

interface InlineResponse {
  candidates?: {
    content?: { parts: { inlineData: { mimeType: string; data: string } }[] };
    finishReason?: string;
  }[];
  usageMetadata?: { candidatesTokenCount: number };
  error?: { code: number; status: string; message: string };
}

function audioOf(events: readonly InlineResponse[]): Buffer {
  return Buffer.concat(
    events.flatMap((e) =>
      (e.candidates?.[0]?.content?.parts ?? []).map((p) => Buffer.from(p.inlineData.data, 'base64')),
    ),
  );
}

function sseData(text: string): InlineResponse[] {
  return text
    .split(/\r?\n\r?\n/)
    .filter((block) => block.trim() !== '')
    .map((block) => {
      expect(block.startsWith('data: ')).toBe(true);
      return JSON.parse(block.slice(6)) as InlineResponse;
    });
}

describe('vendor_j simulator', () => {
  const t = useTestSim();
  const post = (path: string, payload: unknown, key: string | null = KEY): Promise<Response> =>
    sendJson(`${t.base('vendor_j')}${path}`, {
      body: payload,
      headers: keyHeader('x-vendor_j-api-key', key),
    });
  const get = (path: string, key: string | null = KEY): Promise<Response> =>
    fetch(`${t.base('vendor_j')}${path}`, { headers: keyHeader('x-vendor_j-api-key', key) });

  it('refuses a wrong key with 400 API_KEY_INVALID and no key with 403 PERMISSION_DENIED', async () => {
    for (const send of [
      (key: string | null) => post('/v1beta/models/j_model_1:generateContent', body(), key),
      (key: string | null) => post('/v1beta/models/j_model_1:streamGenerateContent?alt=sse', body(), key),
      (key: string | null) => get('/v1beta/voices', key),
      (key: string | null) => get('/v1beta/models', key),
    ]) {
      const wrong = await send('bad-key');
      expect(wrong.status).toBe(400);
      expect(await wrong.json()).toEqual({
        error: {
          code: 400,
          status: 'INVALID_ARGUMENT',
          message: expect.stringContaining('API key not valid'),
          details: [expect.objectContaining({ reason: 'API_KEY_INVALID' })],
        },
      });
      const missing = await send(null);
      expect(missing.status).toBe(403);
      expect(((await missing.json()) as InlineResponse).error?.status).toBe('PERMISSION_DENIED');
    }
    expect(await t.control.callCount('vendor_j')).toBe(0);
  });

  it('takes the key from the key query parameter', async () => {
    const response = await fetch(`${t.base('vendor_j')}/v1beta/models?key=${KEY}`);
    expect(response.status).toBe(200);
  });

  it('answers an unknown path with an empty 404', async () => {
    for (const path of ['/v1alpha/models', '/v2/models', '/v1/models/j_model_1/x']) {
      const response = await get(path);
      expect([path, response.status, await response.text()]).toEqual([path, 404, '']);
    }
  });

  it('serves every endpoint under v1 as under v1beta, naming the version called in a model refusal', async () => {
    for (const path of ['/v1/voices?pageSize=3', '/v1/models', '/v1/models/j_model_2']) {
      const [v1, v1beta] = await Promise.all([get(path), get(path.replace('/v1/', '/v1beta/'))]);
      expect([path, v1.status]).toEqual([path, 200]);
      expect(await v1.json()).toEqual(await v1beta.json());
    }
    const streamed = await post('/v1/models/j_model_2:streamGenerateContent?alt=sse', body());
    expect(streamed.headers.get('content-type')).toBe('text/event-stream');
    const events = sseData(await streamed.text());
    expect(events.at(-1)?.candidates?.[0]?.finishReason).toBe('STOP');
    expect(audioOf(events).length).toBe(sampleCount(spokenMs(TEXT), 24000) * 2);
    const whole = (await (
      await post('/v1/models/j_model_1:generateContent', body())
    ).json()) as InlineResponse;
    expect(audioOf([whole]).length).toBe(sampleCount(spokenMs(TEXT), 24000) * 2);
    expect(await t.control.callCount('vendor_j', { key: KEY })).toBe(2);

    const unknown = await post('/v1/models/j_model_9:generateContent', body());
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as InlineResponse).error?.message).toBe(
      'models/j_model_9 is not found for API version v1, or is not supported for generateContent.',
    );
  });

  it('streams SSE data events of 24 kHz PCM, the last with STOP and usage', async () => {
    const response = await post('/v1beta/models/j_model_2:streamGenerateContent?alt=sse', body());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = sseData(await response.text());
    expect(events.length).toBeGreaterThan(1);
    for (const event of events) {
      expect(event.candidates?.[0]?.content?.parts[0]?.inlineData.mimeType).toBe(PCM_MIME);
    }
    expect(events.slice(0, -1).every((e) => e.candidates?.[0]?.finishReason === undefined)).toBe(true);
    expect(events.at(-1)?.candidates?.[0]?.finishReason).toBe('STOP');
    expect(events.at(-1)?.usageMetadata?.candidatesTokenCount).toBeGreaterThan(0);
    const audio = audioOf(events);
    expect(audio.length).toBe(sampleCount(spokenMs(TEXT), 24000) * 2);
    const [record] = await t.control.calls('vendor_j', { key: KEY, endpoint: 'sse' });
    expect(readTakeId(audio, 'pcm')).toBe(record?.takeId);
  });

  it('answers streamGenerateContent without alt=sse as one JSON array', async () => {
    const response = await post('/v1beta/models/j_model_1:streamGenerateContent', body());
    const events = (await response.json()) as InlineResponse[];
    expect(Array.isArray(events)).toBe(true);
    expect(audioOf(events).length).toBe(sampleCount(spokenMs(TEXT), 24000) * 2);
    expect(await t.control.callCount('vendor_j', { endpoint: 'stream' })).toBe(1);
  });

  it('answers generateContent with bare PCM, and a WAV file from the newest model', async () => {
    const pcm = (await (
      await post('/v1beta/models/j_model_1:generateContent', body())
    ).json()) as InlineResponse;
    expect(pcm.candidates?.[0]?.content?.parts[0]?.inlineData.mimeType).toBe(PCM_MIME);
    expect(pcm.candidates?.[0]?.finishReason).toBe('STOP');
    expect(audioOf([pcm]).length).toBe(sampleCount(spokenMs(TEXT), 24000) * 2);
    const wav = (await (
      await post('/v1beta/models/j_model_3:generateContent', body())
    ).json()) as InlineResponse;
    expect(wav.candidates?.[0]?.content?.parts[0]?.inlineData.mimeType).toBe('audio/wav');
    expect(parseWav(audioOf([wav]))).toMatchObject({ sampleRate: 24000, bitsPerSample: 16 });
  });

  it('makes a fresh take for every call and counts them per key and endpoint', async () => {
    await expectFreshTakes(t, { vendor: 'vendor_j', key: KEY, endpoint: 'rest' }, async () => {
      const answer = (await (
        await post('/v1beta/models/j_model_1:generateContent', body())
      ).json()) as InlineResponse;
      return audioOf([answer]);
    });
  });

  it('voices two speakers on the two newest models only', async () => {
    const speakers = {
      multiSpeakerVoiceConfig: {
        speakerVoiceConfigs: [
          { speaker: 'Ann', voiceConfig: { prebuiltVoiceConfig: { voiceName: VOICE } } },
          { speaker: 'Ben', voiceConfig: { prebuiltVoiceConfig: { voiceName: VENDOR_J_VOICE_NAMES[1] } } },
        ],
      },
    };
    const ok = await post(
      '/v1beta/models/j_model_3:streamGenerateContent?alt=sse',
      body('Ann: Hello Ben.', speakers),
    );
    expect(ok.status).toBe(200);
    expect(sseData(await ok.text()).at(-1)?.candidates?.[0]?.finishReason).toBe('STOP');
    const old = await post('/v1beta/models/j_model_1:generateContent', body('Ann: Hello Ben.', speakers));
    expect(old.status).toBe(400);
    const one = {
      multiSpeakerVoiceConfig: {
        speakerVoiceConfigs: speakers.multiSpeakerVoiceConfig.speakerVoiceConfigs.slice(1),
      },
    };
    expect((await post('/v1beta/models/j_model_3:generateContent', body('Ben: Hi.', one))).status).toBe(400);
  });

  it.each([
    ['an unknown voice', body(TEXT, { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Nobody' } } }), 400],
    ['text output', { ...body(), generationConfig: { responseModalities: ['TEXT'] } }, 400],
    ['no contents', { generationConfig: { responseModalities: ['AUDIO'] } }, 400],
  ])('refuses %s with INVALID_ARGUMENT', async (_l, payload, status) => {
    const response = await post('/v1beta/models/j_model_1:generateContent', payload);
    expect(response.status).toBe(status);
    expect(((await response.json()) as InlineResponse).error?.status).toBe('INVALID_ARGUMENT');
    expect(await t.control.callCount('vendor_j')).toBe(0);
  });

  it('refuses an unknown model with 404 NOT_FOUND', async () => {
    const response = await post('/v1beta/models/j_model_9:generateContent', body());
    expect(response.status).toBe(404);
    expect(((await response.json()) as InlineResponse).error?.status).toBe('NOT_FOUND');
  });

  it('makes faults observable: an HTTP error before audio, an error event after it, a cut', async () => {
    await t.control.injectFault({ vendor: 'vendor_j', kind: 'error', status: 429 });
    const early = await post('/v1beta/models/j_model_1:streamGenerateContent?alt=sse', body());
    expect(early.status).toBe(429);
    expect(((await early.json()) as InlineResponse).error?.status).toBe('RESOURCE_EXHAUSTED');

    await t.control.injectFault({ vendor: 'vendor_j', kind: 'error', status: 503, afterBytes: 2000 });
    const late = sseData(
      await (await post('/v1beta/models/j_model_1:streamGenerateContent?alt=sse', body())).text(),
    );
    expect(late.at(-1)?.error).toMatchObject({ code: 503, status: 'UNAVAILABLE' });
    expect(audioOf(late).length).toBe(2000);

    await t.control.injectFault({ vendor: 'vendor_j', kind: 'cut', afterBytes: 3000 });
    await expect(
      post('/v1beta/models/j_model_1:streamGenerateContent?alt=sse', body()).then((r) => r.text()),
    ).rejects.toThrow();
    expect((await t.control.calls('vendor_j')).map((c) => c.fault)).toEqual(['error', 'error', 'cut']);
  });

  it('ends an SSE answer early on the end fault: inside an event, no STOP, the body ended normally', async () => {
    await t.control.injectFault({ vendor: 'vendor_j', kind: 'end', afterBytes: 3000 });
    const response = await post('/v1beta/models/j_model_1:streamGenerateContent?alt=sse', body());
    expect(response.status).toBe(200);
    const text = await response.text();
    const blocks = text.split('\r\n\r\n');
    const whole = sseData(blocks.slice(0, -1).join('\r\n\r\n'));
    expect(audioOf(whole).length).toBe(3000);
    expect(whole.every((e) => e.candidates?.[0]?.finishReason === undefined)).toBe(true);
    // The event the fault fell in is cut inside its data.
    expect(blocks.at(-1)).toMatch(/^data: \{/);
    expect(() => JSON.parse(blocks.at(-1)?.slice(6) ?? '')).toThrow();
  });

  it('reads a body under the proto field names, null fields as left out', async () => {
    const response = await post('/v1beta/models/j_model_1:generateContent', {
      contents: [{ role: null, parts: [{ text: TEXT }] }],
      generation_config: {
        response_modalities: ['AUDIO'],
        speech_config: { voice_config: { prebuilt_voice_config: { voice_name: VOICE } } },
        temperature: null,
      },
    });
    expect(response.status).toBe(200);
    expect(audioOf([(await response.json()) as InlineResponse]).length).toBe(
      sampleCount(spokenMs(TEXT), 24000) * 2,
    );
  });

  it('counts each read of the model and voice lists per key', async () => {
    for (const path of ['/v1beta/voices', '/v1beta/models', '/v1beta/models/j_model_2']) {
      const before = await t.control.readCount('vendor_j', { key: KEY });
      expect((await get(path)).status).toBe(200);
      expect(await t.control.readCount('vendor_j', { key: KEY })).toBe(before + 1);
    }
  });

  it('pages voices and models with pageSize and pageToken', async () => {
    const names: string[] = [];
    let token: string | undefined;
    do {
      const answer = (await (
        await get(`/v1beta/voices?pageSize=8${token ? `&pageToken=${token}` : ''}`)
      ).json()) as { voices: { voiceName: string }[]; nextPageToken?: string };
      expect(answer.voices.length).toBeLessThanOrEqual(8);
      names.push(...answer.voices.map((v) => v.voiceName));
      token = answer.nextPageToken;
    } while (token);
    expect(names).toEqual(VENDOR_J_VOICE_NAMES);
    const models = (await (await get('/v1beta/models?pageSize=2')).json()) as {
      models: { name: string }[];
      nextPageToken?: string;
    };
    expect(models.models.map((m) => m.name)).toEqual(['models/j_model_1', 'models/j_model_2']);
    expect(models.nextPageToken).toEqual(expect.any(String));
    expect(await (await get('/v1beta/models/j_model_3')).json()).toMatchObject({ name: 'models/j_model_3' });
    expect((await get('/v1beta/models/j_model_9')).status).toBe(404);
  });
});
