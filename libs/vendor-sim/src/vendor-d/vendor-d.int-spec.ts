import { parseAdts } from '../kit/audio/aac.codec';
import { parseFlacStreamInfo } from '../kit/audio/flac.codec';
import { parseMp3 } from '../kit/audio/mp3.codec';
import { parseOgg } from '../kit/audio/ogg-opus.codec';
import { parseWav } from '../kit/audio/pcm.codec';
import { readTakeId } from '../kit/audio/read-take-id';
import { sampleCount } from '../kit/audio/sample-source';
import { spokenMs } from '../kit/audio/take';
import { expectFreshTakes, keyHeader, sendJson, useTestSim } from '../test/sim-harness';

const KEY = 'd-key-1';
const TEXT = 'The quick brown fox jumps over the lazy dog.';
const BODY = { model: 'd_model_3', voice: 'brook', input: TEXT, response_format: 'pcm' };

/** SSE blocks of a body that must hold `data:` lines only, each JSON but the `[DONE]` sentinel. */
function sseData(text: string): Array<Record<string, unknown> | '[DONE]'> {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      expect(block.startsWith('data: ')).toBe(true);
      expect(block.includes('\n')).toBe(false);
      const data = block.slice(6);
      return data === '[DONE]' ? data : (JSON.parse(data) as Record<string, unknown>);
    });
}

/** The JSON events of an SSE body. */
const jsonEvents = (text: string): Record<string, unknown>[] =>
  sseData(text).filter((event) => event !== '[DONE]');

