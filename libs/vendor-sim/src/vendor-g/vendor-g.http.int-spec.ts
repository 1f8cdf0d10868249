import { parseAdts } from '../kit/audio/aac.codec';
import { parseFlacStreamInfo } from '../kit/audio/flac.codec';
import { parseMp3 } from '../kit/audio/mp3.codec';
import { parseOgg } from '../kit/audio/ogg-opus.codec';
import { parseWav } from '../kit/audio/pcm.codec';
import { sampleCount } from '../kit/audio/sample-source';
import { createTake, spokenMs } from '../kit/audio/take';
import { expectFreshTakes, keyHeader, sendJson, useTestSim } from '../test/sim-harness';

const KEY = 'g-key-1';
const TEXT = 'Hello from the simulated vendor.';
const BODY = { text: TEXT, model: 'g_model_3', language: 'en', voice: 'Maren' };

interface ClonedPage {
  voices: { id: string; name: string; models: { model: string; status: string }[] }[];
  next_page_cursor: string | null;
}

describe('vendor_g simulator over HTTP', () => {
  const t = useTestSim();
  const call = (path: string, body?: unknown, key: string | null = KEY): Promise<Response> =>
    sendJson(`${t.base('vendor_g')}${path}`, { body, headers: keyHeader('authorization', key, 'Bearer ') });

  it.each([
    ['missing', null],
    ['wrong', 'bad-key'],
  ])('refuses a %s key on both hosts with 401 and the vendor error body', async (_label, key) => {
    for (const [path, body] of [
      ['/tts', BODY],
      ['/v1/tts-models', undefined],
      ['/v1/voices', undefined],
    ] as const) {
      const response = await call(path, body, key);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({
        status_code: 401,
        error_type: 'unauthenticated',
        message: expect.any(String),
        validation_errors: [],
        request_id: expect.any(String),
      });
    }
    expect(await t.control.callCount('vendor_g')).toBe(0);
  });

  it('lists the catalogue models with languages, built-in voices and capabilities', async () => {
    const { models } = (await (await call('/v1/tts-models')).json()) as {
      models: { id: string; languages: { code: string }[]; voices: { id: string }[]; speed_min: number }[];
    };
    // The catalogue's models, and a beta model the router's catalogue lacks.
    expect(models.map((m) => m.id)).toEqual(['g_model_1', 'g_model_2', 'g_model_3', 'g_model_beta']);
    expect(models[2]).toMatchObject({
      speed_min: 0.7,
      speed_max: 1.3,
      supports_silence_reduction: true,
      supports_timestamps: true,
    });
    expect(models[0]?.languages.map((l) => l.code)).toContain('en');
    expect(models[2]?.voices.map((v) => v.id)).toContain('Vesna');
    expect(models[0]?.voices.map((v) => v.id)).not.toContain('Vesna');
  });

  it('pages the cloned voices by cursor until next_page_cursor is null', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query = `?limit=100${cursor ? `&cursor=${cursor}` : ''}`;
      const page = (await (await call(`/v1/voices${query}`)).json()) as ClonedPage;
      expect(page.voices.length).toBeLessThanOrEqual(100);
      seen.push(...page.voices.map((v) => v.id));
      cursor = page.next_page_cursor;
      pages++;
    } while (cursor !== null);
    // A large project: more clones than the largest page holds.
    expect(pages).toBe(2);
    expect(new Set(seen).size).toBe(106);
    expect(seen.length).toBe(106);
    expect((await call('/v1/voices?cursor=nonsense')).status).toBe(400);
    expect((await call('/v1/voices?limit=0')).status).toBe(400);
  });

  it('streams raw audio in the asked format with the vendor content types', async () => {
    const pcm = await call('/tts', { ...BODY, audio_format: 'pcm_s16le', sample_rate: 16000 });
    expect(pcm.status).toBe(200);
    expect(pcm.headers.get('content-type')).toBe('audio/pcm');
    expect((await pcm.arrayBuffer()).byteLength).toBe(sampleCount(spokenMs(TEXT), 16000) * 2);
    const mulaw = await call('/tts', { ...BODY, audio_format: 'pcm_mulaw', sample_rate: 8000 });
    expect(mulaw.headers.get('content-type')).toBe('audio/pcm');
    expect((await mulaw.arrayBuffer()).byteLength).toBe(sampleCount(spokenMs(TEXT), 8000));
    const wav = await call('/tts', { ...BODY, speed: 1.3 });
    expect(wav.headers.get('content-type')).toBe('audio/wav');
    const info = parseWav(Buffer.from(await wav.arrayBuffer()));
    expect(info).toMatchObject({
      sampleRate: 24000,
      dataSize: sampleCount(spokenMs(TEXT, { speed: 1.3 }), 24000) * 2,
    });
    const mp3 = await call('/tts', { ...BODY, audio_format: 'mp3', sample_rate: 44100 });
    expect(mp3.headers.get('content-type')).toBe('audio/mpeg');
    expect(parseMp3(Buffer.from(await mp3.arrayBuffer())).frames.length).toBeGreaterThan(10);
  });

  it('makes every format the vendor lists, those the router catalogue lacks included', async () => {
    const at16k = sampleCount(spokenMs(TEXT), 16000);
    const f32 = await call('/tts', { ...BODY, audio_format: 'pcm_f32le', sample_rate: 16000 });
    expect(f32.headers.get('content-type')).toBe('audio/pcm');
    const floats = Buffer.from(await f32.arrayBuffer());
    expect(floats.length).toBe(at16k * 4);
    const s16be = await call('/tts', { ...BODY, audio_format: 'pcm_s16be', sample_rate: 16000 });
    const bigEndian = Buffer.from(await s16be.arrayBuffer());
    expect(bigEndian.length).toBe(at16k * 2);
    // Each is the take's 16-bit samples (rebuilt from its id) written as the name says.
    const [f32Call, beCall] = (await t.control.calls('vendor_g')).slice(-2);
    const samplesOf = (takeId: string | undefined) =>
      createTake(TEXT, { codec: 'pcm', sampleRate: 16000 }, { takeId }).bytes;
    const little = samplesOf(f32Call?.takeId);
    for (const i of [0, 1, 100, at16k - 1]) {
      expect(floats.readFloatLE(i * 4)).toBe(little.readInt16LE(i * 2) / 32768);
    }
    expect(bigEndian.equals(Buffer.from(samplesOf(beCall?.takeId)).swap16())).toBe(true);
    for (const [format, type, parse] of [
      ['aac', 'audio/aac', (b: Buffer) => parseAdts(b).frames.length],
      ['opus', 'audio/opus', (b: Buffer) => parseOgg(b).length],
      ['flac', 'audio/flac', (b: Buffer) => parseFlacStreamInfo(b).sampleRate],
    ] as const) {
      const answer = await call('/tts', { ...BODY, audio_format: format, sample_rate: 48000 });
      expect([format, answer.status, answer.headers.get('content-type')]).toEqual([format, 200, type]);
      expect(parse(Buffer.from(await answer.arrayBuffer()))).toBeGreaterThan(0);
    }
  });

  it('counts the cloned voices and reads one by its id', async () => {
    expect(await (await call('/v1/voices/count')).json()).toEqual({ count: 106 });
    const voice = '6a0c1d2e-0000-4000-8000-000000000002';
    expect(await (await call(`/v1/voices/${voice}`)).json()).toMatchObject({
      id: voice,
      name: 'Field Clone',
    });
    const missing = await call('/v1/voices/6a0c1d2e-0000-4000-8000-00000000ffff');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ status_code: 404, error_type: 'not_found' });
  });

  it('makes a fresh take for every call and counts them per key', async () => {
    await expectFreshTakes(t, { vendor: 'vendor_g', key: KEY, endpoint: 'rest' }, async () =>
      Buffer.from(
        await (await call('/tts', { ...BODY, audio_format: 'pcm_s16le', sample_rate: 24000 })).arrayBuffer(),
      ),
    );
  });

  it('speaks with a cloned voice only for a model it is ready for', async () => {
    const ready = '6a0c1d2e-0000-4000-8000-000000000002';
    expect((await call('/tts', { ...BODY, voice: ready })).status).toBe(200);
    const notReady = await call('/tts', { ...BODY, model: 'g_model_1', voice: ready });
    expect(notReady.status).toBe(400);
    expect(await notReady.json()).toMatchObject({
      error_type: 'invalid_request',
      message: expect.stringContaining('not ready'),
    });
  });

  it.each([
    ['no voice', { voice: undefined }],
    ['an unknown voice', { voice: 'Nobody' }],
    ['a voice only the newest model has', { model: 'g_model_1', voice: 'Vesna' }],
    ['an unknown model', { model: 'g_model_9' }],
    ['an unknown language', { language: 'xx' }],
    ['a speed out of range', { speed: 1.5 }],
    ['raw pcm without a sample rate', { audio_format: 'pcm_s16le' }],
    ['an unknown format', { audio_format: 'ogg' }],
    ['a non-boolean reduce_silence', { reduce_silence: 'yes' }],
    ['empty text', { text: ' ' }],
  ])('refuses %s with 400 invalid_request', async (_label, patch) => {
    const response = await call('/tts', { ...BODY, ...patch });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ status_code: 400, error_type: 'invalid_request' });
    expect(await t.control.callCount('vendor_g')).toBe(0);
  });

  it('applies injected faults: an error before audio, a cut mid-body', async () => {
    await t.control.injectFault({ vendor: 'vendor_g', kind: 'error', status: 402, message: 'out of credit' });
    const refused = await call('/tts', BODY);
    expect(refused.status).toBe(402);
    expect(await refused.json()).toMatchObject({
      error_type: 'insufficient_quota',
      message: 'out of credit',
    });
    await t.control.injectFault({ vendor: 'vendor_g', kind: 'cut', afterBytes: 2000 });
    await expect(call('/tts', BODY).then((r) => r.arrayBuffer())).rejects.toThrow();
    expect((await t.control.calls('vendor_g')).map((c) => c.fault)).toEqual(['error', 'cut']);
  });

  it('ends a body early as a whole one ends (the end fault): a WAV short of the samples its header gives', async () => {
    await t.control.injectFault({ vendor: 'vendor_g', kind: 'end', afterBytes: 2000 });
    const ended = await call('/tts', BODY);
    expect(ended.status).toBe(200);
    const bytes = Buffer.from(await ended.arrayBuffer());
    expect(bytes.length).toBeGreaterThan(2000);
    expect(bytes.length - 44).toBeLessThan(parseWav(bytes).dataSize);
  });
});
