import { mirrorE2e } from '@router/testing';
import { type AudioSpec, createTake } from '@router/vendor-sim';

const kit = mirrorE2e('vendor_f');
const { stack, sim, newOrg, unique, calls } = kit;
const { keylessOrg, disableOrg, setCredit, rateLimited, saidTwice, underFault } = kit;
/** The mirror's base URL as a vendor_f client is configured with it (the vendor's is `https://{BASE}/v1`). */
const BASE = `${stack.gatewayUrl}/vendor_f/v1`;

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly bytes: Buffer;
}

const json = (answer: Answer): Record<string, any> => JSON.parse(answer.bytes.toString('utf8'));

/**
 * A vendor_f client's REST session, written from the vendor's notes (../shared/vendors/vendor_f.md), against the
 * router through the gateway with only the base URL and the key changed: `POST /v1/tts` answers the vendor's raw
 * audio and then, said again, the same bytes from the cache with no vendor call; the voice list reaches the
 * vendor every time.
 */
describe('vendor_f mirror, REST (e2e)', () => {
  /** An org with its router key and its own vendor_f key, so the simulator's counts are this test's alone. */

  async function tts(key: string | null, body: unknown, path = '/tts'): Promise<Answer> {
    const answer = await fetch(`${BASE}${path}`, {
      method: 'POST',
      headers: {
        ...(key === null ? {} : { authorization: `Bearer ${key}` }),
        'content-type': 'application/json',
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: answer.status, headers: answer.headers, bytes: Buffer.from(await answer.arrayBuffer()) };
  }

  /** The simulator's take of the last call made with `vendorKey`, as it encodes `text`. */
  async function vendorTake(vendorKey: string, text: string, spec: AudioSpec, speed = 1): Promise<Buffer> {
    const takeId = (await sim.calls('vendor_f', { key: vendorKey })).at(-1)?.takeId;
    return createTake(text, spec, { takeId, speed }).bytes;
  }

  it.each([
    {
      name: 'no output_format (mp3 at 24 kHz, 128 kbps)',
      format: undefined,
      spec: { codec: 'mp3', sampleRate: 24000, bitrateKbps: 128 },
      type: 'audio/mpeg',
    },
    {
      name: 'mp3 at 44.1 kHz, 64 kbps',
      format: { codec: 'mp3', sample_rate: 44100, bit_rate: 64000 },
      spec: { codec: 'mp3', sampleRate: 44100, bitrateKbps: 64 },
      type: 'audio/mpeg',
    },
    {
      name: 'wav at 44.1 kHz',
      format: { codec: 'wav', sample_rate: 44100 },
      spec: { codec: 'wav', sampleRate: 44100 },
      type: 'audio/wav',
    },
    {
      name: 'pcm at 16 kHz',
      format: { codec: 'pcm', sample_rate: 16000 },
      spec: { codec: 'pcm', sampleRate: 16000 },
      type: 'audio/pcm',
    },
    {
      name: 'mulaw at 8 kHz',
      format: { codec: 'mulaw', sample_rate: 8000 },
      spec: { codec: 'mulaw', sampleRate: 8000 },
      type: 'audio/mulaw',
    },
    {
      name: 'alaw at 8 kHz',
      format: { codec: 'alaw', sample_rate: 8000 },
      spec: { codec: 'alaw', sampleRate: 8000 },
      type: 'audio/alaw',
    },
  ] satisfies Array<{ name: string; format?: Record<string, unknown>; spec: AudioSpec; type: string }>)(
    "answers $name with the vendor's audio, then the same bytes from the cache",
    async ({ format, spec, type }) => {
      const { key, vendorKey } = await newOrg();
      const text = unique('Hello there, how are you doing today');
      const body = { text, voice_id: 'birch', speed: 1.25, ...(format ? { output_format: format } : {}) };
      const before = await calls(vendorKey);

      const first = await tts(key, body);
      expect([first.status, first.headers.get('content-type')]).toEqual([200, type]);
      expect(first.bytes.equals(await vendorTake(vendorKey, text, spec, 1.25))).toBe(true);
      expect(await calls(vendorKey)).toBe(before + 1);

      const again = await tts(key, body);
      expect([again.status, again.headers.get('content-type')]).toEqual([200, type]);
      expect(again.bytes.equals(first.bytes)).toBe(true);
      expect(await calls(vendorKey)).toBe(before + 1);
    },
  );

  it('keys a body with its defaults left out, null or partial as the same body spelled out: one vendor call', async () => {
    const { key, vendorKey } = await newOrg();
    const text = unique('Defaults left out');
    const before = await calls(vendorKey);
    const bare = await tts(key, { text });
    expect(bare.status).toBe(200);
    for (const same of [
      {
        text,
        voice_id: 'aster',
        language: 'auto',
        output_format: { codec: 'mp3', sample_rate: 24000, bit_rate: 128000 },
        speed: 1.0,
        optimize_streaming_latency: 0,
        text_normalization: false,
      },
      { output_format: {}, speed: null, text, voice_id: 'ASTER', language: null },
      { text, output_format: { codec: 'mp3' }, optimize_streaming_latency: null },
    ]) {
      const answer = await tts(key, same);
      expect(answer.status).toBe(200);
      expect(answer.bytes.equals(bare.bytes)).toBe(true);
    }
    expect(await calls(vendorKey)).toBe(before + 1);

    // A setting changed is another request.
    const faster = await tts(key, { text, speed: 1.5 });
    expect(faster.status).toBe(200);
    expect(faster.bytes.equals(bare.bytes)).toBe(false);
    expect(await calls(vendorKey)).toBe(before + 2);
  });

  it('answers ten identical requests at once with one vendor call', async () => {
    const { key, vendorKey } = await newOrg();
    const body = { text: unique('Ten at once'), output_format: { codec: 'pcm', sample_rate: 16000 } };
    const before = await calls(vendorKey);
    const answers = await Promise.all(Array.from({ length: 10 }, () => tts(key, body)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    for (const answer of answers)
      expect(answer.bytes.equals(answers[0]?.bytes ?? Buffer.alloc(0))).toBe(true);
    expect(await calls(vendorKey)).toBe(before + 1);
  });

  it("reads the voice list from the vendor every time: built-ins and the account's custom voices", async () => {
    const { key, vendorKey } = await newOrg();
    const before = await sim.readCount('vendor_f', { key: vendorKey, what: 'voices' });
    for (let i = 0; i < 2; i += 1) {
      const answer = await fetch(`${BASE}/tts/voices`, { headers: { authorization: `Bearer ${key}` } });
      expect(answer.status).toBe(200);
      const { voices } = (await answer.json()) as { voices: Array<{ voice_id: string; type: string }> };
      expect(voices.filter((v) => v.type === 'builtin').map((v) => v.voice_id)).toContain('aster');
      expect(voices.filter((v) => v.type === 'custom')).toHaveLength(2);
    }
    expect(await sim.readCount('vendor_f', { key: vendorKey, what: 'voices' })).toBe(before + 2);
  });

  it("passes the vendor's refusals on as it sent them, a rate limit with its Retry-After, and stores none", async () => {
    const { key, vendorKey } = await newOrg();
    const text = unique('Refused, then said');
    const unknownVoice = await tts(key, { text, voice_id: 'nobody' });
    expect(unknownVoice.status).toBe(400);
    expect(json(unknownVoice)).toEqual({ code: 'Bad Request', error: 'invalid voice: nobody' });
    const badRate = await tts(key, { text, output_format: { codec: 'pcm', sample_rate: 32000 } });
    expect([badRate.status, json(badRate).code]).toEqual([400, 'Bad Request']);

    const before = await calls(vendorKey);
    const limited = await rateLimited(vendorKey, () => tts(key, { text }));
    expect(json(limited)).toEqual({ code: 'Too Many Requests', error: expect.any(String) });
    expect(limited.headers.get('retry-after')).toBe('1');

    const said = await saidTwice(() => tts(key, { text }));
    expect(said.headers.get('retry-after')).toBeNull();
    expect(await calls(vendorKey)).toBe(before + 2);
  });

  it.each([
    {
      what: 'an error after some audio (a raw body can only be dropped)',
      fault: { kind: 'error', status: 500 },
    },
    { what: 'a connection cut after some audio', fault: { kind: 'cut' } },
  ] as const)(
    'passes $what on as an aborted body, stores nothing: the same request reaches the vendor again',
    async ({ fault }) => {
      const { key, vendorKey } = await newOrg();
      const body = {
        text: unique('Broken, then whole, then from the cache'),
        output_format: { codec: 'pcm' },
      };
      const before = await calls(vendorKey);
      const injected = await sim.injectFault({
        vendor: 'vendor_f',
        key: vendorKey,
        afterBytes: 10_000,
        ...fault,
      });
      // Audio at playback speed, so the break comes well after the first audio reached the client (broken off
      // before that, the client would get an error answer instead of a body that aborts).
      await sim.setPacing('vendor_f', { factor: 1 });
      const broken = await tts(key, body)
        .then(
          () => 'whole',
          () => 'aborted',
        )
        .finally(() => sim.setPacing('vendor_f', { factor: 0 }));
      await sim.removeFault(injected.id).catch(() => undefined);
      expect(broken).toBe('aborted');

      const whole = await tts(key, body);
      expect(whole.status).toBe(200);
      const again = await tts(key, body);
      expect(again.bytes.equals(whole.bytes)).toBe(true);
      expect(await calls(vendorKey)).toBe(before + 2);
    },
  );

  it('passes a WAV answer ended short of its header on as it came, and stores nothing of it', async () => {
    const { key, vendorKey } = await newOrg();
    const body = { text: unique('Ended early'), output_format: { codec: 'wav', sample_rate: 16000 } };
    const before = await calls(vendorKey);
    const short = await underFault(vendorKey, { kind: 'end', afterBytes: 6000 }, () => tts(key, body));
    // A 200 whose body ended normally, before the samples its header gives.
    expect([short.status, short.headers.get('content-type')]).toEqual([200, 'audio/wav']);
    expect(short.bytes.length).toBeLessThan(44 + short.bytes.readUInt32LE(40));

    const whole = await tts(key, body);
    expect(whole.bytes.length).toBe(44 + whole.bytes.readUInt32LE(40));
    const again = await tts(key, body);
    expect(again.bytes.equals(whole.bytes)).toBe(true);
    expect(await calls(vendorKey)).toBe(before + 2);
  });

  it("answers a path vendor_f's mirror does not have with the vendor's 404", async () => {
    const { key } = await newOrg();
    for (const [method, path] of [
      ['GET', '/tts'],
      ['POST', '/tts/voices'],
      ['GET', '/tts/voices/aster'],
      ['GET', '/models'],
    ] as const) {
      const answer = await fetch(`${BASE}${path}`, { method, headers: { authorization: `Bearer ${key}` } });
      expect([method, path, answer.status]).toEqual([method, path, 404]);
      expect(await answer.json()).toEqual({ code: 'Not Found', error: 'no route matched' });
    }
  });

  it("refuses a missing, wrong or vendor-keyless key and a disabled org with the vendor gateway's 401", async () => {
    const body = { text: 'Hello.' };
    const unauthorized = { code: 'Unauthorized', error: expect.any(String) };
    for (const key of [null, 'rtr_not-a-key']) {
      const answer = await tts(key, body);
      expect(answer.status).toBe(401);
      expect(json(answer)).toEqual(unauthorized);
    }
    // The vendor's own scheme only: the key as a bare header value is no key.
    const bare = await fetch(`${BASE}/tts`, {
      method: 'POST',
      headers: { authorization: (await newOrg()).key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(bare.status).toBe(401);
    const voices = await fetch(`${BASE}/tts/voices`);
    expect(voices.status).toBe(401);

    const noVendorKey = await tts(keylessOrg().key, body);
    expect([noVendorKey.status, json(noVendorKey)]).toEqual([401, unauthorized]);
    expect(json(noVendorKey).error).toContain('/dashboard/provider-keys');

    const { orgId, key } = await newOrg();
    await disableOrg(orgId, async () => (await tts(key, body)).status === 401);
    expect(json(await tts(key, body))).toEqual(unauthorized);
  });

  it("refuses an org out of credit with 402 in the vendor gateway's shape, code insufficient_credits", async () => {
    const { orgId, key, vendorKey } = await newOrg();
    const body = { text: unique('Out of credit') };
    await setCredit(orgId, 'out', async () => (await tts(key, body)).status === 402);
    expect(json(await tts(key, body))).toEqual({ code: 'insufficient_credits', error: expect.any(String) });
    expect(await calls(vendorKey)).toBe(0);
  });

  it("refuses a body nested past 32 levels or holding a number past a double with the vendor's 400", async () => {
    const { key, vendorKey } = await newOrg();
    for (const raw of [
      `{"text":"Hi.","voice_id":${'['.repeat(4000)}${']'.repeat(4000)}}`,
      `{"text":"Hi.","x":${'{"a":'.repeat(32)}1${'}'.repeat(32)}}`,
      '{"text":"Hi.","speed":1e400}',
    ]) {
      const answer = await tts(key, raw);
      expect(answer.status).toBe(400);
      expect(json(answer)).toEqual({ code: 'Bad Request', error: expect.any(String) });
    }
    expect(await calls(vendorKey)).toBe(0);
  });
});
