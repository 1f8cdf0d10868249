import { parseFlacStreamInfo } from '../kit/audio/flac.codec';
import { parseMp3 } from '../kit/audio/mp3.codec';
import { parseOgg } from '../kit/audio/ogg-opus.codec';
import { parseWav } from '../kit/audio/pcm.codec';
import { readTakeId } from '../kit/audio/read-take-id';
import { sampleCount } from '../kit/audio/sample-source';
import { spokenMs } from '../kit/audio/take';
import { expectFreshTakes, keyHeader, sendJson, useTestSim } from '../test/sim-harness';

const KEY = 'e-key-1';
const TEXT = 'Thanks for calling, how can I help you today?';
const V1 = 'e_model_1-orla-en';
const V2 = 'e_model_3-wren-en';

interface ModelList {
  stt: unknown[];
  tts: {
    name: string;
    canonical_name: string;
    architecture: string;
    languages: string[];
    metadata: { sample: string };
  }[];
}

describe('vendor_e simulator', () => {
  const t = useTestSim();
  const speak = (
    query: Record<string, string>,
    body: unknown = { text: TEXT },
    auth: string | null = `Token ${KEY}`,
    path = '/v1/speak',
  ): Promise<Response> =>
    sendJson(`${t.base('vendor_e')}${path}?${new URLSearchParams(query).toString()}`, {
      body,
      headers: keyHeader('authorization', auth),
    });
  const bytes = async (response: Response): Promise<Buffer> => Buffer.from(await response.arrayBuffer());
  const raw = { model: V1, encoding: 'linear16', container: 'none', sample_rate: '16000' };

  it.each([
    ['missing', null],
    ['wrong', 'Token bad-key'],
    ['wrong scheme', `Basic ${KEY}`],
  ])('refuses a %s key with 401 INVALID_AUTH on both speak endpoints', async (_label, auth) => {
    for (const [path, model] of [
      ['/v1/speak', V1],
      ['/v2/speak', V2],
    ] as const) {
      const response = await speak({ model }, { text: TEXT }, auth, path);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({
        err_code: 'INVALID_AUTH',
        err_msg: 'Invalid credentials.',
        request_id: expect.any(String),
      });
    }
    expect(await t.control.callCount('vendor_e')).toBe(0);
  });

  it('takes a Bearer token too', async () => {
    const response = await speak(raw, { text: TEXT }, `Bearer ${KEY}`);
    expect(response.status).toBe(200);
    await response.arrayBuffer();
  });

  it('accepts a /v2/speak call with a callback at once: 202 {request_id}, a counted call', async () => {
    const query = { model: V2, callback: 'https://client.invalid/hook', callback_method: 'PUT' };
    const response = await speak(query, { text: TEXT }, `Token ${KEY}`, '/v2/speak');
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ request_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(await t.control.callCount('vendor_e', { key: KEY, endpoint: 'rest-v2' })).toBe(1);
  });

  it('streams raw linear16 at the asked rate with the vendor headers and the take id', async () => {
    const response = await speak({ ...raw, speed: '1.25' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/pcm');
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    expect(response.headers.get('vendor_e-model-name')).toBe(V1);
    expect(response.headers.get('vendor_e-char-count')).toBe(String(TEXT.length));
    expect(response.headers.get('vendor_e-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const audio = await bytes(response);
    expect(audio.length).toBe(sampleCount(spokenMs(TEXT, { speed: 1.25 }), 16000) * 2);
    const [record] = await t.control.calls('vendor_e', { key: KEY, endpoint: 'rest' });
    expect(readTakeId(audio, 'pcm')).toBe(record?.takeId);
  });

  it('wraps linear16 in WAV by default, and serves mp3 (default, 22050 Hz unless asked), G.711, flac and opus', async () => {
    const wav = await speak({ model: V1, encoding: 'linear16' });
    expect(wav.headers.get('content-type')).toBe('audio/wav');
    expect(parseWav(await bytes(wav))).toMatchObject({ sampleRate: 24000, bitsPerSample: 16 });
    const mp3 = await speak({ model: V1 });
    expect(mp3.headers.get('content-type')).toBe('audio/mpeg');
    const frames = parseMp3(await bytes(mp3)).frames;
    expect(new Set(frames.map((f) => `${f.sampleRate}/${f.bitrateKbps}`))).toEqual(new Set(['22050/48']));
    const mp3At32k = parseMp3(await bytes(await speak({ model: V1, encoding: 'mp3', bit_rate: '32000' })));
    expect(new Set(mp3At32k.frames.map((f) => f.bitrateKbps))).toEqual(new Set([32]));
    const mp3At24k = parseMp3(await bytes(await speak({ model: V1, encoding: 'mp3', sample_rate: '24000' })));
    expect(new Set(mp3At24k.frames.map((f) => f.sampleRate))).toEqual(new Set([24000]));
    const mulaw = await speak({ model: V1, encoding: 'mulaw' });
    expect(mulaw.headers.get('content-type')).toBe('audio/mulaw');
    expect((await bytes(mulaw)).length).toBe(sampleCount(spokenMs(TEXT), 8000));
    const alaw = await speak({ model: V1, encoding: 'alaw', sample_rate: '16000' });
    expect((await bytes(alaw)).length).toBe(sampleCount(spokenMs(TEXT), 16000));
    const flac = await speak({ model: V1, encoding: 'flac', sample_rate: '44100' });
    expect(parseFlacStreamInfo(await bytes(flac)).sampleRate).toBe(44100);
    const opus = await speak({ model: V1, encoding: 'opus' });
    expect(opus.headers.get('content-type')).toBe('audio/ogg');
    expect(parseOgg(await bytes(opus)).length).toBeGreaterThan(1);
  });

  it('serves second-generation models on /v2/speak only, as one whole body', async () => {
    const v2 = await speak({ ...raw, model: V2 }, { text: TEXT }, `Token ${KEY}`, '/v2/speak');
    expect(v2.status).toBe(200);
    expect(v2.headers.get('content-length')).toBe(String(sampleCount(spokenMs(TEXT), 16000) * 2));
    const audio = await bytes(v2);
    const [record] = await t.control.calls('vendor_e', { endpoint: 'rest-v2' });
    expect(readTakeId(audio, 'pcm')).toBe(record?.takeId);
    const v2OnV1 = await speak({ ...raw, model: V2 });
    expect(v2OnV1.status).toBe(400);
    expect(((await v2OnV1.json()) as { err_code: string }).err_code).toBe('UNSUPPORTED_MODEL');
    const v1OnV2 = await speak(raw, { text: TEXT }, `Token ${KEY}`, '/v2/speak');
    expect(v1OnV2.status).toBe(400);
    const noModel = await speak({ encoding: 'linear16' }, { text: TEXT }, `Token ${KEY}`, '/v2/speak');
    expect(noModel.status).toBe(400);
  });

  it('makes a fresh take for every call and counts calls per key and endpoint', async () => {
    await expectFreshTakes(t, { vendor: 'vendor_e', key: KEY, endpoint: 'rest' }, async () =>
      bytes(await speak(raw)),
    );
  });

  it.each([
    ['an unknown model', { model: 'e_model_1-nobody-en' }, undefined, 'UNSUPPORTED_MODEL'],
    ['an unknown encoding', { encoding: 'pcm' }, undefined, 'UNSUPPORTED_AUDIO_FORMAT'],
    ['a rate for opus', { encoding: 'opus', sample_rate: '24000' }, undefined, 'UNSUPPORTED_AUDIO_FORMAT'],
    [
      'an mp3 bit rate it lacks',
      { encoding: 'mp3', bit_rate: '64000' },
      undefined,
      'UNSUPPORTED_AUDIO_FORMAT',
    ],
    ['a rate it lacks', { encoding: 'mulaw', sample_rate: '12000' }, undefined, 'UNSUPPORTED_AUDIO_FORMAT'],
    ['a bit rate for linear16', { bit_rate: '48000' }, undefined, 'UNSUPPORTED_AUDIO_FORMAT'],
    ['a speed out of range', { speed: '2' }, undefined, 'INVALID_QUERY_PARAMETER'],
    ['empty text', {}, { text: ' ' }, 'INVALID_TEXT'],
    ['too long a text', {}, { text: 'a'.repeat(2001) }, 'TEXT_TOO_LONG'],
  ])('refuses %s with 400 and its error code', async (_label, patch, body, code) => {
    const response = await speak({ ...raw, ...patch }, body ?? { text: TEXT });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      err_code: code,
      err_msg: expect.any(String),
      request_id: expect.any(String),
    });
    expect(await t.control.callCount('vendor_e')).toBe(0);
  });

  it('lists each generation voice models publicly, even with a wrong key', async () => {
    const v1 = (await (await fetch(`${t.base('vendor_e')}/v1/models`)).json()) as ModelList;
    expect(v1.stt).toEqual([]);
    // e_model_0: an outdated family the vendor still lists, absent from the router's catalogue.
    expect(new Set(v1.tts.map((m) => m.architecture))).toEqual(
      new Set(['e_model_0', 'e_model_1', 'e_model_2']),
    );
    expect(v1.tts.find((m) => m.canonical_name === 'e_model_2-marisol-es')).toMatchObject({
      name: 'marisol',
      languages: ['es'],
      metadata: { sample: expect.stringMatching(/^https:\/\//) },
    });
    const v2 = await fetch(`${t.base('vendor_e')}/v2/models`, {
      headers: { authorization: 'Token bad-key' },
    });
    expect(v2.status).toBe(200);
    const listed = (await v2.json()) as ModelList;
    expect(listed.tts.length).toBeGreaterThan(0);
    expect(
      listed.tts.every((m) => m.architecture === 'e_model_3' && m.canonical_name.startsWith('e_model_3-')),
    ).toBe(true);
  });

  it('answers injected errors before audio in its shape, and cuts a started stream', async () => {
    await t.control.injectFault({ vendor: 'vendor_e', kind: 'error', status: 429, message: 'slow down' });
    const limited = await speak(raw);
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ err_code: 'TOO_MANY_REQUESTS', err_msg: 'slow down' });
    expect((await t.control.calls('vendor_e'))[0]?.fault).toBe('error');

    await t.control.injectFault({ vendor: 'vendor_e', endpoint: 'rest', kind: 'error', afterBytes: 2000 });
    const cut = await speak(raw);
    expect(cut.status).toBe(200);
    await expect(cut.arrayBuffer()).rejects.toThrow();

    await t.control.injectFault({ vendor: 'vendor_e', endpoint: 'rest-v2', kind: 'error', status: 503 });
    const failed = await speak({ ...raw, model: V2 }, { text: TEXT }, `Token ${KEY}`, '/v2/speak');
    expect(failed.status).toBe(503);
  });

  it('stalls before the first byte when asked', async () => {
    await t.control.injectFault({ vendor: 'vendor_e', kind: 'stall', stallMs: 150 });
    const started = Date.now();
    await (await speak(raw)).arrayBuffer();
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('answers an unknown path with 404 in its shape', async () => {
    const response = await fetch(`${t.base('vendor_e')}/v1/voices`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { err_code: string }).err_code).toBe('NOT_FOUND');
  });
});
