import {
  expectStepChunks,
  mirrorE2e,
  readSseEvents,
  type SseFrame,
  TAKE_FAILS_MIDWAY,
} from '@router/testing';
import { createTake, type AudioSpec } from '@router/vendor-sim';

const { stack, sim, newOrg, unique, calls, keylessOrg, disableOrg, setCredit, underFault } =
  mirrorE2e('vendor_i');
/** The mirror's base URL, as a vendor_i client is configured with it (the vendor's is `https://{BASE}`). */
const BASE = `${stack.gatewayUrl}/vendor_i`;
/** The version the vendor's current clients send, and an older one whose errors are plain text. */
const CURRENT = '2026-08-14';
const OLDER = '2025-04-16';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly bytes: Buffer;
}

const streamAudio = (stream: readonly SseFrame[]): Buffer =>
  Buffer.concat(
    stream.filter((e) => e.event === 'chunk').map((e) => Buffer.from(e.data['data'] as string, 'base64')),
  );

/**
 * A vendor_i client's session, written from the vendor's notes (../shared/vendors/vendor_i.md), against the
 * router through the gateway with only the base URL and the key changed: both synthesis endpoints are the
 * vendor's answer and then, said again, served from the cache with no vendor call (the SSE replay the same
 * whatever the request's `context_id`); the voice reads reach the vendor every time; refusals in the vendor's
 * shapes by API version.
 */