describe('vendor_d simulator', () => {
  const t = useTestSim();
  const post = (body: unknown, key: string | null = KEY): Promise<Response> =>
    sendJson(`${t.base('vendor_d')}/v1/audio/speech`, {
      body,
      headers: keyHeader('authorization', key, 'Bearer '),
    });
  const bytes = async (response: Response): Promise<Buffer> => Buffer.from(await response.arrayBuffer());

  it.each([
    ['missing', null],
    ['wrong', 'bad-key'],
  ])('refuses a %s key with 401 invalid_api_key in the vendor error shape', async (_label, key) => {
    const response = await post(BODY, key);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: {
        message: expect.any(String),
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    });
    expect(await t.control.callCount('vendor_d')).toBe(0);
  });

  it('streams raw 24 kHz s16le pcm, chunked, with the vendor headers and the take id in the audio', async () => {
    const response = await post({ ...BODY, speed: 1.5 });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/pcm');
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    expect(response.headers.get('vendor_d-processing-ms')).toMatch(/^\d+$/);
    const audio = await bytes(response);
    expect(audio.length).toBe(sampleCount(spokenMs(TEXT, { speed: 1.5 }), 24000) * 2);
    const [record] = await t.control.calls('vendor_d', { key: KEY, endpoint: 'audio' });
    expect(readTakeId(audio, 'pcm')).toBe(record?.takeId);
  });

  it('answers every response_format in its own codec and MIME type at 24000 Hz', async () => {
    const mp3 = await post({ ...BODY, response_format: undefined });
    expect(mp3.headers.get('content-type')).toBe('audio/mpeg');
    const frames = parseMp3(await bytes(mp3));
    expect(frames.trailingBytes).toBe(0);
    expect(new Set(frames.frames.map((f) => f.sampleRate))).toEqual(new Set([24000]));
    const wav = await post({ ...BODY, response_format: 'wav' });
    expect(wav.headers.get('content-type')).toBe('audio/wav');
    expect(parseWav(await bytes(wav))).toMatchObject({ sampleRate: 24000, bitsPerSample: 16, channels: 1 });
    const aac = await post({ ...BODY, response_format: 'aac' });
    expect(aac.headers.get('content-type')).toBe('audio/aac');
    expect(parseAdts(await bytes(aac)).frames.every((f) => f.sampleRate === 24000)).toBe(true);
    const opus = await post({ ...BODY, response_format: 'opus' });
    expect(opus.headers.get('content-type')).toBe('audio/opus');
    expect(parseOgg(await bytes(opus)).length).toBeGreaterThan(1);
    const flac = await post({ ...BODY, response_format: 'flac' });
    expect(flac.headers.get('content-type')).toBe('audio/flac');
    expect(parseFlacStreamInfo(await bytes(flac)).sampleRate).toBe(24000);
  });

  it('streams SSE data lines: deltas, then exactly one done with usage, then [DONE]', async () => {
    const response = await post({ ...BODY, stream_format: 'sse', instructions: 'Calm and warm.' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const all = sseData(await response.text());
    expect(all.filter((e) => e === '[DONE]')).toHaveLength(1);
    expect(all.at(-1)).toBe('[DONE]');
    const events = all.filter((e) => e !== '[DONE]');
    const deltas = events.filter((e) => e['type'] === 'speech.audio.delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(events.at(-1)).toEqual({
      type: 'speech.audio.done',
      usage: {
        input_tokens: expect.any(Number),
        output_tokens: expect.any(Number),
        total_tokens: expect.any(Number),
      },
    });
    expect(events.filter((e) => e['type'] === 'speech.audio.done')).toHaveLength(1);
    const audio = Buffer.concat(deltas.map((d) => Buffer.from(d['audio'] as string, 'base64')));
    expect(audio.length).toBe(sampleCount(spokenMs(TEXT), 24000) * 2);
    const [record] = await t.control.calls('vendor_d', { key: KEY, endpoint: 'sse' });
    expect(readTakeId(audio, 'pcm')).toBe(record?.takeId);
  });

  it('answers the two older models with the audio when asked for SSE, and takes (and ignores) their instructions', async () => {
    for (const model of ['d_model_1', 'd_model_2']) {
      const sse = await post({ ...BODY, model, stream_format: 'sse' });
      expect(sse.status).toBe(200);
      expect(sse.headers.get('content-type')).toBe('audio/pcm');
      expect((await bytes(sse)).length).toBe(sampleCount(spokenMs(TEXT), 24000) * 2);
      const audio = await post({ ...BODY, model, instructions: 'Whisper.' });
      expect(audio.status).toBe(200);
      await audio.arrayBuffer();
    }
    expect(await t.control.callCount('vendor_d', { endpoint: 'audio' })).toBe(4);
  });

  it('takes a custom voice as an {id} object', async () => {
    const response = await post({ ...BODY, voice: { id: 'voice_abc123' } });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
  });

  it('makes a fresh take for every call of the same body and counts calls per key', async () => {
    await expectFreshTakes(t, { vendor: 'vendor_d', key: KEY, endpoint: 'audio' }, async () =>
      bytes(await post(BODY)),
    );
  });

  it.each([
    ['an unknown field', { sample_rate: 16000 }, 'sample_rate'],
    ['an unknown model', { model: 'd_model_9' }, 'model'],
    ['an unknown voice', { voice: 'nobody' }, 'voice'],
    ['a voice object without a voice id', { voice: { id: 'brook' } }, 'voice'],
    ['an unknown format', { response_format: 'mulaw' }, 'response_format'],
    ['a speed out of range', { speed: 4.5 }, 'speed'],
    ['too long an input', { input: 'a'.repeat(4097) }, 'input'],
    ['an empty input', { input: '' }, 'input'],
    ['an unknown stream format', { stream_format: 'ndjson' }, 'stream_format'],
  ])('refuses %s with 400 naming the field', async (_label, patch, param) => {
    const response = await post({ ...BODY, ...patch });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { message: expect.any(String), type: 'invalid_request_error', param, code: null },
    });
    expect(await t.control.callCount('vendor_d')).toBe(0);
  });

  it('answers an injected 429 before any audio in the vendor shape', async () => {
    await t.control.injectFault({ vendor: 'vendor_d', kind: 'error', status: 429 });
    const response = await post(BODY);
    expect(response.status).toBe(429);
    expect(((await response.json()) as { error: Record<string, unknown> }).error).toMatchObject({
      type: 'requests',
      code: 'rate_limit_exceeded',
    });
    expect((await t.control.calls('vendor_d'))[0]?.fault).toBe('error');
  });

  it('carries an error after audio as an SSE error event, and cuts a raw stream', async () => {
    await t.control.injectFault({
      vendor: 'vendor_d',
      endpoint: 'sse',
      kind: 'error',
      status: 500,
      afterBytes: 3000,
    });
    const events = jsonEvents(await (await post({ ...BODY, stream_format: 'sse' })).text());
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { type: 'server_error' } });
    expect(events.some((e) => e['type'] === 'speech.audio.done')).toBe(false);
    const audio = Buffer.concat(
      events
        .filter((e) => e['type'] === 'speech.audio.delta')
        .map((d) => Buffer.from(d['audio'] as string, 'base64')),
    );
    expect(audio.length).toBe(3000);

    await t.control.injectFault({ vendor: 'vendor_d', endpoint: 'audio', kind: 'cut', afterBytes: 2000 });
    const cut = await post(BODY);
    expect(cut.status).toBe(200);
    await expect(cut.arrayBuffer()).rejects.toThrow();
  });

  it('stalls before the first byte when asked', async () => {
    await t.control.injectFault({ vendor: 'vendor_d', kind: 'stall', stallMs: 150 });
    const started = Date.now();
    await (await post(BODY)).arrayBuffer();
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('answers an unknown path in the vendor error shape', async () => {
    const response = await fetch(`${t.base('vendor_d')}/v1/voices`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
  });
});
