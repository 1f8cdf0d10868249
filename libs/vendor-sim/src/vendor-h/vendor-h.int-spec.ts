import { readSseEvents } from '@router/test-sse';
import { parseWav } from '../kit/audio/pcm.codec';
import { readTakeId } from '../kit/audio/read-take-id';
import { sampleCount } from '../kit/audio/sample-source';
import { spokenMs } from '../kit/audio/take';
import { expectFreshTakes, keyHeader, sendJson, useTestSim } from '../test/sim-harness';

const KEY = 'h-key-1';
const TEXT = 'Hello there, the weather is lovely today.';
const BODY = { text: TEXT, voice_id: 'h1_voice_f1', model: 'h_model_1', language: 'en' };

describe('vendor_h simulator', () => {
  const t = useTestSim();
  const call = (
    path: string,
    body?: unknown,
    key: string | null = KEY,
    method = 'POST',
    headers: Record<string, string> = {},
  ): Promise<Response> =>
    sendJson(`${t.base('vendor_h')}${path}`, {
      method,
      body,
      headers: { ...keyHeader('authorization', key, 'Bearer '), ...headers },
    });

  it.each([
    ['missing', null],
    ['wrong', 'bad-key'],
  ])('refuses a %s key on every route with 401 {error}', async (_label, key) => {
    for (const [path, method] of [
      ['/waves/v1/tts', 'POST'],
      ['/waves/v1/tts/live', 'POST'],
      ['/waves/v1/h_model_1/get_voices', 'GET'],
      ['/waves/v1/voice-cloning', 'GET'],
    ] as const) {
      const response = await call(path, method === 'POST' ? BODY : undefined, key, method);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: 'unauthorized' });
    }
    expect(await t.control.callCount('vendor_h')).toBe(0);
  });

  it('lists each model its own stock voices with camelCase keys and language tags', async () => {
    const one = (await (await call('/waves/v1/h_model_1/get_voices', undefined, KEY, 'GET')).json()) as {
      voices: { voiceId: string; displayName: string; tags: { language: string[] } }[];
    };
    const two = (await (await call('/waves/v1/h_model_2/get_voices', undefined, KEY, 'GET')).json()) as {
      voices: { voiceId: string }[];
    };
    expect(one.voices.length).toBeGreaterThan(3);
    expect(one.voices[0]).toMatchObject({
      voiceId: 'h1_voice_f1',
      displayName: expect.any(String),
      tags: { language: ['en', 'hi'], gender: 'female' },
    });
    expect(two.voices.map((v) => v.voiceId)).not.toContain('h1_voice_f1');
    const unknown = await call('/waves/v1/h_model_9/get_voices', undefined, KEY, 'GET');
    expect(unknown.status).toBe(404);
    const cloned = (await (await call('/waves/v1/voice-cloning', undefined, KEY, 'GET')).json()) as {
      data: { voiceId: string; status: string }[];
    };
    expect(cloned.data[0]).toMatchObject({ voiceId: expect.stringMatching(/^voice_/), status: 'completed' });
    // Each list read is counted apart from synthesis calls (the unknown model's 404 is no read).
    expect(await t.control.readCount('vendor_h', { key: KEY, what: 'voices' })).toBe(2);
    expect(await t.control.readCount('vendor_h', { key: KEY, what: 'voice-cloning' })).toBe(1);
    expect(await t.control.callCount('vendor_h')).toBe(0);
  });

  it('returns raw 16-bit PCM by default, WAV on output_format or Accept, at the asked rate', async () => {
    const pcm = await call('/waves/v1/tts', BODY);
    expect(pcm.status).toBe(200);
    expect(pcm.headers.get('content-type')).toBe('audio/pcm');
    expect((await pcm.arrayBuffer()).byteLength).toBe(sampleCount(spokenMs(TEXT), 24000) * 2);
    const wav = await call('/waves/v1/tts', { ...BODY, output_format: 'wav', sample_rate: 8000, speed: 2 });
    expect(wav.headers.get('content-type')).toBe('audio/wav');
    const info = parseWav(Buffer.from(await wav.arrayBuffer()));
    expect(info).toMatchObject({ sampleRate: 8000, bitsPerSample: 16 });
    expect(info.dataSize).toBe(sampleCount(spokenMs(TEXT, { speed: 2 }), 8000) * 2);
    const accepted = await call('/waves/v1/tts', BODY, KEY, 'POST', { accept: 'audio/wav' });
    expect(parseWav(Buffer.from(await accepted.arrayBuffer())).sampleRate).toBe(24000);
  });

  it('echoes session_id and request_id as X-External headers', async () => {
    const response = await call('/waves/v1/tts', { ...BODY, session_id: 's-1', request_id: 'r.2' });
    expect(response.headers.get('x-external-session-id')).toBe('s-1');
    expect(response.headers.get('x-external-request-id')).toBe('r.2');
  });

  it('streams SSE audio events then a done marker, with the take id of the call', async () => {
    const response = await call('/waves/v1/tts/live', { ...BODY, sample_rate: 16000 });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = readSseEvents(await response.text());
    const audio = events.filter((e) => e.event === 'audio');
    expect(audio.length).toBeGreaterThan(1);
    expect(audio[0]?.data).toEqual({ audio: expect.any(String), request_id: expect.any(String) });
    expect(events.at(-1)).toEqual({ event: 'message', data: { done: true } });
    const bytes = Buffer.concat(audio.map((e) => Buffer.from(e.data['audio'] as string, 'base64')));
    expect(bytes.length).toBe(sampleCount(spokenMs(TEXT), 16000) * 2);
    const [record] = await t.control.calls('vendor_h', { key: KEY, endpoint: 'sse' });
    expect(readTakeId(bytes, 'pcm')).toBe(record?.takeId);
  });

  it('answers text with no letter or digit without audio and without a call', async () => {
    const rest = await call('/waves/v1/tts', { ...BODY, text: '…!?' });
    expect(rest.status).toBe(200);
    expect((await rest.arrayBuffer()).byteLength).toBe(0);
    const live = readSseEvents(await (await call('/waves/v1/tts/live', { ...BODY, text: ' - ' })).text());
    expect(live).toEqual([{ event: 'message', data: { done: true } }]);
    expect(await t.control.callCount('vendor_h')).toBe(0);
  });

  it('makes a fresh take for every call and counts calls per key and endpoint', async () => {
    await expectFreshTakes(t, { vendor: 'vendor_h', key: KEY, endpoint: 'rest' }, async () =>
      Buffer.from(await (await call('/waves/v1/tts', BODY)).arrayBuffer()),
    );
  });

  it('accepts a voice of the other model and a cloned voice', async () => {
    for (const voice_id of ['h2_voice_m1', 'voice_h_clone_1']) {
      expect((await call('/waves/v1/tts', { ...BODY, voice_id })).status).toBe(200);
    }
  });

  it.each([
    ['an unknown voice', { voice_id: 'nope' }],
    ['an unknown model', { model: 'h_model_3' }],
    ['a pro-only language on the base model', { language: 'ja' }],
    ['mp3', { output_format: 'mp3' }],
    ['an unknown rate', { sample_rate: 22050 }],
    ['a speed out of range', { speed: 2.5 }],
    ['a bad request_id', { request_id: 'has space' }],
  ])('refuses %s with 400 {error}', async (_label, patch) => {
    for (const path of ['/waves/v1/tts', '/waves/v1/tts/live']) {
      const response = await call(path, { ...BODY, ...patch });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: expect.any(String) });
    }
    expect(await t.control.callCount('vendor_h')).toBe(0);
  });

  it('applies injected faults: an HTTP error first, an SSE error event after audio, a cut', async () => {
    await t.control.injectFault({ vendor: 'vendor_h', kind: 'error', status: 429, message: 'slow down' });
    const refused = await call('/waves/v1/tts', BODY);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: 'slow down' });

    await t.control.injectFault({ vendor: 'vendor_h', kind: 'error', status: 503, afterBytes: 2000 });
    const events = readSseEvents(await (await call('/waves/v1/tts/live', BODY)).text());
    const audio = events.filter((e) => e.event === 'audio');
    expect(Buffer.concat(audio.map((e) => Buffer.from(e.data['audio'] as string, 'base64'))).length).toBe(
      2000,
    );
    expect(events.at(-1)).toMatchObject({ event: 'error', data: { status: 'error', error: { code: 503 } } });
    expect(events.some((e) => e.data['done'] === true)).toBe(false);

    await t.control.injectFault({ vendor: 'vendor_h', kind: 'cut', endpoint: 'rest', afterBytes: 1000 });
    await expect(call('/waves/v1/tts', BODY).then((r) => r.arrayBuffer())).rejects.toThrow();
    const calls = await t.control.calls('vendor_h');
    expect(calls.map((c) => c.fault)).toEqual(['error', 'error', 'cut']);
  });
});
