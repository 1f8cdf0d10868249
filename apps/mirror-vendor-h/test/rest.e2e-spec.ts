import { type MirrorAnswer, mirrorE2e, readSseEvents, type SseFrame } from '@router/testing';

const kit = mirrorE2e('vendor_h');
const { stack, sim, newOrg, unique, calls } = kit;
const { keylessOrg, disableOrg, setCredit, rateLimited, saidTwice } = kit;
const { passesStreamBreaksOn, answersNotFound, send, lastTake } = kit;
/** The mirror's base URL, as a vendor_h client is configured with it (the vendor's is `https://{BASE}`). */
const BASE = `${stack.gatewayUrl}/vendor_h`;
const VOICE = 'h1_voice_f1';

/** The audio of a stream's `audio` events, concatenated (raw 16-bit PCM). */
function streamAudio(stream: readonly SseFrame[]): Buffer {
  return Buffer.concat(
    stream.filter((e) => e.event === 'audio').map((e) => Buffer.from(e.data['audio'] as string, 'base64')),
  );
}

/**
 * A vendor_h client's session, written from the vendor's notes (../shared/vendors/vendor_h.md), against the
 * router through the gateway with only the base URL and the key changed: both synthesis endpoints are the
 * vendor's answer and then, said again, served from the cache with no vendor call, byte for byte (the spec lists
 * no replay difference for them; the vendor's own request id header is not replayed); the voice lists reach the
 * vendor every time.
 */