describe('vendor_i mirror, REST and SSE (e2e)', () => {
  let voice = '';

  async function send(
    key: string | null,
    path: string,
    body: unknown,
    headers: Record<string, string> = { 'vendor_i-version': CURRENT },
  ): Promise<Answer> {
    const answer = await fetch(`${BASE}${path}`, {
      method: 'POST',
      headers: {
        ...(key === null ? {} : { 'x-api-key': key }),
        'content-type': 'application/json',
        ...headers,
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: answer.status, headers: answer.headers, bytes: Buffer.from(await answer.arrayBuffer()) };
  }
  const bytes = (key: string | null, body: unknown, headers?: Record<string, string>) =>
    send(key, '/tts/bytes', body, headers);
  const sse = (key: string | null, body: unknown, headers?: Record<string, string>) =>
    send(key, '/tts/sse', body, headers);
  const json = (answer: Answer): any => JSON.parse(answer.bytes.toString('utf8'));
  const raw = (sampleRate = 24000) => ({ container: 'raw', encoding: 'pcm_s16le', sample_rate: sampleRate });
  const request = (transcript: string, extra: Record<string, unknown> = {}) => ({
    model_id: 'i_model_2',
    transcript,
    voice: { mode: 'id', id: voice },
    output_format: raw(),
    language: 'en',
    ...extra,
  });

  async function lastTake(vendorKey: string, text: string, spec: AudioSpec): Promise<Buffer> {
    const takeId = (await sim.calls('vendor_i', { key: vendorKey })).at(-1)?.takeId;
    return createTake(text, spec, { takeId }).bytes;
  }

  beforeAll(async () => {
    const { key } = await newOrg();
    const answer = await fetch(`${BASE}/voices?limit=1`, {
      headers: { authorization: `Bearer ${key}`, 'vendor_i-version': CURRENT },
    });
    voice = ((await answer.json()) as { data: Array<{ id: string }> }).data[0]?.id ?? '';
    expect(voice).toMatch(UUID);
  });

  it.each([
    { name: 'raw PCM', format: raw(16000), spec: { codec: 'pcm', sampleRate: 16000 }, type: 'audio/pcm' },
    {
      name: 'WAV',
      format: { container: 'wav', encoding: 'pcm_s16le', sample_rate: 22050 },
      spec: { codec: 'wav', sampleRate: 22050 },
      type: 'audio/wav',
    },
    {
      name: 'MP3',
      format: { container: 'mp3', sample_rate: 44100, bit_rate: 128000 },
      spec: { codec: 'mp3', sampleRate: 44100, bitrateKbps: 128 },
      type: 'audio/mpeg',
    },
  ] as const)(
    "answers /tts/bytes in $name with the vendor's audio, then the same from the cache",
    async ({ format, spec, type }) => {
      const { key, vendorKey } = await newOrg();
      const text = unique(`Spoken as ${spec.codec}`);
      const body = request(text, { output_format: format });
      const before = await calls(vendorKey);

      const first = await bytes(key, body);
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toBe(type);
      expect(first.headers.get('x-request-id')).toMatch(UUID);
      expect(first.bytes.equals(await lastTake(vendorKey, text, spec))).toBe(true);
      expect(await calls(vendorKey)).toBe(before + 1);

      const again = await bytes(key, body);
      expect(again.status).toBe(200);
      expect(again.headers.get('content-type')).toBe(type);
      expect(again.headers.get('x-request-id')).toBeNull();
      expect(again.bytes.equals(first.bytes)).toBe(true);
      expect(await calls(vendorKey)).toBe(before + 1);
    },
  );

  it('streams /tts/sse as chunk and timestamps events then done; the replay is the same whatever the context_id', async () => {
    const { key, vendorKey } = await newOrg();
    const text = unique('Streamed with word timings, then from the cache');
    const body = request(text, { add_timestamps: true });
    const before = await calls(vendorKey);

    const first = await sse(key, { ...body, context_id: 'first' });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const stream = readSseEvents(first.bytes);
    expect(stream.at(-1)).toEqual({
      event: 'done',
      data: { type: 'done', done: true, status_code: 200, context_id: 'first' },
    });
    expectStepChunks(stream, { context_id: 'first' });
    const stamps = stream.filter((e) => e.event === 'timestamps');
    expect(stamps.length).toBeGreaterThan(0);
    expect(stamps.flatMap((e) => e.data['word_timestamps']['words'] as string[]).join(' ')).toBe(text);
    expect(
      streamAudio(stream).equals(await lastTake(vendorKey, text, { codec: 'pcm', sampleRate: 24000 })),
    ).toBe(true);
    expect(await calls(vendorKey)).toBe(before + 1);

    // The stored events are the vendor's without the first request's context_id: one replay for every label.
    const withoutLabel = first.bytes.toString('utf8').replaceAll(',"context_id":"first"', '');
    for (const label of [{ context_id: 'second' }, {}, { context_id: 'first' }]) {
      const again = await sse(key, { ...body, ...label });
      expect(again.status).toBe(200);
      expect(again.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(again.bytes.toString('utf8')).toBe(withoutLabel);
    }
    expect(await calls(vendorKey)).toBe(before + 1);
  });

  it('keys the version by the release it names, in its header or its query form alike', async () => {
    const { key, vendorKey } = await newOrg();
    const body = request(unique('One release, many dates'));
    const before = await calls(vendorKey);

    const first = await bytes(key, body, { 'vendor_i-version': '2025-04-16' });
    expect(first.status).toBe(200);
    // A later date before the next release, and the query form: the same behaviour, the same entry.
    const later = await bytes(key, body, { 'vendor_i-version': '2025-11-30' });
    const query = await send(key, '/tts/bytes?vendor_i_version=2025-04-16', body, {});
    expect([later.status, query.status]).toEqual([200, 200]);
    expect(later.bytes.equals(first.bytes)).toBe(true);
    expect(query.bytes.equals(first.bytes)).toBe(true);
    expect(await calls(vendorKey)).toBe(before + 1);

    // Another release is another request.
    const newer = await bytes(key, body, { 'vendor_i-version': CURRENT });
    expect(newer.status).toBe(200);
    expect(await calls(vendorKey)).toBe(before + 2);
  });

  it('passes a request without a version on to the vendor, whose 400 it gets, every time', async () => {
    const { key, vendorKey } = await newOrg();
    const body = request(unique('No version'));
    for (let i = 0; i < 2; i++) {
      const answer = await bytes(key, body, {});
      expect(answer.status).toBe(400);
      expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(answer.bytes.toString('utf8')).toBe('Invalid version: The vendor_i-Version header is required');
    }
    expect(await calls(vendorKey)).toBe(0);
  });

  it('keys the voice as the vendor reads it, in any of its spellings, and pronunciation_dict_id by its id', async () => {
    const { key, vendorKey } = await newOrg();
    const text = unique('Voices spelled three ways');
    const before = await calls(vendorKey);

    const first = await bytes(key, request(text));
    const short = await bytes(key, request(text, { voice: { id: voice } }));
    const bare = await bytes(key, request(text, { voice }));
    expect(short.bytes.equals(first.bytes)).toBe(true);
    expect(bare.bytes.equals(first.bytes)).toBe(true);
    expect(await calls(vendorKey)).toBe(before + 1);

    const dict = await bytes(key, request(text, { pronunciation_dict_id: 'dict_one' }));
    const dictAgain = await bytes(key, request(text, { pronunciation_dict_id: 'dict_one' }));
    expect(dictAgain.bytes.equals(dict.bytes)).toBe(true);
    expect(await calls(vendorKey)).toBe(before + 2);
    await bytes(key, request(text, { pronunciation_dict_id: 'dict_two' }));
    expect(await calls(vendorKey)).toBe(before + 3);
  });

  it.each([
    { path: '/tts/bytes', audio: (answer: Answer) => answer.bytes },
    { path: '/tts/sse', audio: (answer: Answer) => streamAudio(readSseEvents(answer.bytes)) },
  ])(
    'speaks a regional locale on $path as the vendor does: en-GB once, then from the cache, apart from en',
    async ({ path, audio }) => {
      const { key, vendorKey } = await newOrg();
      const text = unique('Spoken in British English');
      const spec = { codec: 'pcm', sampleRate: 24000 } as const;
      const british = request(text, { language: undefined, locale: 'en-GB' });
      const before = await calls(vendorKey);

      const first = await send(key, path, british);
      expect(first.status).toBe(200);
      expect(audio(first).equals(await lastTake(vendorKey, text, spec))).toBe(true);
      const again = await send(key, path, british);
      expect(again.status).toBe(200);
      expect(again.bytes.equals(first.bytes)).toBe(true);
      expect(await calls(vendorKey)).toBe(before + 1);

      // The same text in en is the vendor's other answer, not the en-GB entry.
      const plain = await send(key, path, request(text));
      expect(plain.status).toBe(200);
      expect(await calls(vendorKey)).toBe(before + 2);
      expect(audio(plain).equals(await lastTake(vendorKey, text, spec))).toBe(true);
      expect(audio(plain).equals(audio(first))).toBe(false);

      // Only what the vendor refuses is refused: language and locale together, its 400, never stored.
      for (let i = 0; i < 2; i++) {
        const both = await send(key, path, request(text, { locale: 'en-GB' }));
        expect(both.status).toBe(400);
        expect(json(both)).toMatchObject({ status_code: 400, title: 'Invalid language' });
      }
      expect(await calls(vendorKey)).toBe(before + 2);
    },
  );

  it('reads the voice list and a voice from the vendor every time', async () => {
    const { key, vendorKey } = await newOrg();
    const reads = () => sim.readCount('vendor_i', { key: vendorKey });
    const before = await reads();
    const get = (path: string) =>
      fetch(`${BASE}${path}`, { headers: { 'x-api-key': key, 'vendor_i-version': CURRENT } });
    for (let i = 0; i < 2; i++) {
      const list = await get('/voices?limit=2');
      expect(list.status).toBe(200);
      const page = (await list.json()) as { data: Array<{ id: string; name: string }>; has_more: boolean };
      expect(page.data).toHaveLength(2);
      expect(page.has_more).toBe(true);
      const one = await get(`/voices/${page.data[1]?.id ?? ''}`);
      expect(one.status).toBe(200);
      expect(await one.json()).toMatchObject({ id: page.data[1]?.id, name: page.data[1]?.name });
    }
    expect(await reads()).toBe(before + 4);
    const unknown = await get('/voices/nobody');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      status_code: 404,
      error_code: 'voice_not_found',
      title: 'Voice not found',
      message: 'Voice nobody was not found',
      request_id: expect.stringMatching(UUID),
      doc_url: expect.any(String),
    });
    expect(await calls(vendorKey)).toBe(0);
  });

  it('passes an error event after some audio on as sent and stores none of it', async () => {
    const { key, vendorKey } = await newOrg();
    const body = request(unique('Not whole, then whole, then from the cache'));
    const before = await calls(vendorKey);
    // The fault stands for every call: a failure that reaches the worker before any audio is retried on another
    // worker (by design), and that retry must fail too for the client to see the error.
    const broken = await underFault(
      vendorKey,
      { ...TAKE_FAILS_MIDWAY, endpoint: 'sse', times: 'always' },
      () => sse(key, body),
    );
    const afterFault = await calls(vendorKey);
    expect(afterFault).toBeGreaterThanOrEqual(before + 1);
    expect(broken.status).toBe(200);
    expect(readSseEvents(broken.bytes).at(-1)).toEqual({
      event: 'error',
      data: {
        type: 'error',
        status_code: 500,
        done: true,
        title: 'Internal Server Error',
        message: 'The take failed.',
        error_code: 'internal_error',
        request_id: expect.stringMatching(UUID),
      },
    });

    const whole = await sse(key, body);
    expect(readSseEvents(whole.bytes).at(-1)?.data).toEqual({ type: 'done', done: true, status_code: 200 });
    const again = await sse(key, body);
    expect(again.bytes.toString('utf8')).toBe(whole.bytes.toString('utf8'));
    expect(await calls(vendorKey)).toBe(afterFault + 1);
  });

  it("passes the vendor's refusals on as sent, JSON or text by version, storing nothing of them", async () => {
    const { key, vendorKey } = await newOrg();
    const body = request(unique('Refused, then said'));

    const unknownVoice = await bytes(key, { ...body, voice: { mode: 'id', id: 'nobody' } });
    expect(unknownVoice.status).toBe(404);
    expect(json(unknownVoice)).toEqual({
      status_code: 404,
      error_code: 'voice_not_found',
      title: 'Invalid voice',
      message: 'Voice nobody was not found',
      request_id: expect.stringMatching(UUID),
      doc_url: expect.any(String),
    });
    const badFormat = await sse(
      key,
      { ...body, output_format: { container: 'wav', sample_rate: 24000 } },
      {
        'vendor_i-version': OLDER,
      },
    );
    expect(badFormat.status).toBe(400);
    expect(badFormat.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(badFormat.bytes.toString('utf8')).toBe(
      'Invalid output format: streaming endpoints accept only the raw container',
    );
    expect(await calls(vendorKey)).toBe(0);
  });

  it('answers a path the mirror does not have with the text 404 page not found', async () => {
    const { key } = await newOrg();
    for (const [method, path] of [
      ['GET', '/tts/bytes'],
      ['POST', '/voices/clone'],
      ['DELETE', '/voices/x'],
      ['GET', '/tts/websocket/x'],
      ['GET', '/v1/voices'],
    ] as const) {
      const answer = await fetch(`${BASE}${path}`, {
        method,
        headers: { 'x-api-key': key, 'vendor_i-version': CURRENT },
      });
      expect([method, path, answer.status]).toEqual([method, path, 404]);
      expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await answer.text()).toBe('404 page not found');
    }
  });

  it('refuses a missing, wrong or vendor-keyless key and a disabled org with 401: JSON from 2026-03-01, text before', async () => {
    const body = request('Hello.');
    const current = { 'vendor_i-version': CURRENT };
    for (const key of [null, 'rtr_not-a-key']) {
      const answer = await bytes(key, body, current);
      expect(answer.status).toBe(401);
      expect(answer.headers.get('content-type')).toBe('application/json');
      expect(json(answer)).toEqual({
        error_code: 'invalid_api_key',
        title: 'Unauthorized',
        message: expect.any(String),
        request_id: expect.stringMatching(UUID),
      });
      for (const older of [{ 'vendor_i-version': OLDER }, {}] as Array<Record<string, string>>) {
        const text = await bytes(key, body, older);
        expect(text.status).toBe(401);
        expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
        expect(text.bytes.toString('utf8')).toMatch(/^Unauthorized: \S/);
      }
    }
    // The query form of the version picks the shape too.
    const byQuery = await send(null, '/tts/sse?vendor_i_version=2026-03-01', body, {});
    expect([byQuery.status, json(byQuery).error_code]).toEqual([401, 'invalid_api_key']);

    const noVendorKey = await bytes(keylessOrg().key, body, current);
    expect(noVendorKey.status).toBe(401);
    expect(json(noVendorKey)).toMatchObject({
      error_code: 'invalid_api_key',
      message: expect.stringMatching(/dashboard/),
    });

    const { orgId, key } = await newOrg();
    // Authorization: Bearer is the current clients' placement.
    const bearer = await send(null, '/tts/bytes', body, { ...current, authorization: `Bearer ${key}` });
    expect(bearer.status).toBe(200);
    await disableOrg(orgId, async () => (await bytes(key, body, current)).status === 401);
  });

  it("refuses an org out of credit with 402 in the vendor's shape", async () => {
    const { orgId, key, vendorKey } = await newOrg();
    const body = request(unique('Out of credit'));
    await setCredit(orgId, 'out', async () => (await sse(key, body)).status === 402);
    const refused = await bytes(key, body);
    expect(refused.status).toBe(402);
    expect(json(refused)).toEqual({
      error_code: 'insufficient_credits',
      title: 'Payment Required',
      message: expect.stringMatching(/credit/i),
      request_id: expect.stringMatching(UUID),
    });
    const older = await bytes(key, body, { 'vendor_i-version': OLDER });
    expect(older.status).toBe(402);
    expect(older.bytes.toString('utf8')).toMatch(/^Payment Required: .*credit/i);
    expect(await calls(vendorKey)).toBe(0);
  });

  it("refuses a body nested past 32 levels or holding a number past a double with the vendor's 400", async () => {
    const { key, vendorKey } = await newOrg();
    const nested = `{"transcript":"Hi.","voice":${'['.repeat(4000)}${']'.repeat(4000)}}`;
    const huge = '{"transcript":"Hi.","generation_config":{"speed":1e400}}';
    const json400 = await bytes(key, nested);
    expect(json400.status).toBe(400);
    expect(json(json400)).toEqual({
      error_code: 'bad_request',
      title: 'Bad Request',
      message: expect.stringMatching(/^voice nests/),
      request_id: expect.stringMatching(UUID),
    });
    const text400 = await bytes(key, huge, { 'vendor_i-version': OLDER });
    expect(text400.status).toBe(400);
    expect(text400.bytes.toString('utf8')).toMatch(/^Bad Request: generation_config/);
    expect(await calls(vendorKey)).toBe(0);
  });
});
