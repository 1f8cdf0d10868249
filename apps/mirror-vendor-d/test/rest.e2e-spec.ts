import { type MirrorAnswer, mirrorE2e, watchWorkerTakes } from '@router/testing';

const kit = mirrorE2e('vendor_d');
const { stack, sim, newOrg, unique, calls } = kit;
const { keylessOrg, disableOrg, setCredit, rateLimited, saidTwice } = kit;
const { passesStreamBreaksOn, answersNotFound, send, lastTake } = kit;
/** The mirror's base URL, as a vendor_d client is configured with it (the vendor's is `https://{BASE}/v1`). */
const BASE = `${stack.gatewayUrl}/vendor_d/v1`;
const VOICE = 'brook';

/**
 * The response headers the vendor sends beside the audio's type (../shared/vendors/vendor_d.md), but for its
 * `x-request-id`: a live answer's is the vendor's; a replay has none (see `expectRouterRequestId`).
 */
const VENDOR_HEADERS = [
  'vendor_d-processing-ms',
  'x-ratelimit-limit-requests',
  'x-ratelimit-remaining-requests',
  'x-ratelimit-reset-requests',
];

/** One SSE `data:` line's payload: a JSON event, or the `[DONE]` sentinel. */
type SseData = Record<string, any> | '[DONE]';

/** The `data:` payloads of an SSE body, in order (every vendor_d event is one `data:` line). */
function sseData(body: Buffer): SseData[] {
  return body
    .toString('utf8')
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const data = block.replace(/^data: /, '');
      return data === '[DONE]' ? data : (JSON.parse(data) as Record<string, any>);
    });
}

/** The audio of an SSE body's `speech.audio.delta` events, joined. */
function sseAudio(events: readonly SseData[]): Buffer {
  return Buffer.concat(
    events.flatMap((e) =>
      e !== '[DONE]' && e['type'] === 'speech.audio.delta'
        ? [Buffer.from(e['audio'] as string, 'base64')]
        : [],
    ),
  );
}

/**
 * A vendor_d client's session, written from the vendor's notes (../shared/vendors/vendor_d.md), against the
 * router through the gateway with only the base URL and the key changed: every answer is the vendor's and then,
 * said again, the same from the cache with no vendor call, differing only where the spec says a replay differs
 * (no header but `Content-Type`; SSE usage of zero).
 */
