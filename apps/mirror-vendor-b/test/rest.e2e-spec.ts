import {
  adminCli,
  eventually,
  expectStepChunks,
  mirrorE2e,
  readSseEvents as events,
  type SseFrame as Event,
} from '@router/testing';
import { createTake, type AudioSpec } from '@router/vendor-sim';

const { stack, sim, newOrg, unique, keylessOrg, disableOrg, setCredit, rateLimited, underFault } =
  mirrorE2e('vendor_b');
/** The mirror's base URL, as a vendor_b client is configured with it. */
const BASE = `${stack.gatewayUrl}/vendor_b`;
const VOICE = 'b_voice_hi_f1';

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly bytes: Buffer;
}

/** The audio of a stream's `chunk` events, concatenated (for `pcm`, the raw samples). */
function streamAudio(stream: readonly Event[]): Buffer {
  return Buffer.concat(
    stream.filter((e) => e.event === 'chunk').map((e) => Buffer.from(e.data['data'] as string, 'base64')),
  );
}

/**
 * A vendor_b client's session, written from the vendor's notes (../shared/vendors/vendor_b.md), against the
 * router through the gateway with only the base URL and the key changed: both synthesis endpoints are the
 * vendor's answer and then, said again, served from the cache with no vendor call (the clip byte for byte, the
 * stream's chunks without `step_time`, as the spec lists); the voice list reaches the vendor every time.
 */
