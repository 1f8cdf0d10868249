import { expectStepChunks, readSseEvents } from '@router/test-sse';
import { parseWav } from '../kit/audio/pcm.codec';
import { readTakeId } from '../kit/audio/read-take-id';
import { sampleCount } from '../kit/audio/sample-source';
import { spokenMs } from '../kit/audio/take';
import { expectFreshTakes, keyHeader, sendJson, useTestSim } from '../test/sim-harness';

const KEY = 'b-key-1';
const TEXT = 'Namaste, aap kaise hain?';
const BODY = { text: TEXT, voice_id: 'b_voice_hi_f1', language: 'hi', model: 'b_model_1' };

describe('vendor_b simulator', () => {
  const t = useTestSim();
  const call = (path: string, body?: unknown, key: string | null = KEY, method = 'POST'): Promise<Response> =>
    sendJson(`${t.base('vendor_b')}${path}`, { method, body, headers: keyHeader('X-API-Key', key) });

  it.each([
    ['missing', null, 'No API key found in request'],
    ['wrong', 'bad-key', 'Invalid authentication credentials'],
  ])(
    'refuses a %s key on every route with 401, a Key realm and {message, request_id}',
    async (_label, key, message) => {
      for (const [path, method] of [
        ['/v1/text-to-speech', 'POST'],
        ['/v1/text-to-speech/stream', 'POST'],
        ['/v1/voices', 'GET'],
      ] as const) {
        const response = await call(path, method === 'POST' ? BODY : undefined, key, method);
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toMatch(/^Key realm=/);
        expect(await response.json()).toEqual({ message, request_id: expect.any(String) });
      }
    },
  );

  it('reads the key header case-insensitively', async () => {
    const response = await fetch(`${t.base('vendor_b')}/v1/voices`, { headers: { 'x-api-key': KEY } });
    expect(response.status).toBe(200);
  });

  it('lists voices, each of one model with its languages', async () => {
    const response = await call('/v1/voices', undefined, KEY, 'GET');
    const { voices } = (await response.json()) as {
      voices: { voice_id: string; model: string; languages: string[] }[];
    };
    expect(voices.length).toBeGreaterThan(20);
    // b_model_3's voices are listed before the vendor synthesizes with that model.
    expect(new Set(voices.map((v) => v.model))).toEqual(new Set(['b_model_1', 'b_model_2', 'b_model_3']));
    expect(voices.find((v) => v.voice_id === 'b_voice_hi_f1')).toMatchObject({
      language: 'hi',
      gender: 'female',
      model: 'b_model_1',
    });
  });

  it('returns the whole clip in the asked codec and rate', async () => {
    const pcm = await call('/v1/text-to-speech', BODY);
    expect(pcm.status).toBe(200);
    expect(pcm.headers.get('content-type')).toBe('audio/pcm');
    expect((await pcm.arrayBuffer()).byteLength).toBe(sampleCount(spokenMs(TEXT), 24000) * 2);
    const wav = await call('/v1/text-to-speech', { ...BODY, codec: 'wav', sample_rate: 8000, speed: 1.5 });
    const info = parseWav(Buffer.from(await wav.arrayBuffer()));
    expect(info.sampleRate).toBe(8000);
    expect(info.dataSize).toBe(sampleCount(spokenMs(TEXT, { speed: 1.5 }), 8000) * 2);
    const mulaw = await call('/v1/text-to-speech', { ...BODY, codec: 'mulaw', sample_rate: 16000 });
    expect(mulaw.headers.get('content-type')).toBe('audio/mulaw');
    expect((await mulaw.arrayBuffer()).byteLength).toBe(sampleCount(spokenMs(TEXT), 16000));
  });

  it('streams SSE chunk events with a float step_time, then exactly one done', async () => {
    const response = await call('/v1/text-to-speech/stream', {
      ...BODY,
      text: 'A longer sentence gives several chunks of audio.',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = readSseEvents(await response.text());
    const chunks = expectStepChunks(events);
    for (const chunk of chunks) expect(Number.isInteger(chunk.data['step_time'])).toBe(false);
    expect(events.at(-1)).toEqual({ event: 'done', data: { type: 'done', done: true, status_code: 200 } });
    expect(events.filter((e) => e.event === 'done')).toHaveLength(1);
    const audio = Buffer.concat(chunks.map((c) => Buffer.from(c.data['data'] as string, 'base64')));
    expect(audio.length).toBe(
      sampleCount(spokenMs('A longer sentence gives several chunks of audio.'), 24000) * 2,
    );
    const [record] = await t.control.calls('vendor_b', { key: KEY, endpoint: 'sse' });
    expect(readTakeId(audio, 'pcm')).toBe(record?.takeId);
  });

  it('makes a fresh take for every call of the same body', async () => {
    await expectFreshTakes(t, { vendor: 'vendor_b', key: KEY, endpoint: 'rest' }, async () =>
      Buffer.from(await (await call('/v1/text-to-speech', BODY)).arrayBuffer()),
    );
  });

  it.each([
    ['an unknown voice', { voice_id: 'nope' }, 'invalid_voice'],
    ['a voice of the other model', { voice_id: 'b2_voice_f1' }, 'voice_model_mismatch'],
    ['a third model', { model: 'b_model_3' }, 'invalid_model'],
    ['an unknown language', { language: 'en-gb' }, 'invalid_language'],
    ['a language the voice lacks', { language: 'ta' }, 'unsupported_language'],
    ['mp3', { codec: 'mp3' }, 'invalid_codec'],
    ['an unknown rate', { sample_rate: 12000 }, 'invalid_sample_rate'],
    ['punctuation alone', { text: '?!…' }, 'invalid_text'],
    ['too long a text', { text: 'a'.repeat(5001) }, 'text_too_long'],
  ])('refuses %s with 400 and its error code', async (_label, patch, code) => {
    for (const path of ['/v1/text-to-speech', '/v1/text-to-speech/stream']) {
      const response = await call(path, { ...BODY, ...patch });
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe(code);
    }
    expect(await t.control.callCount('vendor_b')).toBe(0);
  });
});
