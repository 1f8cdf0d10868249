import { randomUUID } from 'node:crypto';
import { mirrorE2e } from '@router/testing';
import { type AudioSpec, createTake, vendorGTake } from '@router/vendor-sim';

const kit = mirrorE2e('vendor_g');
const { stack, sim, newOrg, unique, calls, keylessOrg, setCredit, rateLimited } = kit;
/**
 * The mirror's base URL, as a vendor_g client is configured with it: both of the vendor's hosts (TTS and API)
 * are `{base_url}/vendor_g`.
 */
const BASE = `${stack.gatewayUrl}/vendor_g`;
const VOICE = 'Maren';

interface Answer {
  readonly status: number;
  readonly type: string | null;
  readonly headers: Headers;
  readonly bytes: Buffer;
}

/** A request as the vendor's clients send one: `Authorization: Bearer <key>`, a JSON body. */
async function send(
  key: string | null,
  path: string,
  body?: unknown,
  method = body === undefined ? 'GET' : 'POST',
): Promise<Answer> {
  const answer = await fetch(`${BASE}${path}`, {
    method,
    headers: {
      ...(key === null ? {} : { authorization: `Bearer ${key}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return {
    status: answer.status,
    type: answer.headers.get('content-type'),
    headers: answer.headers,
    bytes: Buffer.from(await answer.arrayBuffer()),
  };
}

const tts = (key: string | null, body: unknown): Promise<Answer> => send(key, '/tts', body);

/** The simulator's take of `key`'s last call, as it would encode `text`. */
async function lastTake(
  vendorKey: string,
  text: string,
  spec: AudioSpec,
  samples?: 'f32le' | 's16be',
): Promise<Buffer> {
  const takeId = (await sim.calls('vendor_g', { key: vendorKey })).at(-1)?.takeId;
  return vendorGTake(createTake(text, spec, { takeId }), samples).bytes;
}

/** The vendor's REST error body (both hosts). */
const errorBody = (status: number, type: string) => ({
  status_code: status,
  error_type: type,
  message: expect.any(String),
  validation_errors: expect.any(Array),
  request_id: expect.any(String),
});

/**
 * A vendor_g client's REST session, written from the vendor's notes (../shared/vendors/vendor_g.md), through the
 * gateway with only the base URL and the key changed: `POST /tts` is the vendor's audio and then, said again,
 * the same bytes from the cache with no vendor call; the model and voice reads are the vendor's every time.
 */
describe('vendor_g mirror, REST (e2e)', () => {
  it.each([
    { audio_format: 'pcm_s16le', rate: 16000, type: 'audio/pcm', spec: { codec: 'pcm', sampleRate: 16000 } },
    { audio_format: 'pcm_f32le', rate: 24000, type: 'audio/pcm', spec: { codec: 'pcm', sampleRate: 24000 } },
    { audio_format: 'pcm_mulaw', rate: 8000, type: 'audio/pcm', spec: { codec: 'mulaw', sampleRate: 8000 } },
    { audio_format: 'wav', rate: 22050, type: 'audio/wav', spec: { codec: 'wav', sampleRate: 22050 } },
    { audio_format: 'mp3', rate: 44100, type: 'audio/mpeg', spec: { codec: 'mp3', sampleRate: 44100 } },
    { audio_format: 'aac', rate: 24000, type: 'audio/aac', spec: { codec: 'aac', sampleRate: 24000 } },
    { audio_format: 'opus', rate: 48000, type: 'audio/opus', spec: { codec: 'opus', sampleRate: 48000 } },
    { audio_format: 'flac', rate: 16000, type: 'audio/flac', spec: { codec: 'flac', sampleRate: 16000 } },
  ] as const)(
    "answers $audio_format with the vendor's audio, then the same bytes from the cache",
    async ({ audio_format, rate, type, spec }) => {
      const { key, vendorKey } = await newOrg();
      const text = unique(`Answered in ${audio_format}`);
      const body = {
        text,
        model: 'g_model_3',
        language: 'en',
        voice: VOICE,
        audio_format,
        sample_rate: rate,
      };
      const before = await calls(vendorKey);

      const live = await tts(key, body);
      expect([live.status, live.type]).toEqual([200, type]);
      const samples = audio_format === 'pcm_f32le' ? 'f32le' : undefined;
      expect(live.bytes.equals(await lastTake(vendorKey, text, spec, samples))).toBe(true);
      expect(await calls(vendorKey)).toBe(before + 1);

      const again = await tts(key, body);
      expect([again.status, again.type]).toEqual([200, type]);
      expect(again.bytes.equals(live.bytes)).toBe(true);
      expect(await calls(vendorKey)).toBe(before + 1);
    },
  );

  it("shares one entry between a body with the vendor's defaults left out, null or spelled out", async () => {
    const { key, vendorKey } = await newOrg();
    const text = unique('Defaults left out');
    const before = await calls(vendorKey);
    const leftOut = await tts(key, { text, voice: VOICE });
    expect([leftOut.status, leftOut.type]).toEqual([200, 'audio/wav']);
    expect(leftOut.bytes.equals(await lastTake(vendorKey, text, { codec: 'wav', sampleRate: 24000 }))).toBe(
      true,
    );
    for (const body of [
      {
        text,
        voice: VOICE,
        model: null,
        language: null,
        audio_format: null,
        speed: null,
        reduce_silence: null,
      },
      {
        text,
        voice: VOICE,
        model: 'g_model_3',
        language: 'en',
        audio_format: 'wav',
        sample_rate: 24000,
        speed: 1.0,
        reduce_silence: false,
        return_timestamps: true,
        client_reference_id: `request-${randomUUID()}`,
      },
    ]) {
      const again = await tts(key, body);
      expect(again.bytes.equals(leftOut.bytes)).toBe(true);
    }
    expect(await calls(vendorKey)).toBe(before + 1);
  });

  it('makes one vendor call for ten requests at once', async () => {
    const { key, vendorKey } = await newOrg();
    const body = { text: unique('Ten at once'), voice: VOICE, audio_format: 'pcm_s16le', sample_rate: 24000 };
    const before = await calls(vendorKey);
    const answers = await Promise.all(Array.from({ length: 10 }, () => tts(key, body)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(answers.every((a) => a.bytes.equals(answers[0]?.bytes ?? Buffer.alloc(0)))).toBe(true);
    expect(await calls(vendorKey)).toBe(before + 1);
  });

  it('reads the models and the cloned voices from the vendor every time', async () => {
    const { key, vendorKey } = await newOrg();
    const reads = (what: string) => sim.readCount('vendor_g', { key: vendorKey, what });
    const [models, voices] = [await reads('models'), await reads('voices')];
    for (let i = 0; i < 2; i++) {
      const list = await send(key, '/v1/tts-models');
      expect(list.status).toBe(200);
      expect(JSON.parse(list.bytes.toString('utf8'))).toMatchObject({
        models: expect.arrayContaining([expect.objectContaining({ id: 'g_model_3' })]),
      });
    }
    const page = JSON.parse((await send(key, '/v1/voices?limit=2')).bytes.toString('utf8')) as {
      voices: Array<{ id: string }>;
      next_page_cursor: string | null;
    };
    expect(page.voices).toHaveLength(2);
    expect(page.next_page_cursor).toEqual(expect.any(String));
    const count = JSON.parse((await send(key, '/v1/voices/count')).bytes.toString('utf8')) as {
      count: number;
    };
    expect(count.count).toBeGreaterThan(2);
    const voice = await send(key, `/v1/voices/${page.voices[0]?.id ?? ''}`);
    expect(JSON.parse(voice.bytes.toString('utf8'))).toMatchObject({ id: page.voices[0]?.id });
    expect(await reads('models')).toBe(models + 2);
    expect(await reads('voices')).toBe(voices + 3);
  });

  it("passes the vendor's refusals on as sent and stores nothing", async () => {
    const { key, vendorKey } = await newOrg();
    const body = { text: unique('Said by nobody'), voice: 'Nobody' };
    for (let i = 0; i < 2; i++) {
      const refused = await tts(key, body);
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.bytes.toString('utf8'))).toMatchObject({
        status_code: 400,
        error_type: 'invalid_request',
        message: "Voice 'Nobody' not found for model g_model_3",
      });
    }
    const before = await calls(vendorKey);
    const limitedBody = { text: unique('Rate limited once'), voice: VOICE };
    const limited = await rateLimited(vendorKey, () => tts(key, limitedBody));
    expect(JSON.parse(limited.bytes.toString('utf8'))).toMatchObject(errorBody(429, 'rate_limit_exceeded'));
    // Not stored: the same request reaches the vendor again.
    expect((await tts(key, limitedBody)).status).toBe(200);
    expect(await calls(vendorKey)).toBe(before + 2);
  });

  it('cuts an answer whose trailers report an error after its first audio, and stores nothing of it', async () => {
    const { key, vendorKey } = await newOrg();
    const body = {
      text: unique('Fails after its first audio'),
      voice: VOICE,
      audio_format: 'pcm_s16le',
      sample_rate: 24000,
    };
    await kit.injectFault(vendorKey, {
      kind: 'error',
      status: 503,
      message: 'model overloaded',
      afterBytes: 2000,
    });
    const before = await calls(vendorKey);
    const answer = await fetch(`${BASE}/tts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(answer.status).toBe(200);
    await expect(answer.arrayBuffer()).rejects.toThrow();
    // The same request reaches the vendor again, and its whole answer is stored then.
    const whole = await tts(key, body);
    expect(whole.status).toBe(200);
    expect(await calls(vendorKey)).toBe(before + 2);
    expect((await tts(key, body)).bytes.equals(whole.bytes)).toBe(true);
    expect(await calls(vendorKey)).toBe(before + 2);
  });

  it('passes a WAV answer that ended short of its header on as sent, and stores nothing of it', async () => {
    const { key, vendorKey } = await newOrg();
    const body = { text: unique('Ends before its samples do'), voice: VOICE };
    await sim.injectFault({ vendor: 'vendor_g', key: vendorKey, kind: 'end', afterBytes: 3000 });
    const before = await calls(vendorKey);
    const short = await tts(key, body);
    expect([short.status, short.type]).toEqual([200, 'audio/wav']);
    const take = await lastTake(vendorKey, body.text, { codec: 'wav', sampleRate: 24000 });
    expect(short.bytes.length).toBeLessThan(take.length);
    expect(short.bytes.equals(take.subarray(0, short.bytes.length))).toBe(true);
    const whole = await tts(key, body);
    expect(whole.bytes.length).toBeGreaterThan(short.bytes.length);
    expect(await calls(vendorKey)).toBe(before + 2);
  });

  it("refuses a missing, wrong or vendor-keyless key, and an org out of credit, in vendor_g's shape", async () => {
    const body = { text: 'Hi.', voice: VOICE };
    for (const key of [null, 'rtr_not-a-key']) {
      for (const answer of [await tts(key, body), await send(key, '/v1/tts-models')]) {
        expect(answer.status).toBe(401);
        expect(JSON.parse(answer.bytes.toString('utf8'))).toEqual(errorBody(401, 'unauthenticated'));
      }
    }
    const noVendorKey = await tts(keylessOrg().key, body);
    expect(noVendorKey.status).toBe(401);
    expect(JSON.parse(noVendorKey.bytes.toString('utf8'))).toMatchObject({
      ...errorBody(401, 'unauthenticated'),
      message: expect.stringContaining('/dashboard/provider-keys'),
    });

    const { orgId, key } = await newOrg();
    try {
      await setCredit(orgId, 'out', async () => (await tts(key, body)).status === 402);
      expect(JSON.parse((await tts(key, body)).bytes.toString('utf8'))).toEqual(
        errorBody(402, 'insufficient_quota'),
      );
    } finally {
      await setCredit(orgId, 'in');
    }
  });

  it("answers paths the mirror does not serve with the vendor's 404", async () => {
    const { key } = await newOrg();
    for (const [method, path] of [
      ['GET', '/tts'],
      ['POST', '/v1/voices'],
      ['DELETE', '/v1/voices/v1'],
      ['POST', '/v1/auth/temporary-api-key'],
      ['GET', '/v2/tts-models'],
    ] as const) {
      const answer = await send(key, path, method === 'GET' || method === 'DELETE' ? undefined : {}, method);
      expect([method, path, answer.status]).toEqual([method, path, 404]);
      expect(JSON.parse(answer.bytes.toString('utf8'))).toEqual(errorBody(404, 'not_found'));
    }
  });

  it("refuses a body nested past the client-JSON limit with the vendor's 400 naming the field, calling no one", async () => {
    const { key, vendorKey } = await newOrg();
    const before = await calls(vendorKey);
    const deep = `{"text":"Hi.","voice":"Maren","extra":${'['.repeat(40)}${']'.repeat(40)}}`;
    const refused = await tts(key, deep);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.bytes.toString('utf8'))).toEqual({
      ...errorBody(400, 'invalid_request'),
      validation_errors: [{ field: 'extra', message: expect.any(String) }],
    });
    expect(await calls(vendorKey)).toBe(before);
  });
});
