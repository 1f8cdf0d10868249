import { readFileSync } from 'node:fs';
import { Agent, request } from 'undici';
import { mirrorE2e } from '@router/testing';
import { parseVendorASettings } from '@router/vendor-a';
import { createTake } from '@router/vendor-sim';

const { stack, sim, newOrg, unique, calls, keylessOrg, disableOrg, setCredit, rateLimited, saidTwice } =
  mirrorE2e('vendor_a');
/** The mirror's base URL, as a vendor_a client is configured with it (the vendor's is `https://{BASE}`). */
const BASE = `${stack.gatewayUrl}/vendor_a`;

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly bytes: Buffer;
}

const json = (answer: Answer): any => JSON.parse(answer.bytes.toString('utf8'));

async function send(key: string | null, path: string, body: unknown): Promise<Answer> {
  const answer = await fetch(`${BASE}${path}`, {
    method: 'POST',
    headers: {
      ...(key === null ? {} : { 'api-subscription-key': key }),
      'content-type': 'application/json',
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: answer.status, headers: answer.headers, bytes: Buffer.from(await answer.arrayBuffer()) };
}

const speech = (key: string | null, body: unknown) => send(key, '/text-to-speech', body);
const stream = (key: string | null, body: unknown) => send(key, '/text-to-speech/stream', body);

/** The simulator's take for the last call of `vendorKey`, as the vendor encodes the body's settings. */
async function lastTake(vendorKey: string, body: Record<string, unknown>, endpoint: 'rest' | 'stream') {
  const parsed = parseVendorASettings(body, endpoint);
  if (!parsed.ok) throw new Error(parsed.problem.message);
  const takeId = (await sim.calls('vendor_a', { key: vendorKey })).at(-1)?.takeId;
  return createTake(body['text'] as string, parsed.settings.spec, { takeId, speed: parsed.settings.pace })
    .bytes;
}

/**
 * A vendor_a client's REST session, written from the vendor's notes (../shared/vendors/vendor_a.md), through the
 * gateway with only the base URL and the key changed: both endpoints give the vendor's answer, and said again
 * come from the cache with no vendor call; a hit's `request_id` is null and its stream has the codec's type.
 */
describe('vendor_a mirror, REST (e2e)', () => {
  it('answers POST /text-to-speech with {request_id, audios}; said again, request_id null and the same audios', async () => {
    const { key, vendorKey } = await newOrg();
    const body = { text: unique('Namaste, how can I help'), target_language_code: 'hi-IN' };
    const before = await calls(vendorKey);

    const first = await speech(key, body);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/^application\/json/);
    const answer = json(first);
    expect(Object.keys(answer).sort()).toEqual(['audios', 'request_id']);
    expect(answer.request_id).toMatch(/^\d{8}_[0-9a-f]{12}$/);
    const audio = Buffer.from(answer.audios[0] as string, 'base64');
    expect(audio.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(audio.equals(await lastTake(vendorKey, body, 'rest'))).toBe(true);

    const again = await speech(key, body);
    expect(again.status).toBe(200);
    expect(json(again)).toEqual({ request_id: null, audios: answer.audios });
    expect(await calls(vendorKey)).toBe(before + 1);
  });

  it.each([
    { codec: undefined, type: 'audio/mpeg' },
    { codec: 'wav', type: 'audio/wav' },
    { codec: 'linear16', type: 'audio/pcm' },
    { codec: 'flac', type: 'audio/flac' },
    { codec: 'opus', type: 'audio/ogg' },
  ])(
    'streams POST /text-to-speech/stream as $codec with $type, then the same bytes from the cache',
    async ({ codec, type }) => {
      const { key, vendorKey } = await newOrg();
      const body = {
        text: unique(`Streamed as ${codec ?? 'mp3'}`),
        target_language_code: 'en-IN',
        ...(codec ? { output_audio_codec: codec } : {}),
      };
      const before = await calls(vendorKey);

      const first = await stream(key, body);
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toBe(type);
      expect(first.headers.get('x-request-id')).toMatch(/^\d{8}_[0-9a-f]{12}$/);
      expect(first.bytes.equals(await lastTake(vendorKey, body, 'stream'))).toBe(true);

      const again = await stream(key, body);
      expect(again.status).toBe(200);
      expect(again.headers.get('content-type')).toBe(type);
      expect(again.headers.get('x-request-id')).toBeNull();
      expect(again.bytes.equals(first.bytes)).toBe(true);
      expect(await calls(vendorKey)).toBe(before + 1);
    },
  );

  it('reads a body as the vendor reads it: language_code, numbers as strings, nulls and defaults spelled out are one take', async () => {
    const { key, vendorKey } = await newOrg();
    const text = unique('Lenient like the vendor');
    const before = await calls(vendorKey);
    const first = await stream(key, { text, target_language_code: 'ta-IN' });
    expect(first.status).toBe(200);
    for (const body of [
      { text, language_code: 'ta-IN' },
      { text, target_language_code: 'ta-IN', speech_sample_rate: '24000', pace: '1.0' },
      { text, target_language_code: 'ta-IN', speaker: null, model: 'a_model_1', output_audio_codec: 'mp3' },
      { text, target_language_code: 'ta-IN', min_buffer_size: 50, max_chunk_length: '150', temperature: 0.6 },
    ]) {
      const again = await stream(key, body);
      expect([JSON.stringify(body), again.status]).toEqual([JSON.stringify(body), 200]);
      expect(again.bytes.equals(first.bytes)).toBe(true);
    }
    expect(await calls(vendorKey)).toBe(before + 1);
    // Another setting is another take.
    const faster = await stream(key, { text, target_language_code: 'ta-IN', pace: 1.5 });
    expect(faster.bytes.equals(first.bytes)).toBe(false);
    expect(await calls(vendorKey)).toBe(before + 2);
  });

  it("passes an unknown dict_id's warning and audio on, and never stores such an answer", async () => {
    const { key, vendorKey } = await newOrg();
    const body = {
      text: unique('With a missing dictionary'),
      target_language_code: 'hi-IN',
      dict_id: 'unknown-1',
    };
    const before = await calls(vendorKey);
    const first = await stream(key, body);
    const second = await stream(key, body);
    for (const answer of [first, second]) {
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.headers.get('x-api-warning') ?? '{}')).toEqual({
        code: 'not_found_error',
        message: 'Pronunciation dictionary not found',
      });
    }
    expect(second.bytes.equals(first.bytes)).toBe(false);
    expect(await calls(vendorKey)).toBe(before + 2);
  });

  it("passes the vendor's refusals on as sent, storing nothing of them", async () => {
    const { key, vendorKey } = await newOrg();
    const body = { text: unique('Refused, then said'), target_language_code: 'hi-IN' };
    const before = await calls(vendorKey);

    const badSpeaker = await stream(key, { ...body, speaker: 'Nobody' });
    expect(badSpeaker.status).toBe(400);
    expect(json(badSpeaker)).toEqual({
      error: {
        message: "Speaker 'Nobody' is not compatible with model a_model_1",
        code: 'invalid_request_error',
        request_id: expect.stringMatching(/^\d{8}_/),
      },
    });
    const noLanguage = await speech(key, { text: body.text });
    expect(noLanguage.status).toBe(422);
    expect(json(noLanguage).error).toMatchObject({
      message: 'target_language_code: Field required',
      code: 'unprocessable_entity_error',
    });
    const unspeakable = await speech(key, { ...body, text: '... !!' });
    expect(unspeakable.status).toBe(400);
    expect(json(unspeakable).error).toMatchObject({
      message: 'text must contain at least one letter or digit',
      code: 'invalid_request_error',
    });

    const refused = await rateLimited(vendorKey, () => stream(key, body), { message: 'slow down' });
    expect(json(refused).error).toMatchObject({ message: 'slow down', code: 'rate_limit_exceeded_error' });

    await saidTwice(() => stream(key, body));
    // The simulator counts takes: the 429 and the one take that was stored (the body refusals make none).
    expect(await calls(vendorKey)).toBe(before + 2);
  });

  it("answers an HTTPS client on the gateway's own TLS port, and the same bytes in the clear from the cache", async () => {
    const { key, vendorKey } = await newOrg();
    const body = { text: unique('Over HTTPS'), target_language_code: 'hi-IN' };
    const trusting = new Agent({ connect: { ca: readFileSync(stack.tlsCertFile) } });
    try {
      const secure = await request(`${stack.gatewayTlsUrl}/vendor_a/text-to-speech/stream`, {
        method: 'POST',
        headers: { 'api-subscription-key': key, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        dispatcher: trusting,
      });
      expect(secure.statusCode).toBe(200);
      const audio = Buffer.from(await secure.body.arrayBuffer());
      expect(audio.equals(await lastTake(vendorKey, body, 'stream'))).toBe(true);
      const clear = await stream(key, body);
      expect(clear.bytes.equals(audio)).toBe(true);
      expect(await calls(vendorKey)).toBe(1);
    } finally {
      await trusting.close();
    }
  });

  it("answers a path vendor_a's mirror does not have with the vendor's 404", async () => {
    const { key } = await newOrg();
    for (const [method, path] of [
      ['GET', '/text-to-speech'],
      ['POST', '/text-to-speech/streams'],
      ['POST', '/v1/text-to-speech'],
      ['GET', '/pronunciation-dictionaries/my-dict'],
    ] as const) {
      const answer = await fetch(`${BASE}${path}`, { method, headers: { 'api-subscription-key': key } });
      expect([method, path, answer.status]).toEqual([method, path, 404]);
      expect(await answer.json()).toEqual({ detail: 'Not Found' });
    }
  });

  it("refuses a missing, wrong or vendor-keyless router key, and a disabled org, with the vendor's 403", async () => {
    const body = { text: 'Namaste.', target_language_code: 'hi-IN' };
    const refusal = (message: string) => ({
      error: { message, code: 'invalid_api_key_error', request_id: null },
    });
    const missing = await speech(null, body);
    expect([missing.status, json(missing)]).toEqual([
      403,
      refusal('No API key was sent. Send your router API key (rtr_...) where this API expects its key.'),
    ]);
    const wrong = await stream('rtr_not-a-key', body);
    expect([wrong.status, json(wrong)]).toEqual([
      403,
      refusal('Invalid API key. The router API key is unknown or has been revoked.'),
    ]);
    const noVendorKey = await speech(keylessOrg().key, body);
    expect(noVendorKey.status).toBe(403);
    expect(json(noVendorKey)).toEqual(refusal(expect.stringContaining('No vendor_a key is stored')));

    const { orgId, key } = await newOrg();
    await disableOrg(orgId, async () => (await speech(key, body)).status === 403);
    expect(json(await speech(key, body))).toEqual(
      refusal('Invalid API key. The organisation of this router API key is disabled.'),
    );
  });

  it("refuses an org out of credit with 402 insufficient_credits in the vendor's shape", async () => {
    const { orgId, key, vendorKey } = await newOrg();
    const body = { text: unique('Out of credit'), target_language_code: 'hi-IN' };
    await setCredit(orgId, 'out', async () => (await stream(key, body)).status === 402);
    const refused = await speech(key, body);
    expect(refused.status).toBe(402);
    expect(json(refused)).toEqual({
      error: {
        message: 'The organisation is out of credit; new requests are refused until credit is added.',
        code: 'insufficient_credits',
        request_id: null,
      },
    });
    expect(await calls(vendorKey)).toBe(0);
  });

  it("refuses a body nested past 32 levels or holding a number past a double with the vendor's 422", async () => {
    const { key, vendorKey } = await newOrg();
    for (const { raw, field } of [
      { raw: `{"text":"Hi.","speaker":${'['.repeat(4000)}${']'.repeat(4000)}}`, field: 'speaker' },
      { raw: '{"text":"Hi.","pace":1e400}', field: 'pace' },
    ]) {
      const answer = await speech(key, raw);
      expect(answer.status).toBe(422);
      expect(json(answer)).toEqual({
        error: {
          message: expect.stringMatching(new RegExp(`^${field} (nests|holds)`)),
          code: 'unprocessable_entity_error',
          request_id: null,
        },
      });
    }
    expect(await calls(vendorKey)).toBe(0);
  });
});
