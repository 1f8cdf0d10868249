import { expectStepChunks, readSseEvents } from '@router/test-sse';
import { parseMp3 } from '../kit/audio/mp3.codec';
import { parseWav } from '../kit/audio/pcm.codec';
import { readTakeId } from '../kit/audio/read-take-id';
import { sampleCount } from '../kit/audio/sample-source';
import { spokenMs } from '../kit/audio/take';
import { expectFreshTakes, keyHeader, sendJson, useTestSim } from '../test/sim-harness';
import { VENDOR_I_VOICES } from './vendor-i.voices';

const KEY = 'i-key-1';
const VERSION = '2026-08-14';
const OLD_VERSION = '2025-04-16';
const TEXT = 'Hello there, how are you today?';
const VOICE = VENDOR_I_VOICES[0]?.id ?? '';
const RAW = { container: 'raw', encoding: 'pcm_s16le', sample_rate: 24000 };
const BODY = {
  model_id: 'i_model_2',
  transcript: TEXT,
  voice: { mode: 'id', id: VOICE },
  language: 'en',
  output_format: RAW,
};

describe('vendor_i simulator', () => {
  const t = useTestSim();
  const call = (
    path: string,
    body?: unknown,
    {
      key = KEY,
      version = VERSION,
      method = 'POST',
    }: { key?: string | null; version?: string | null; method?: string } = {},
  ): Promise<Response> =>
    sendJson(`${t.base('vendor_i')}${path}`, {
      method,
      body,
      headers: { ...keyHeader('X-API-Key', key), ...keyHeader('vendor_i-Version', version) },
    });

  it.each([
    ['missing', null, 'No API key was provided.'],
    ['wrong', 'bad-key', 'Invalid API key.'],
  ])(
    'refuses a %s key with 401: JSON from 2026-03-01, plain Title: Message before',
    async (_l, key, message) => {
      for (const [path, method] of [
        ['/tts/bytes', 'POST'],
        ['/tts/sse', 'POST'],
        ['/voices', 'GET'],
        [`/voices/${VOICE}`, 'GET'],
      ] as const) {
        const body = method === 'POST' ? BODY : undefined;
        const json = await call(path, body, { key, method });
        expect(json.status).toBe(401);
        expect(await json.json()).toEqual({
          error_code: 'invalid_api_key',
          title: 'Unauthorized',
          message,
          request_id: expect.any(String),
        });
        const plain = await call(path, body, { key, method, version: OLD_VERSION });
        expect(plain.status).toBe(401);
        expect(plain.headers.get('content-type')).toMatch(/^text\/plain/);
        expect(await plain.text()).toBe(`Unauthorized: ${message}`);
      }
      expect(await t.control.callCount('vendor_i')).toBe(0);
    },
  );

  it('takes the key as a bearer token and the version as a query parameter', async () => {
    const response = await fetch(`${t.base('vendor_i')}/voices?vendor_i_version=${VERSION}`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(response.status).toBe(200);
  });

  it.each([
    ['missing', null],
    ['malformed', 'latest'],
    ['too old', '2023-01-01'],
  ])('refuses a %s version with 400', async (_l, version) => {
    const response = await call('/tts/bytes', BODY, { version });
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/^Invalid version: /);
    expect(await t.control.callCount('vendor_i')).toBe(0);
  });

  it('answers an unknown path with the text 404 page not found', async () => {
    const response = await call('/tts/nothing', BODY);
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('404 page not found');
  });

  it('returns the whole clip exactly per output_format', async () => {
    const raw = await call('/tts/bytes', BODY);
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toBe('audio/pcm');
    expect((await raw.arrayBuffer()).byteLength).toBe(sampleCount(spokenMs(TEXT), 24000) * 2);

    const wav = await call('/tts/bytes', {
      ...BODY,
      output_format: { container: 'wav', encoding: 'pcm_s16le', sample_rate: 16000 },
      generation_config: { speed: 1.5, volume: 1.2 },
    });
    const info = parseWav(Buffer.from(await wav.arrayBuffer()));
    expect(info.sampleRate).toBe(16000);
    expect(info.dataSize).toBe(sampleCount(spokenMs(TEXT, { speed: 1.5 }), 16000) * 2);

    const mulaw = await call('/tts/bytes', {
      ...BODY,
      output_format: { container: 'raw', encoding: 'pcm_mulaw', sample_rate: 8000 },
    });
    expect(mulaw.headers.get('content-type')).toBe('audio/mulaw');
    expect((await mulaw.arrayBuffer()).byteLength).toBe(sampleCount(spokenMs(TEXT), 8000));

    const mp3 = await call('/tts/bytes', {
      ...BODY,
      output_format: { container: 'mp3', sample_rate: 44100, bit_rate: 64000 },
    });
    expect(mp3.headers.get('content-type')).toBe('audio/mpeg');
    const frames = parseMp3(Buffer.from(await mp3.arrayBuffer())).frames;
    expect(frames.length).toBeGreaterThan(0);
    expect(frames[0]).toMatchObject({ sampleRate: 44100, bitrateKbps: 64 });
  });

  it('streams SSE chunks, word timestamps when asked, then exactly one done', async () => {
    const response = await call('/tts/sse', { ...BODY, add_timestamps: true, context_id: 'ctx-1' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = readSseEvents(await response.text());
    const chunks = expectStepChunks(events, { context_id: 'ctx-1' });
    for (const chunk of chunks) expect(Number.isInteger(chunk.data['step_time'])).toBe(false);
    const stamps = events
      .filter((e) => e.event === 'timestamps')
      .map((e) => e.data['word_timestamps'] as { words: string[]; start: number[]; end: number[] });
    expect(stamps.flatMap((s) => s.words)).toEqual(TEXT.split(' '));
    const starts = stamps.flatMap((s) => s.start);
    expect(starts[0]).toBe(0);
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    expect(stamps.flatMap((s) => s.end).at(-1)).toBeCloseTo(spokenMs(TEXT) / 1000, 2);
    expect(events.at(-1)).toEqual({
      event: 'done',
      data: { type: 'done', done: true, status_code: 200, context_id: 'ctx-1' },
    });
    expect(events.filter((e) => e.event === 'done')).toHaveLength(1);
    const audio = Buffer.concat(chunks.map((c) => Buffer.from(c.data['data'] as string, 'base64')));
    expect(audio.length).toBe(sampleCount(spokenMs(TEXT), 24000) * 2);
    const [record] = await t.control.calls('vendor_i', { key: KEY, endpoint: 'sse' });
    expect(readTakeId(audio, 'pcm')).toBe(record?.takeId);
  });

  it('sends no timestamps without add_timestamps', async () => {
    const events = readSseEvents(await (await call('/tts/sse', BODY)).text());
    expect(events.some((e) => e.event === 'timestamps')).toBe(false);
  });

  it('makes a fresh take for every call of the same body and counts them per key and endpoint', async () => {
    await expectFreshTakes(t, { vendor: 'vendor_i', key: KEY, endpoint: 'bytes' }, async () =>
      Buffer.from(await (await call('/tts/bytes', BODY)).arrayBuffer()),
    );
  });

  it('makes an injected error observable: HTTP before audio, an error event after it', async () => {
    await t.control.injectFault({ vendor: 'vendor_i', kind: 'error', status: 429, message: 'slow down' });
    const early = await call('/tts/sse', BODY);
    expect(early.status).toBe(429);
    expect(await early.json()).toMatchObject({
      status_code: 429,
      title: 'Too Many Requests',
      message: 'slow down',
    });

    await t.control.injectFault({ vendor: 'vendor_i', kind: 'error', status: 503, afterBytes: 2000 });
    const late = await call('/tts/sse', BODY);
    expect(late.status).toBe(200);
    const events = readSseEvents(await late.text());
    expect(events.at(-1)?.data).toMatchObject({ type: 'error', status_code: 503, done: true });
    expect(events.some((e) => e.event === 'done')).toBe(false);
    const audio = Buffer.concat(
      events.filter((e) => e.event === 'chunk').map((c) => Buffer.from(c.data['data'] as string, 'base64')),
    );
    expect(audio.length).toBe(2000);
    const calls = await t.control.calls('vendor_i');
    expect(calls.map((c) => c.fault)).toEqual(['error', 'error']);
  });

  it('cuts a stream when a cut is injected', async () => {
    await t.control.injectFault({ vendor: 'vendor_i', kind: 'cut', afterBytes: 3000, endpoint: 'sse' });
    await expect(call('/tts/sse', BODY).then((r) => r.text())).rejects.toThrow();
  });

  it('pages voices with starting_after and ending_before', async () => {
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const query = `?limit=7${after ? `&starting_after=${after}` : ''}`;
      const page = (await (await call(`/voices${query}`, undefined, { method: 'GET' })).json()) as {
        data: { id: string }[];
        has_more: boolean;
      };
      expect(page.data.length).toBeLessThanOrEqual(7);
      seen.push(...page.data.map((v) => v.id));
      if (!page.has_more) break;
      after = page.data.at(-1)?.id;
    }
    expect(seen).toEqual(VENDOR_I_VOICES.map((v) => v.id));
    const back = (await (
      await call(`/voices?limit=2&ending_before=${seen[4] ?? ''}`, undefined, { method: 'GET' })
    ).json()) as { data: { id: string }[]; has_more: boolean };
    expect(back).toEqual({
      data: [{ id: seen[2] }, { id: seen[3] }].map((v) => expect.objectContaining(v)),
      has_more: true,
    });
    const one = await call(`/voices/${VOICE}`, undefined, { method: 'GET' });
    expect(await one.json()).toMatchObject({ id: VOICE, name: VENDOR_I_VOICES[0]?.name });
    expect((await call('/voices/nope', undefined, { method: 'GET' })).status).toBe(404);
  });

  it.each([
    ['an unknown voice', { voice: { mode: 'id', id: 'nope' } }, 404],
    ['an unknown model', { model_id: 'i_model_9' }, 400],
    ['language and locale together', { locale: 'en-GB' }, 400],
    ['an unknown language', { language: 'xx' }, 400],
    ['a bad rate', { output_format: { ...RAW, sample_rate: 12000 } }, 400],
    ['a volume out of range', { generation_config: { volume: 3 } }, 400],
    ['a speed out of range', { generation_config: { speed: 2 } }, 400],
    ['an empty transcript', { transcript: ' ' }, 400],
  ])('refuses %s', async (_l, patch, status) => {
    const response = await call('/tts/bytes', { ...BODY, ...patch });
    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject({ status_code: status, title: expect.any(String) });
    expect(await t.control.callCount('vendor_i')).toBe(0);
  });

  it.each([
    ['a regional locale', { language: undefined, locale: 'en-GB' }],
    ['a regional language', { language: 'en-GB' }],
    ['a locale alone', { language: undefined, locale: 'fr' }],
  ])('speaks %s of a language it has, as the vendor does', async (_l, patch) => {
    for (const path of ['/tts/bytes', '/tts/sse']) {
      const response = await call(path, { ...BODY, ...patch });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    expect(await t.control.callCount('vendor_i')).toBe(2);
  });

  it('accepts only the raw container on the SSE endpoint', async () => {
    const response = await call('/tts/sse', { ...BODY, output_format: { ...RAW, container: 'wav' } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error_code: 'invalid_output_format' });
  });
});