describe('vendor_b mirror (e2e)', () => {
  /** An org with its router key and its own vendor_b key, so the simulator's counts are this test's alone. */

  async function post(key: string | undefined, path: string, body: unknown): Promise<Answer> {
    const answer = await fetch(`${BASE}${path}`, {
      method: 'POST',
      headers: {
        ...(key === undefined ? {} : { 'X-API-Key': key }),
        'content-type': 'application/json',
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: answer.status, headers: answer.headers, bytes: Buffer.from(await answer.arrayBuffer()) };
  }

  const json = (answer: Answer): any => JSON.parse(answer.bytes.toString('utf8'));

  /** The take the simulator made for the last call of `vendorKey`: its audio, as the vendor encodes it. */
  async function lastTake(vendorKey: string, text: string, spec: AudioSpec): Promise<Buffer> {
    const takeId = (await sim.calls('vendor_b', { key: vendorKey })).at(-1)?.takeId;
    return createTake(text, spec, { takeId, speed: 1 }).bytes;
  }

  it('lists the voices from the vendor, every time', async () => {
    const { key, vendorKey } = await newOrg();
    const before = await sim.readCount('vendor_b', { key: vendorKey });
    for (let i = 0; i < 2; i++) {
      const answer = await fetch(`${BASE}/v1/voices`, { headers: { 'X-API-Key': key } });
      expect(answer.status).toBe(200);
      const { voices } = (await answer.json()) as {
        voices: Array<{ voice_id: string; language: string; model: string }>;
      };
      expect(voices.find((v) => v.voice_id === VOICE)).toMatchObject({ language: 'hi', model: 'b_model_1' });
    }
    expect(await sim.readCount('vendor_b', { key: vendorKey })).toBe(before + 2);
  });

  it.each([
    { codec: 'pcm', sampleRate: 16000, type: 'audio/pcm' },
    { codec: 'wav', sampleRate: 8000, type: 'audio/wav' },
    { codec: 'mulaw', sampleRate: 8000, type: 'audio/mulaw' },
  ] as const)(
    "answers /v1/text-to-speech in $codec with the vendor's clip and headers, then the same bytes from the cache",
    async ({ codec, sampleRate, type }) => {
      const { key, vendorKey } = await newOrg();
      const text = unique(`Namaste in ${codec}`);
      const body = {
        text,
        voice_id: VOICE,
        language: 'hi',
        model: 'b_model_1',
        codec,
        sample_rate: sampleRate,
      };
      const before = await sim.callCount('vendor_b', { key: vendorKey });

      const first = await post(key, '/v1/text-to-speech', body);
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toBe(type);
      expect(first.headers.get('x-request-id')).toMatch(/^[0-9a-f]{32}$/);
      expect(first.bytes.equals(await lastTake(vendorKey, text, { codec, sampleRate }))).toBe(true);
      expect(await sim.callCount('vendor_b', { key: vendorKey })).toBe(before + 1);

      const again = await post(key, '/v1/text-to-speech', body);
      expect(again.status).toBe(200);
      expect(again.headers.get('content-type')).toBe(type);
      expect(again.bytes.equals(first.bytes)).toBe(true);
      // The vendor's request id names a request the replay did not make: the replay has none.
      expect(again.headers.get('x-request-id')).toBeNull();
      expect(await sim.callCount('vendor_b', { key: vendorKey })).toBe(before + 1);
    },
  );

  it("streams the vendor's chunk events, then replays the same chunks without step_time, then done, from the cache", async () => {
    const { key, vendorKey } = await newOrg();
    const text = unique('A longer sentence streamed as several chunks of audio');
    const body = {
      text,
      voice_id: VOICE,
      language: 'hi',
      model: 'b_model_1',
      codec: 'pcm',
      sample_rate: 16000,
    };
    const before = await sim.callCount('vendor_b', { key: vendorKey });

    const first = await post(key, '/v1/text-to-speech/stream', body);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/event-stream');
    expect(first.headers.get('x-request-id')).toMatch(/^[0-9a-f]{32}$/);
    const live = events(first.bytes);
    expectStepChunks(live);
    expect(live.at(-1)).toEqual({ event: 'done', data: { type: 'done', done: true, status_code: 200 } });
    expect(
      streamAudio(live).equals(await lastTake(vendorKey, text, { codec: 'pcm', sampleRate: 16000 })),
    ).toBe(true);

    const again = await post(key, '/v1/text-to-speech/stream', body);
    expect(again.status).toBe(200);
    expect(again.headers.get('content-type')).toBe('text/event-stream');
    expect(again.headers.get('x-request-id')).toBeNull();
    // The same events, in the same order, the chunks without step_time: nothing else differs.
    const withoutStepTime = live.map(({ event, data: { step_time: _computeTime, ...data } }) => ({
      event,
      data,
    }));
    expect(events(again.bytes)).toEqual(withoutStepTime);
    expect(again.bytes.toString('utf8')).toBe(
      first.bytes.toString('utf8').replace(/,"step_time":[\d.]+/g, ''),
    );
    const third = await post(key, '/v1/text-to-speech/stream', body);
    expect(third.bytes.equals(again.bytes)).toBe(true);
    expect(await sim.callCount('vendor_b', { key: vendorKey })).toBe(before + 1);
  });

  it.each(['/v1/text-to-speech', '/v1/text-to-speech/stream'])(
    'keys a %s request with its defaults left out as the same request spelled out: one vendor call',
    async (path) => {
      const { key, vendorKey } = await newOrg();
      const text = unique('Defaults left out');
      const before = await sim.callCount('vendor_b', { key: vendorKey });

      // The notes' defaults: pcm at 24000 Hz (and the voice's own model and language, left to it every time).
      const bare = await post(key, path, { text, voice_id: VOICE });
      expect(bare.status).toBe(200);
      if (path.endsWith('/stream')) {
        const audio = streamAudio(events(bare.bytes));
        expect(audio.equals(await lastTake(vendorKey, text, { codec: 'pcm', sampleRate: 24000 }))).toBe(true);
      } else {
        expect(bare.bytes.equals(await lastTake(vendorKey, text, { codec: 'pcm', sampleRate: 24000 }))).toBe(
          true,
        );
      }
      const replay = await post(key, path, { text, voice_id: VOICE });

      for (const spelled of [
        { voice_id: VOICE, codec: 'pcm', sample_rate: 24000, speed: 1.0, text },
        { text, voice_id: VOICE, codec: null, sample_rate: null, speed: null, model: null, language: null },
      ]) {
        const same = await post(key, path, spelled);
        expect(same.status).toBe(200);
        expect(same.bytes.equals(replay.bytes)).toBe(true);
      }
      expect(await sim.callCount('vendor_b', { key: vendorKey })).toBe(before + 1);
    },
  );

  it('makes one vendor call for ten identical requests at once', async () => {
    const { key, vendorKey } = await newOrg();
    const body = { text: unique('Ten at once'), voice_id: VOICE, language: 'hi', sample_rate: 16000 };
    const before = await sim.callCount('vendor_b', { key: vendorKey });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => post(key, '/v1/text-to-speech', body)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    for (const answer of answers)
      expect(answer.bytes.equals(answers[0]?.bytes ?? Buffer.alloc(0))).toBe(true);
    expect(await sim.callCount('vendor_b', { key: vendorKey })).toBe(before + 1);
  });

  it("passes the vendor's refusals on as it sent them", async () => {
    const { key } = await newOrg();
    const text = unique('Refused');
    for (const path of ['/v1/text-to-speech', '/v1/text-to-speech/stream']) {
      const unknown = await post(key, path, { text, voice_id: 'no-such-voice', language: 'hi' });
      expect(unknown.status).toBe(400);
      expect(json(unknown)).toEqual({
        error: { code: 'invalid_voice', message: "voice_id 'no-such-voice' not found" },
      });
      const mp3 = await post(key, path, { text, voice_id: VOICE, codec: 'mp3' });
      expect([mp3.status, json(mp3).error.code]).toEqual([400, 'invalid_codec']);
    }
  });

  it("passes the vendor's rate limit on with its Retry-After, and stores nothing of it", async () => {
    const { key, vendorKey } = await newOrg();
    const body = { text: unique('Too many at once'), voice_id: VOICE };
    const limited = await rateLimited(vendorKey, () => post(key, '/v1/text-to-speech', body));
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(json(limited)).toEqual({ error: { code: 'rate_limit_exceeded', message: expect.any(String) } });
    const said = await post(key, '/v1/text-to-speech', body);
    expect(said.status).toBe(200);
    expect(said.headers.get('retry-after')).toBeNull();
    expect(await sim.callCount('vendor_b', { key: vendorKey })).toBe(2);
  });

  it.each([
    {
      answer: "the vendor's error event after some audio",
      fault: { kind: 'error', status: 503, message: 'The take failed midway.' },
    },
    { answer: 'a stream ended inside an event, before done', fault: { kind: 'end' } },
  ] as const)(
    'passes $answer on as the vendor sent it and stores none of it: the same request reaches the vendor again',
    async ({ fault }) => {
      const { key, vendorKey } = await newOrg();
      const body = {
        text: unique('Not whole, then whole, then from the cache, said at length'),
        voice_id: VOICE,
      };
      const before = await sim.callCount('vendor_b', { key: vendorKey });

      const broken = await underFault(vendorKey, { afterBytes: 600, ...fault }, () =>
        post(key, '/v1/text-to-speech/stream', body),
      );
      // The client gets what the vendor sent: a 200 whose body ended normally, without its done event.
      expect(broken.status).toBe(200);
      const sent = events(broken.bytes);
      expect(sent[0]?.event).toBe('chunk');
      expect(sent.some((e) => e.event === 'done')).toBe(false);
      if (fault.kind === 'error') {
        expect(sent.at(-1)).toEqual({
          event: 'error',
          data: expect.objectContaining({
            type: 'error',
            status_code: 503,
            message: 'The take failed midway.',
          }),
        });
      } else {
        // The last event was cut inside: its bytes end without the blank line that ends an event.
        expect(broken.bytes.toString('utf8').endsWith('\n\n')).toBe(false);
      }

      const whole = await post(key, '/v1/text-to-speech/stream', body);
      expect(whole.status).toBe(200);
      expect(events(whole.bytes).at(-1)?.event).toBe('done');
      expect(await sim.callCount('vendor_b', { key: vendorKey })).toBe(before + 2);
      const again = await post(key, '/v1/text-to-speech/stream', body);
      expect(streamAudio(events(again.bytes)).equals(streamAudio(events(whole.bytes)))).toBe(true);
      expect(await sim.callCount('vendor_b', { key: vendorKey })).toBe(before + 2);
    },
  );

  describe('refusals in the shape of the vendor', () => {
    const path = '/v1/text-to-speech';
    const body = { text: 'Namaste.', voice_id: VOICE };

    /** The vendor's gateway refusal: 401, a `Key` realm challenge, `{message, request_id: null}`. */
    function expectKeyRefusal(answer: Answer): string {
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toMatch(/^Key realm=/);
      const refusal = json(answer) as { message: string; request_id: null };
      expect(refusal).toEqual({ message: expect.any(String), request_id: null });
      return refusal.message;
    }

    it('refuses a missing, a wrong and a revoked router key', async () => {
      expectKeyRefusal(await post(undefined, path, body));
      expectKeyRefusal(await post('rtr_not-a-key', path, body));
      const { key, keyId } = await newOrg();
      expect(adminCli(stack.adminUrl, ['key', 'revoke', keyId]).code).toBe(0);
      await eventually('revoked key refused', async () => (await post(key, path, body)).status === 401);
      expectKeyRefusal(await post(key, path, body));
    });

    it('refuses an org with no stored vendor_b key with a message linking to the dashboard', async () => {
      expect(expectKeyRefusal(await post(keylessOrg().key, path, body))).toContain(
        '/dashboard/provider-keys',
      );
    });

    it("refuses a disabled org, and an org out of credit with 402 in the vendor's error shape", async () => {
      const disabled = await newOrg();
      await disableOrg(disabled.orgId, async () => (await post(disabled.key, path, body)).status === 401);
      expectKeyRefusal(await post(disabled.key, path, body));

      const broke = await newOrg();
      await setCredit(broke.orgId, 'out', async () => (await post(broke.key, path, body)).status === 402);
      const refused = await post(broke.key, path, body);
      expect(json(refused)).toEqual({ error: { code: 'insufficient_credits', message: expect.any(String) } });
      expect(await sim.callCount('vendor_b', { key: broke.vendorKey })).toBe(0);
    });

    it("answers a path vendor_b does not have with the vendor's 404", async () => {
      const { key } = await newOrg();
      for (const [method, other] of [
        ['GET', '/v1/no-such-endpoint'],
        ['POST', '/v1/text-to-speech/stream/more'],
        ['GET', '/v1/text-to-speech'],
      ] as const) {
        const answer = await fetch(`${BASE}${other}`, { method, headers: { 'X-API-Key': key } });
        expect([other, answer.status]).toEqual([other, 404]);
        expect(await answer.json()).toEqual({
          message: 'no Route matched with those values',
          request_id: null,
        });
      }
    });

    it("refuses a body nested past the router's limit in the vendor's error shape", async () => {
      const { key, vendorKey } = await newOrg();
      for (const endpoint of ['/v1/text-to-speech', '/v1/text-to-speech/stream']) {
        const deep = await post(
          key,
          endpoint,
          `{"text":"Hi.","voice_id":"${VOICE}","x":${'['.repeat(4000)}${']'.repeat(4000)}}`,
        );
        expect(deep.status).toBe(400);
        expect(json(deep)).toEqual({
          error: { code: 'invalid_request', message: expect.stringMatching(/^x nests/) },
        });
      }
      expect(await sim.callCount('vendor_b', { key: vendorKey })).toBe(0);
    });
  });
});