describe('vendor_d mirror, speech (e2e)', () => {
  /** An org with its router key and its own vendor_d key, so the simulator's counts are this test's alone. */

  /** A speech request (or another under /v1) as a vendor_d client sends it, its answer read whole. */
  const speech = (
    key: string | null,
    body: unknown,
    headers: Record<string, string> = {},
    path = '/audio/speech',
  ) => send(key, `/v1${path}`, { body, headers: { accept: 'application/octet-stream', ...headers } });

  /**
   * A live answer carries the vendor's request id; a replay none (a cached reply carries only `Content-Type`),
   * never the id of the vendor's request whose audio it replays.
   */
  function expectRouterRequestId(live: MirrorAnswer, replay: MirrorAnswer): void {
    expect(live.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    expect(replay.headers.get('x-request-id')).toBeNull();
  }

  it.each([
    { format: 'mp3', type: 'audio/mpeg' },
    { format: 'opus', type: 'audio/opus' },
    { format: 'aac', type: 'audio/aac' },
    { format: 'flac', type: 'audio/flac' },
    { format: 'wav', type: 'audio/wav' },
    { format: 'pcm', type: 'audio/pcm' },
  ] as const)(
    "answers $format with the vendor's audio, then the same bytes from the cache with only its Content-Type",
    async ({ format, type }) => {
      const { orgId, key, vendorKey } = await newOrg();
      const input = unique(`Answered in ${format}`);
      const body = { model: 'd_model_3', voice: VOICE, input, response_format: format };
      const before = await calls(vendorKey);
      const takes = await watchWorkerTakes(stack, orgId);
      try {
        const first = await speech(key, body);
        expect(first.status).toBe(200);
        expect(first.type).toBe(type);
        expect(
          first.bytes.equals(await lastTake(vendorKey, input, { codec: format, sampleRate: 24000 })),
        ).toBe(true);
        for (const name of VENDOR_HEADERS) expect([name, first.headers.get(name)]).not.toEqual([name, null]);
        expect(await calls(vendorKey)).toBe(before + 1);
        const askedForTheMiss = await takes.asked();
        expect(askedForTheMiss).toBeGreaterThanOrEqual(1);

        const again = await speech(key, body);
        expect(again.status).toBe(200);
        expect(again.type).toBe(type);
        expect(again.bytes.equals(first.bytes)).toBe(true);
        for (const name of VENDOR_HEADERS) expect([name, again.headers.get(name)]).toEqual([name, null]);
        expectRouterRequestId(first, again);
        expect(await calls(vendorKey)).toBe(before + 1);
        // Served by the mirror from the index: its key filter heard of vendor_d's commit.
        expect(await takes.asked()).toBe(askedForTheMiss);
      } finally {
        await takes.close();
      }
    },
  );

  it('streams SSE (deltas, speech.audio.done with usage, [DONE]), then replays it byte for byte but with zero usage', async () => {
    const { key, vendorKey } = await newOrg();
    const input = unique('Streamed as events, then from the cache');
    const body = {
      model: 'd_model_3',
      voice: VOICE,
      input,
      response_format: 'pcm',
      instructions: 'Calm and warm.',
      stream_format: 'sse',
    };
    const before = await calls(vendorKey);

    const first = await speech(key, body, { accept: 'text/event-stream' });
    expect(first.status).toBe(200);
    expect(first.type).toBe('text/event-stream');
    const events = sseData(first.bytes);
    expect(events.at(-1)).toBe('[DONE]');
    const done = events.at(-2);
    expect(done).toEqual({
      type: 'speech.audio.done',
      usage: {
        input_tokens: expect.any(Number),
        output_tokens: expect.any(Number),
        total_tokens: expect.any(Number),
      },
    });
    expect(done !== '[DONE]' && done?.['usage'].total_tokens).toBeGreaterThan(0);
    expect(
      sseAudio(events).equals(await lastTake(vendorKey, input, { codec: 'pcm', sampleRate: 24000 })),
    ).toBe(true);
    for (const name of VENDOR_HEADERS) expect([name, first.headers.get(name)]).not.toEqual([name, null]);
    expect(await calls(vendorKey)).toBe(before + 1);

    const again = await speech(key, body, { accept: 'text/event-stream' });
    expect(again.status).toBe(200);
    expect(again.type).toBe('text/event-stream');
    for (const name of VENDOR_HEADERS) expect([name, again.headers.get(name)]).toEqual([name, null]);
    expectRouterRequestId(first, again);
    // The replay is the live answer with its usage zeroed, and nothing else changed.
    const live = first.bytes.toString('utf8');
    const usage = /"usage":\{"input_tokens":\d+,"output_tokens":\d+,"total_tokens":\d+\}/;
    expect(live).toMatch(usage);
    expect(again.bytes.toString('utf8')).toBe(
      live.replace(usage, '"usage":{"input_tokens":0,"output_tokens":0,"total_tokens":0}'),
    );
    expect(await calls(vendorKey)).toBe(before + 1);
  });

  it.each(['d_model_1', 'd_model_2'])(
    'answers %s asked for SSE with the audio, as the vendor does, then the same from the cache',
    async (model) => {
      const { key, vendorKey } = await newOrg();
      const input = unique(`The older ${model}`);
      const body = { model, voice: VOICE, input, response_format: 'wav', stream_format: 'sse' };
      const before = await calls(vendorKey);

      const first = await speech(key, body);
      expect([first.status, first.type]).toEqual([200, 'audio/wav']);
      expect(first.bytes.equals(await lastTake(vendorKey, input, { codec: 'wav', sampleRate: 24000 }))).toBe(
        true,
      );
      const again = await speech(key, body);
      expect([again.status, again.type]).toEqual([200, 'audio/wav']);
      expect(again.bytes.equals(first.bytes)).toBe(true);
      expect(await calls(vendorKey)).toBe(before + 1);
    },
  );

  it('keys a request with its defaults left out as the same request spelled out: one vendor call, the same bytes', async () => {
    const { key, vendorKey } = await newOrg();
    const input = unique('Defaults left out');
    const before = await calls(vendorKey);

    const bare = await speech(key, { model: 'd_model_4', voice: VOICE, input });
    expect([bare.status, bare.type]).toEqual([200, 'audio/mpeg']);
    expect(bare.bytes.equals(await lastTake(vendorKey, input, { codec: 'mp3', sampleRate: 24000 }))).toBe(
      true,
    );

    // Every default the notes give, spelled out, the fields in another order, 1.0 for 1.
    const spelled = await speech(
      key,
      `{"stream_format":"audio","speed":1.0,"response_format":"mp3","input":${JSON.stringify(input)},` +
        `"voice":"${VOICE}","model":"d_model_4"}`,
    );
    expect(spelled.status).toBe(200);
    expect(spelled.bytes.equals(bare.bytes)).toBe(true);
    expect(await calls(vendorKey)).toBe(before + 1);

    // A setting changed is another request.
    const faster = await speech(key, { model: 'd_model_4', voice: VOICE, input, speed: 1.5 });
    expect(faster.status).toBe(200);
    expect(faster.bytes.equals(bare.bytes)).toBe(false);
    expect(await calls(vendorKey)).toBe(before + 2);
  });

  it('keys the project a request names: another project is another vendor call, the same one a replay', async () => {
    const { key, vendorKey } = await newOrg();
    const body = {
      model: 'd_model_3',
      voice: VOICE,
      input: unique('For one project'),
      response_format: 'pcm',
    };
    const before = await calls(vendorKey);

    const unnamed = await speech(key, body);
    const named = await speech(key, body, { 'vendor_d-project': 'proj_one' });
    expect([unnamed.status, named.status]).toEqual([200, 200]);
    expect(named.bytes.equals(unnamed.bytes)).toBe(false);
    expect(await calls(vendorKey)).toBe(before + 2);
    const again = await speech(key, body, { 'vendor_d-project': 'proj_one' });
    expect(again.bytes.equals(named.bytes)).toBe(true);
    expect(await calls(vendorKey)).toBe(before + 2);
  });

  it.each([
    {
      answer: 'an error event after the 200',
      fault: { kind: 'error', status: 500, message: 'The take failed midway.' },
    },
    { answer: 'a stream ended inside an event, before speech.audio.done', fault: { kind: 'end' } },
  ] as const)(
    'passes $answer on as the vendor sent it, stores none of it: the same request reaches the vendor again',
    async ({ fault }) => {
      const body = {
        model: 'd_model_3',
        voice: VOICE,
        input: unique('Not whole, then whole, then from the cache'),
        response_format: 'pcm',
        stream_format: 'sse',
      };
      await passesStreamBreaksOn({ endpoint: 'sse', afterBytes: 600, ...fault }, (key) => speech(key, body), {
        broken(broken) {
          expect(broken.type).toBe('text/event-stream');
          const text = broken.bytes.toString('utf8');
          expect(text).not.toContain('speech.audio.done');
          expect(text).not.toContain('[DONE]');
          if (fault.kind === 'error') {
            expect(sseData(broken.bytes).at(-1)).toEqual({
              type: 'error',
              error: { message: 'The take failed midway.', type: 'server_error', param: null, code: null },
            });
          } else {
            expect(() => sseData(broken.bytes)).toThrow();
          }
        },
        whole: (whole) => expect(sseData(whole.bytes).at(-1)).toBe('[DONE]'),
        again(again, whole) {
          expect(sseData(again.bytes).at(-1)).toBe('[DONE]');
          expect(sseAudio(sseData(again.bytes)).equals(sseAudio(sseData(whole.bytes)))).toBe(true);
        },
      });
    },
  );

  it("passes the vendor's refusals and a cut audio stream on, storing nothing of them", async () => {
    const { key, vendorKey } = await newOrg();
    const body = {
      model: 'd_model_3',
      voice: VOICE,
      input: unique('Refused, cut, then said'),
      response_format: 'pcm',
    };
    const before = await calls(vendorKey);

    const unknownVoice = await speech(key, { ...body, voice: 'nobody' });
    expect(unknownVoice.status).toBe(400);
    expect(JSON.parse(unknownVoice.bytes.toString('utf8'))).toEqual({
      error: { message: expect.any(String), type: 'invalid_request_error', param: 'voice', code: null },
    });

    const refused = await rateLimited(vendorKey, () => speech(key, body));
    expect(JSON.parse(refused.bytes.toString('utf8')).error).toMatchObject({ code: 'rate_limit_exceeded' });
    expect(refused.headers.get('retry-after')).toBe('1');

    // Every call is cut while the fault stands: a cut before any audio is retried on another worker by design.
    const cut = await sim.injectFault({
      vendor: 'vendor_d',
      kind: 'cut',
      key: vendorKey,
      afterBytes: 2000,
      times: 'always',
    });
    const aborted = await speech(key, body).then(
      () => 'whole',
      () => 'aborted',
    );
    await sim.removeFault(cut.id).catch(() => undefined);
    expect(aborted).toBe('aborted');
    const afterCut = await calls(vendorKey);
    expect(afterCut).toBeGreaterThanOrEqual(before + 2);

    // Nothing of the 429 or the cut was stored: the request reaches the vendor, then replays from the cache.
    await saidTwice(() => speech(key, body));
    expect(await calls(vendorKey)).toBe(afterCut + 1);
  });

  it("answers a path vendor_d's mirror does not have with the vendor's 404", async () => {
    await answersNotFound(
      [
        ['GET', '/v1/models'],
        ['GET', '/v1/audio/voices'],
        ['POST', '/v1/audio/transcriptions'],
      ],
      (path) => ({
        error: {
          message: expect.stringContaining(path),
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      }),
    );
  });

  it("refuses a missing, wrong or vendor-keyless router key, and a disabled org, with the vendor's 401", async () => {
    const body = { model: 'd_model_3', voice: VOICE, input: 'Hello.' };
    const invalidKey = {
      error: {
        message: expect.any(String),
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    };
    for (const key of [null, 'rtr_not-a-key']) {
      const answer = await speech(key, body);
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.bytes.toString('utf8'))).toEqual(invalidKey);
    }
    // The vendor's own scheme only: the key as a bare header value is no key.
    const bare = await fetch(`${BASE}/audio/speech`, {
      method: 'POST',
      headers: { authorization: (await newOrg()).key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(bare.status).toBe(401);

    const noVendorKey = await speech(keylessOrg().key, body);
    expect(noVendorKey.status).toBe(401);
    const refusal = JSON.parse(noVendorKey.bytes.toString('utf8')) as { error: { message: string } };
    expect(refusal).toEqual(invalidKey);
    expect(refusal.error.message).toContain('/dashboard/provider-keys');

    const { orgId, key } = await newOrg();
    await disableOrg(orgId, async () => (await speech(key, body)).status === 401);
    expect(JSON.parse((await speech(key, body)).bytes.toString('utf8'))).toEqual(invalidKey);
  });

  it("refuses an org out of credit with 402 in the vendor's shape, code insufficient_credits", async () => {
    const { orgId, key, vendorKey } = await newOrg();
    const body = { model: 'd_model_3', voice: VOICE, input: unique('Out of credit') };
    await setCredit(orgId, 'out', async () => (await speech(key, body)).status === 402);
    const refused = await speech(key, body);
    expect(JSON.parse(refused.bytes.toString('utf8'))).toEqual({
      error: {
        message: expect.any(String),
        type: 'insufficient_quota',
        param: null,
        code: 'insufficient_credits',
      },
    });
    expect(await calls(vendorKey)).toBe(0);
  });

  it("refuses a body nested past 32 levels or holding a number past a double with the vendor's 400 at the field", async () => {
    const { key, vendorKey } = await newOrg();
    const cases = [
      { raw: `{"input":"Hi.","voice":${'['.repeat(4000)}${']'.repeat(4000)}}`, field: 'voice' },
      { raw: `{"input":"Hi.","x":${'{"a":'.repeat(32)}1${'}'.repeat(32)}}`, field: 'x' },
      { raw: '{"input":"Hi.","speed":1e400}', field: 'speed' },
    ];
    for (const { raw, field } of cases) {
      const answer = await speech(key, raw);
      expect(answer.status).toBe(400);
      const { error } = JSON.parse(answer.bytes.toString('utf8')) as { error: Record<string, unknown> };
      expect(error).toMatchObject({ type: 'invalid_request_error', param: field, code: null });
      expect(error['message']).toMatch(new RegExp(`^${field} (nests|holds)`));
    }
    expect(await calls(vendorKey)).toBe(0);
  });
});