describe('vendor_h mirror, REST and SSE (e2e)', () => {
  /** An org with its router key and its own vendor_h key, so the simulator's counts are this test's alone. */

  const tts = (key: string | null, body: unknown, headers: Record<string, string> = {}) =>
    send(key, '/waves/v1/tts', { body, headers: { accept: 'audio/wav', ...headers } });
  const live = (key: string | null, body: unknown) => send(key, '/waves/v1/tts/live', { body });
  const json = (answer: MirrorAnswer): any => JSON.parse(answer.bytes.toString('utf8'));

  it.each([
    { format: 'wav', sampleRate: 24000, type: 'audio/wav', extra: {} },
    {
      format: 'pcm',
      sampleRate: 16000,
      type: 'audio/pcm',
      extra: { output_format: 'pcm', sample_rate: 16000 },
    },
    {
      format: 'wav',
      sampleRate: 8000,
      type: 'audio/wav',
      extra: { output_format: 'wav', sample_rate: 8000 },
    },
  ] as const)(
    "answers /waves/v1/tts in $format at $sampleRate Hz with the vendor's clip and headers, then the same from the cache",
    async ({ format, sampleRate, type, extra }) => {
      const { key, vendorKey } = await newOrg();
      const text = unique(`Spoken as ${format}`);
      const body = { text, voice_id: VOICE, ...extra, session_id: 'sess.1', request_id: 'req-1' };
      const before = await calls(vendorKey);

      const first = await tts(key, body);
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toBe(type);
      expect(first.headers.get('x-external-session-id')).toBe('sess.1');
      expect(first.headers.get('x-external-request-id')).toBe('req-1');
      expect(first.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(first.bytes.equals(await lastTake(vendorKey, text, { codec: format, sampleRate }))).toBe(true);
      expect(await calls(vendorKey)).toBe(before + 1);

      const again = await tts(key, body);
      expect(again.status).toBe(200);
      expect(again.bytes.equals(first.bytes)).toBe(true);
      expect(again.headers.get('content-type')).toBe(type);
      expect(again.headers.get('x-external-session-id')).toBe('sess.1');
      expect(again.headers.get('x-external-request-id')).toBe('req-1');
      expect(again.headers.get('x-request-id')).toBeNull();
      expect(await calls(vendorKey)).toBe(before + 1);
    },
  );

  it('streams /waves/v1/tts/live as audio events then done, and replays the same events byte for byte', async () => {
    const { key, vendorKey } = await newOrg();
    const text = unique('Streamed as events, then from the cache');
    const body = { text, voice_id: VOICE, model: 'h_model_1', language: 'en', sample_rate: 16000 };
    const before = await calls(vendorKey);

    const first = await live(key, body);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/event-stream');
    const stream = readSseEvents(first.bytes);
    expect(stream.length).toBeGreaterThan(2);
    expect(stream.at(-1)).toEqual({ event: 'message', data: { done: true } });
    for (const e of stream.slice(0, -1)) {
      expect(e).toEqual({
        event: 'audio',
        data: { audio: expect.any(String), request_id: expect.any(String) },
      });
    }
    expect(
      streamAudio(stream).equals(await lastTake(vendorKey, text, { codec: 'pcm', sampleRate: 16000 })),
    ).toBe(true);
    expect(await calls(vendorKey)).toBe(before + 1);

    const again = await live(key, body);
    expect(again.status).toBe(200);
    expect(again.headers.get('content-type')).toBe('text/event-stream');
    expect(again.bytes.toString('utf8')).toBe(first.bytes.toString('utf8'));
    expect(await calls(vendorKey)).toBe(before + 1);
  });

  it('keys a request with its defaults left out as the same request spelled out, or null: one vendor call', async () => {
    const { key, vendorKey } = await newOrg();
    const text = unique('Defaults left out');
    const before = await calls(vendorKey);

    const bare = await live(key, { text, voice_id: VOICE });
    expect(bare.status).toBe(200);
    // Every default the notes and the spec give, spelled out, the fields in another order, 1.0 for 1.
    const spelled = await live(
      key,
      `{"word_timestamps":false,"output_format":"pcm","speed":1.0,"sample_rate":24000,"language":"en",` +
        `"model":"h_model_1","voice_id":"${VOICE}","text":${JSON.stringify(text)}}`,
    );
    const nulls = await live(key, { text, voice_id: VOICE, model: null, speed: null, sample_rate: null });
    expect(spelled.bytes.equals(bare.bytes)).toBe(true);
    expect(nulls.bytes.equals(bare.bytes)).toBe(true);
    expect(await calls(vendorKey)).toBe(before + 1);

    // A format left out is WAV for a request that accepts audio/wav: the same as output_format wav.
    const accepted = await tts(key, { text, voice_id: VOICE });
    const named = await tts(key, { text, voice_id: VOICE, output_format: 'wav' }, { accept: '*/*' });
    expect(accepted.headers.get('content-type')).toBe('audio/wav');
    expect(named.bytes.equals(accepted.bytes)).toBe(true);
    expect(await calls(vendorKey)).toBe(before + 2);

    // A setting changed is another request.
    const faster = await live(key, { text, voice_id: VOICE, speed: 1.5 });
    expect(faster.status).toBe(200);
    expect(await calls(vendorKey)).toBe(before + 3);
  });

  it('keys pronunciation_dicts by their ids: the same ids again are a replay, other ids another call', async () => {
    const { key, vendorKey } = await newOrg();
    const text = unique('With dictionaries');
    const body = { text, voice_id: VOICE, pronunciation_dicts: ['dict_a', 'dict_b'] };
    const before = await calls(vendorKey);

    const first = await live(key, body);
    const again = await live(key, body);
    expect(again.bytes.equals(first.bytes)).toBe(true);
    expect(await calls(vendorKey)).toBe(before + 1);
    await live(key, { ...body, pronunciation_dicts: ['dict_a'] });
    await live(key, { text, voice_id: VOICE });
    expect(await calls(vendorKey)).toBe(before + 3);
  });

  it('reads the voice lists of both models and the cloned voices from the vendor, every time', async () => {
    const { key, vendorKey } = await newOrg();
    const reads = () => sim.readCount('vendor_h', { key: vendorKey });
    const before = await reads();
    for (let i = 0; i < 2; i++) {
      for (const model of ['h_model_1', 'h_model_2']) {
        const answer = await fetch(`${BASE}/waves/v1/${model}/get_voices`, {
          headers: { authorization: `Bearer ${key}` },
        });
        expect(answer.status).toBe(200);
        const { voices } = (await answer.json()) as {
          voices: Array<{ voiceId: string; displayName: string }>;
        };
        expect(voices[0]).toMatchObject({ voiceId: expect.any(String), displayName: expect.any(String) });
      }
      const cloned = await fetch(`${BASE}/waves/v1/voice-cloning`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(cloned.status).toBe(200);
      expect(((await cloned.json()) as { data: unknown[] }).data[0]).toMatchObject({
        voiceId: expect.any(String),
      });
    }
    expect(await reads()).toBe(before + 6);
    // A model the vendor lacks: its own 404, passed on.
    const unknown = await fetch(`${BASE}/waves/v1/h_model_9/get_voices`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: expect.stringContaining('h_model_9') });
    expect(await calls(vendorKey)).toBe(0);
  });

  it('passes text with no letter or digit on to the vendor every time, and stores nothing', async () => {
    const { key, vendorKey } = await newOrg();
    const body = { text: '... ?! -', voice_id: VOICE };
    for (let i = 0; i < 2; i++) {
      const silent = await live(key, body);
      expect(readSseEvents(silent.bytes)).toEqual([{ event: 'message', data: { done: true } }]);
      const clip = await tts(key, { ...body, output_format: 'pcm' });
      expect([clip.status, clip.bytes.length]).toEqual([200, 0]);
    }
    expect(await calls(vendorKey)).toBe(0);
  });

  it.each([
    {
      answer: 'an error event after some audio',
      fault: { kind: 'error', status: 500, message: 'The take failed.' },
    },
    { answer: 'a stream ended inside an event, before done', fault: { kind: 'end' } },
  ] as const)(
    'passes $answer on as the vendor sent it, stores none of it: the same request reaches the vendor again',
    async ({ fault }) => {
      const body = { text: unique('Not whole, then whole, then from the cache'), voice_id: VOICE };
      await passesStreamBreaksOn({ endpoint: 'sse', afterBytes: 2000, ...fault }, (key) => live(key, body), {
        broken(broken) {
          expect(broken.headers.get('content-type')).toBe('text/event-stream');
          expect(broken.bytes.toString('utf8')).not.toContain('"done"');
          if (fault.kind === 'error') {
            expect(readSseEvents(broken.bytes).at(-1)).toEqual({
              event: 'error',
              data: {
                request_id: expect.any(String),
                status: 'error',
                error: { message: 'The take failed.', code: 500 },
              },
            });
          } else {
            expect(broken.bytes.toString('utf8').endsWith('\n\n')).toBe(false);
          }
        },
        whole: (whole) => expect(readSseEvents(whole.bytes).at(-1)?.data).toEqual({ done: true }),
        again: (again, whole) => expect(again.bytes.equals(whole.bytes)).toBe(true),
      });
    },
  );

  it("passes the vendor's refusals on as sent, storing nothing of them", async () => {
    const { key, vendorKey } = await newOrg();
    const body = { text: unique('Refused, then said'), voice_id: VOICE };
    const before = await calls(vendorKey);

    const unknownVoice = await tts(key, { ...body, voice_id: 'nobody' });
    expect(unknownVoice.status).toBe(400);
    expect(json(unknownVoice)).toEqual({ error: "voice_id 'nobody' not found" });
    const badRate = await live(key, { ...body, sample_rate: '24000' });
    expect(badRate.status).toBe(400);
    expect(json(badRate)).toEqual({ error: 'sample_rate must be one of 8000, 16000, 24000, 44100' });

    const refused = await rateLimited(vendorKey, () => live(key, body), { message: 'slow down' });
    expect(json(refused)).toEqual({ error: 'slow down' });

    await saidTwice(() => live(key, body));
    // The 429 and the one take that was stored: two calls, none for the refusals of the body or the replay.
    expect(await calls(vendorKey)).toBe(before + 2);
  });

  it("answers a path vendor_h's mirror does not have with the vendor's 404", async () => {
    await answersNotFound(
      [
        ['GET', '/waves/v1/tts'],
        ['POST', '/waves/v2/tts'],
        ['GET', '/waves/v1/pronunciation-dicts'],
        ['POST', '/waves/v1/h_model_1/get_voices'],
        ['GET', '/v1/voices'],
      ],
      () => ({ error: 'Not Found' }),
    );
  });

  it("refuses a missing, wrong, bare or vendor-keyless router key, and a disabled org, with the vendor's 401", async () => {
    const body = { text: 'Hello.', voice_id: VOICE };
    const refusal = { error: 'unauthorized' };
    for (const key of [null, 'rtr_not-a-key']) {
      const answer = await tts(key, body);
      expect([answer.status, json(answer)]).toEqual([401, refusal]);
    }
    // The vendor's own scheme only: the key as a bare header value is no key.
    const bare = await tts(null, body, { authorization: (await newOrg()).key });
    expect([bare.status, json(bare)]).toEqual([401, refusal]);

    const noVendorKey = await live(keylessOrg().key, body);
    expect([noVendorKey.status, json(noVendorKey)]).toEqual([401, refusal]);

    const { orgId, key } = await newOrg();
    await disableOrg(orgId, async () => (await tts(key, body)).status === 401);
    expect(json(await tts(key, body))).toEqual(refusal);
  });

  it("refuses an org out of credit with 402 in the vendor's {error} shape", async () => {
    const { orgId, key, vendorKey } = await newOrg();
    const body = { text: unique('Out of credit'), voice_id: VOICE };
    await setCredit(orgId, 'out', async () => (await live(key, body)).status === 402);
    const refused = await tts(key, body);
    expect(refused.status).toBe(402);
    expect(json(refused)).toEqual({ error: expect.stringMatching(/credit/i) });
    expect(await calls(vendorKey)).toBe(0);
  });

  it("refuses a body nested past 32 levels or holding a number past a double with the vendor's 400", async () => {
    const { key, vendorKey } = await newOrg();
    for (const { raw, field } of [
      { raw: `{"text":"Hi.","voice_id":${'['.repeat(4000)}${']'.repeat(4000)}}`, field: 'voice_id' },
      { raw: `{"text":"Hi.","x":${'{"a":'.repeat(32)}1${'}'.repeat(32)}}`, field: 'x' },
      { raw: '{"text":"Hi.","speed":1e400}', field: 'speed' },
    ]) {
      const answer = await live(key, raw);
      expect(answer.status).toBe(400);
      expect(json(answer)).toEqual({ error: expect.stringMatching(new RegExp(`^${field} (nests|holds)`)) });
    }
    expect(await calls(vendorKey)).toBe(0);
  });
});
