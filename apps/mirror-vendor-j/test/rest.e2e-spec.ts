import { mirrorE2e } from '@router/testing';
import { VENDOR_J_DEFAULT_VOICE } from '@router/vendor-j';
import { createTake, type AudioSpec } from '@router/vendor-sim';

const { stack, sim, newOrg, unique, keylessOrg, setCredit, rateLimited, underFault } = mirrorE2e('vendor_j');
/** The mirror's base URL, as a vendor_j client is configured with it. */
const BASE = `${stack.gatewayUrl}/vendor_j`;
const KEY_HEADER = 'x-vendor_j-api-key';
const PCM: AudioSpec = { codec: 'pcm', sampleRate: 24000 };
const WAV: AudioSpec = { codec: 'wav', sampleRate: 24000 };

/** A generate response as the vendor's notes describe it. */
interface GenerateResponse {
  candidates?: Array<{
    content?: { role?: string; parts?: Array<{ inlineData?: { mimeType: string; data: string } }> };
    finishReason?: string;
  }>;
  usageMetadata?: Record<string, unknown>;
  modelVersion?: string;
  responseId?: string;
  error?: { code: number; message: string; status: string; details?: unknown[] };
}

interface Answer {
  status: number;
  type: string | null;
  bytes: Buffer;
  text: string;
}

/** The notes' request body: one user text, audio out, one prebuilt voice (or two named speakers). */
function speech(text: string, voice = 'Anselm'): Record<string, unknown> {
  return {
    contents: [{ role: 'user', parts: [{ text }] }],
    generationConfig: {
      responseModalities: ['AUDIO'],
      speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: voice } } },
    },
  };
}

/** `alt=sse` events: each `data: <response JSON>` and a blank line. */
function events(text: string): GenerateResponse[] {
  return text
    .split(/\r?\n\r?\n/)
    .filter((block) => block.trim() !== '')
    .map((block) => {
      if (!block.startsWith('data: ')) throw new Error(`not a data event: ${block.slice(0, 80)}`);
      return JSON.parse(block.slice('data: '.length)) as GenerateResponse;
    });
}

/** The audio of responses: every `inlineData` part with an `audio/` type, decoded, in order. */
function audioOf(responses: readonly GenerateResponse[]): Buffer {
  return Buffer.concat(
    responses.flatMap((r) =>
      (r.candidates?.[0]?.content?.parts ?? [])
        .filter((p) => p.inlineData?.mimeType.startsWith('audio/'))
        .map((p) => Buffer.from(p.inlineData?.data ?? '', 'base64')),
    ),
  );
}

/**
 * A response as the spec says a reply from the cache carries it: no `responseId`, usage counting zero tokens,
 * everything else as the vendor sent it.
 */
function asReplayed(response: GenerateResponse): GenerateResponse {
  const zero = (value: unknown): unknown =>
    typeof value === 'number'
      ? 0
      : Array.isArray(value)
        ? value.map(zero)
        : typeof value === 'object' && value !== null
          ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, zero(v)]))
          : value;
  const { responseId: _id, ...rest } = response;
  return rest.usageMetadata === undefined
    ? rest
    : { ...rest, usageMetadata: zero(rest.usageMetadata) as never };
}

/**
 * A vendor_j client's session, written from the vendor's notes (../shared/vendors/vendor_j.md), against the
 * router through the gateway with only the base URL and the key changed: each generate call is the vendor's
 * answer and then, said again, its audio from the cache with no vendor call and exactly the replay differences
 * the spec lists; the lists reach the vendor every time.
 */
describe('vendor_j mirror, REST (e2e)', () => {
  /** An org with its router key and its own vendor_j key, so the simulator's counts are this test's alone. */

  async function post(
    key: string | undefined,
    path: string,
    body: unknown,
    where: 'header' | 'query' = 'header',
  ): Promise<Answer> {
    const target = where === 'query' && key ? `${path}${path.includes('?') ? '&' : '?'}key=${key}` : path;
    const answer = await fetch(`${BASE}${target}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(where === 'header' && key !== undefined ? { [KEY_HEADER]: key } : {}),
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const bytes = Buffer.from(await answer.arrayBuffer());
    return {
      status: answer.status,
      type: answer.headers.get('content-type'),
      bytes,
      text: bytes.toString('utf8'),
    };
  }

  async function get(key: string, path: string): Promise<{ status: number; json: unknown }> {
    const answer = await fetch(`${BASE}${path}`, { headers: { [KEY_HEADER]: key } });
    return { status: answer.status, json: await answer.json() };
  }

  /** The audio the simulator made for the org's last call: that take's bytes, untouched. */
  async function lastTake(vendorKey: string, text: string, spec: AudioSpec): Promise<Buffer> {
    const takeId = (await sim.calls('vendor_j', { key: vendorKey })).at(-1)?.takeId;
    return createTake(text, spec, { takeId }).bytes;
  }

  const STREAM = (model = 'j_model_2') => `/v1beta/models/${model}:streamGenerateContent?alt=sse`;
  const GENERATE = (model = 'j_model_1') => `/v1beta/models/${model}:generateContent`;

  it("streams the vendor's SSE take, then replays its audio from the cache with the spec's differences exactly", async () => {
    const { key, vendorKey } = await newOrg();
    const text = unique('Streamed once, then from the cache');
    const before = await sim.callCount('vendor_j', { key: vendorKey });

    const live = await post(key, STREAM(), speech(text));
    expect(live.status).toBe(200);
    expect(live.type).toBe('text/event-stream');
    const liveEvents = events(live.text);
    expect(liveEvents.length).toBeGreaterThan(1);
    expect(liveEvents.at(-1)?.candidates?.[0]?.finishReason).toBe('STOP');
    expect(liveEvents.at(-1)?.responseId).toEqual(expect.any(String));
    expect(audioOf(liveEvents).equals(await lastTake(vendorKey, text, PCM))).toBe(true);
    expect(await sim.callCount('vendor_j', { key: vendorKey })).toBe(before + 1);

    const replay = await post(key, STREAM(), speech(text));
    expect(replay.status).toBe(200);
    expect(replay.type).toBe('text/event-stream');
    expect(await sim.callCount('vendor_j', { key: vendorKey })).toBe(before + 1);
    // The live events with no responseId and zero usage, written as the vendor writes events: nothing else.
    const expected = liveEvents.map((e) => `data: ${JSON.stringify(asReplayed(e))}\r\n\r\n`).join('');
    expect(replay.text).toBe(expected);
    expect(JSON.stringify(events(replay.text).at(-1)?.usageMetadata)).not.toMatch(/[1-9]/);

    const again = await post(key, STREAM(), speech(text));
    expect(again.bytes.equals(replay.bytes)).toBe(true);
    expect(await sim.callCount('vendor_j', { key: vendorKey })).toBe(before + 1);
  });

  it.each([
    { model: 'j_model_1', spec: PCM, mime: 'audio/L16;codec=pcm;rate=24000' },
    { model: 'j_model_3', spec: WAV, mime: 'audio/wav' },
  ])(
    "answers generateContent on $model with the vendor's one response, then its audio from the cache",
    async ({ model, spec, mime }) => {
      const { key, vendorKey } = await newOrg();
      const text = unique(`Generated whole on ${model}`);
      const before = await sim.callCount('vendor_j', { key: vendorKey });

      const live = await post(key, GENERATE(model), speech(text));
      expect(live.status).toBe(200);
      expect(live.type).toMatch(/^application\/json/);
      const response = JSON.parse(live.text) as GenerateResponse;
      expect(response.candidates?.[0]?.content?.parts?.[0]?.inlineData?.mimeType).toBe(mime);
      expect(response.candidates?.[0]?.finishReason).toBe('STOP');
      expect(audioOf([response]).equals(await lastTake(vendorKey, text, spec))).toBe(true);

      const replay = await post(key, GENERATE(model), speech(text));
      expect(replay.status).toBe(200);
      expect(replay.type).toBe(live.type);
      expect(replay.text).toBe(JSON.stringify(asReplayed(response)));
      const again = await post(key, GENERATE(model), speech(text));
      expect(again.bytes.equals(replay.bytes)).toBe(true);
      expect(await sim.callCount('vendor_j', { key: vendorKey })).toBe(before + 1);
    },
  );

  it("speaks under v1 as the vendor's newest client calls it, then from the cache, sharing entries with v1beta", async () => {
    const { key, vendorKey } = await newOrg();
    const v1 = (path: string) => path.replace('/v1beta/', '/v1/');
    const before = await sim.callCount('vendor_j', { key: vendorKey });

    const text = unique('Streamed under v1');
    const live = await post(key, v1(STREAM()), speech(text));
    expect(live.status).toBe(200);
    expect(live.type).toBe('text/event-stream');
    const liveEvents = events(live.text);
    expect(liveEvents.at(-1)?.candidates?.[0]?.finishReason).toBe('STOP');
    expect(audioOf(liveEvents).equals(await lastTake(vendorKey, text, PCM))).toBe(true);
    const replay = await post(key, v1(STREAM()), speech(text));
    expect(replay.text).toBe(
      liveEvents.map((e) => `data: ${JSON.stringify(asReplayed(e))}\r\n\r\n`).join(''),
    );
    // The same body under v1beta is the same entry.
    const shared = await post(key, STREAM(), speech(text));
    expect(shared.bytes.equals(replay.bytes)).toBe(true);
    expect(await sim.callCount('vendor_j', { key: vendorKey })).toBe(before + 1);

    // And the other way: generateContent said under v1beta first, then under v1 from the cache.
    const said = unique('Generated under v1beta, replayed under v1');
    const first = await post(key, GENERATE(), speech(said));
    expect(first.status).toBe(200);
    const again = await post(key, v1(GENERATE()), speech(said));
    expect(again.status).toBe(200);
    expect(again.text).toBe(JSON.stringify(asReplayed(JSON.parse(first.text) as GenerateResponse)));
    expect(await sim.callCount('vendor_j', { key: vendorKey })).toBe(before + 2);
  });

  it('speaks two named speakers on the newest model, then from the cache', async () => {
    const { key, vendorKey } = await newOrg();
    const body = {
      contents: [{ role: 'user', parts: [{ text: unique('Ann: Shall we start? Ben: We shall') }] }],
      generationConfig: {
        responseModalities: ['AUDIO'],
        speechConfig: {
          multiSpeakerVoiceConfig: {
            speakerVoiceConfigs: [
              { speaker: 'Ann', voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Anselm' } } },
              { speaker: 'Ben', voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Briar' } } },
            ],
          },
        },
      },
    };
    const before = await sim.callCount('vendor_j', { key: vendorKey });
    const live = await post(key, STREAM('j_model_3'), body);
    expect(live.status).toBe(200);
    const replay = await post(key, STREAM('j_model_3'), body);
    expect(audioOf(events(replay.text)).equals(audioOf(events(live.text)))).toBe(true);
    expect(await sim.callCount('vendor_j', { key: vendorKey })).toBe(before + 1);
  });

  it('keys a request with its settings left out as the same request spelled out: one vendor call', async () => {
    const { key, vendorKey } = await newOrg();
    const text = unique('Settings left out');
    const before = await sim.callCount('vendor_j', { key: vendorKey });

    // No role and no voice: the vendor speaks the user's text with its default voice.
    const bare = await post(key, GENERATE(), {
      contents: [{ parts: [{ text }] }],
      generationConfig: { responseModalities: ['AUDIO'] },
    });
    expect(bare.status).toBe(200);
    const bareAudio = audioOf([JSON.parse(bare.text) as GenerateResponse]);
    expect(bareAudio.equals(await lastTake(vendorKey, text, PCM))).toBe(true);

    // The same spelled out: the role, the default voice, `alt` at its default, proto field names, nulls.
    const spelled = [
      { path: `${GENERATE()}?alt=json`, body: speech(text, VENDOR_J_DEFAULT_VOICE) },
      {
        path: GENERATE(),
        body: {
          contents: [{ role: 'user', parts: [{ text }] }],
          generation_config: {
            response_modalities: ['AUDIO'],
            speech_config: {
              voice_config: { prebuilt_voice_config: { voice_name: VENDOR_J_DEFAULT_VOICE } },
            },
          },
        },
      },
      {
        path: GENERATE(),
        body: {
          contents: [{ role: null, parts: [{ text }] }],
          generationConfig: { responseModalities: ['AUDIO'], speechConfig: { voiceConfig: null } },
        },
      },
    ];
    for (const { path, body } of spelled) {
      const same = await post(key, path, body);
      expect(same.status).toBe(200);
      expect(audioOf([JSON.parse(same.text) as GenerateResponse]).equals(bareAudio)).toBe(true);
    }
    expect(await sim.callCount('vendor_j', { key: vendorKey })).toBe(before + 1);
  });

  it('takes the router key in the key query parameter too, sharing the entry of the header', async () => {
    const { key, vendorKey } = await newOrg();
    const text = unique('Keyed in the query');
    const before = await sim.callCount('vendor_j', { key: vendorKey });
    const first = await post(key, STREAM(), speech(text), 'query');
    expect(first.status).toBe(200);
    const second = await post(key, STREAM(), speech(text), 'header');
    expect(audioOf(events(second.text)).equals(audioOf(events(first.text)))).toBe(true);
    expect(await sim.callCount('vendor_j', { key: vendorKey })).toBe(before + 1);
  });

  it('makes one vendor call for ten identical requests at once', async () => {
    const { key, vendorKey } = await newOrg();
    const body = speech(unique('Ten at once'));
    const before = await sim.callCount('vendor_j', { key: vendorKey });
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(key, STREAM(), body)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const audio = audioOf(events(answers[0]?.text ?? ''));
    for (const answer of answers) expect(audioOf(events(answer.text)).equals(audio)).toBe(true);
    expect(await sim.callCount('vendor_j', { key: vendorKey })).toBe(before + 1);
  });

  it('sends anything but one text, and the streaming call without alt=sse, upstream every time', async () => {
    const { key, vendorKey } = await newOrg();
    const text = unique('Never cached');
    const twoTexts = {
      ...speech(text),
      contents: [{ role: 'user', parts: [{ text }, { text: 'And a second part.' }] }],
    };
    for (const { path, body } of [
      { path: '/v1beta/models/j_model_2:streamGenerateContent', body: speech(text) },
      { path: GENERATE(), body: twoTexts },
    ]) {
      const before = await sim.callCount('vendor_j', { key: vendorKey });
      const first = await post(key, path, body);
      const again = await post(key, path, body);
      expect([path, first.status, again.status]).toEqual([path, 200, 200]);
      expect(await sim.callCount('vendor_j', { key: vendorKey })).toBe(before + 2);
    }
    // Without alt=sse the streaming call answers one JSON array of responses, as the vendor does.
    const array = await post(key, '/v1beta/models/j_model_2:streamGenerateContent', speech(text));
    expect(Array.isArray(JSON.parse(array.text))).toBe(true);
  });

  it('reads the voice and model lists from the vendor, every time', async () => {
    const { key, vendorKey } = await newOrg();
    for (const path of [
      '/v1beta/voices?pageSize=5',
      '/v1beta/models',
      '/v1beta/models/j_model_2',
      '/v1/voices?pageSize=5',
      '/v1/models',
      '/v1/models/j_model_2',
    ]) {
      const before = await sim.readCount('vendor_j', { key: vendorKey });
      const first = await get(key, path);
      const again = await get(key, path);
      expect([path, first.status, again.status]).toEqual([path, 200, 200]);
      expect(await sim.readCount('vendor_j', { key: vendorKey })).toBe(before + 2);
      const direct = await fetch(`${stack.simUrl}/vendor_j${path}`, { headers: { [KEY_HEADER]: vendorKey } });
      expect(first.json).toEqual(await direct.json());
    }
    const voices = (await get(key, '/v1beta/voices?pageSize=5')).json as { voices: unknown[] };
    expect(voices.voices).toHaveLength(5);
  });

  it.each([
    {
      answer: "the vendor's error event after the 200",
      fault: { kind: 'error', status: 503, message: 'The take failed midway.' },
    },
    { answer: 'events ended inside an event, before STOP', fault: { kind: 'end' } },
  ] as const)(
    'passes $answer on as the vendor sent it and stores none of it: the same request reaches the vendor again',
    async ({ fault }) => {
      const { key, vendorKey } = await newOrg();
      const body = speech(unique('Not whole, then whole, then from the cache'));
      const before = await sim.callCount('vendor_j', { key: vendorKey });

      const broken = await underFault(vendorKey, { afterBytes: 2000, ...fault }, () =>
        post(key, STREAM(), body),
      );
      // The client gets what the vendor sent: a 200 whose body ended normally, not whole.
      expect(broken.status).toBe(200);
      const blocks = broken.text.split('\r\n\r\n').filter((b) => b !== '');
      if (fault.kind === 'error') {
        const last = events(broken.text).at(-1);
        expect(last?.error).toMatchObject({ code: 503, message: 'The take failed midway.' });
        expect(audioOf(events(broken.text)).length).toBe(2000);
      } else {
        expect(() => events(broken.text)).toThrow();
        expect(audioOf(events(blocks.slice(0, -1).join('\r\n\r\n'))).length).toBe(2000);
      }

      const whole = await post(key, STREAM(), body);
      expect(whole.status).toBe(200);
      expect(events(whole.text).at(-1)?.candidates?.[0]?.finishReason).toBe('STOP');
      expect(await sim.callCount('vendor_j', { key: vendorKey })).toBe(before + 2);
      const again = await post(key, STREAM(), body);
      expect(audioOf(events(again.text)).equals(audioOf(events(whole.text)))).toBe(true);
      expect(await sim.callCount('vendor_j', { key: vendorKey })).toBe(before + 2);
    },
  );

  it('stores nothing of a generateContent answer ended short: the same request reaches the vendor again', async () => {
    const { key, vendorKey } = await newOrg();
    const body = speech(unique('Ended short'));
    const before = await sim.callCount('vendor_j', { key: vendorKey });
    const short = await underFault(vendorKey, { kind: 'end', afterBytes: 300 }, () =>
      post(key, GENERATE(), body),
    );
    expect(short.status).toBe(200);
    expect(short.bytes.length).toBe(300);
    const whole = await post(key, GENERATE(), body);
    expect(JSON.parse(whole.text)).toMatchObject({ candidates: [{ finishReason: 'STOP' }] });
    expect(await sim.callCount('vendor_j', { key: vendorKey })).toBe(before + 2);
  });

  it("passes the vendor's refusals on as it sent them and stores nothing of them", async () => {
    const { key, vendorKey } = await newOrg();
    const unknownVoice = await post(key, GENERATE(), speech(unique('Unknown voice'), 'Nobody'));
    expect(unknownVoice.status).toBe(400);
    expect((JSON.parse(unknownVoice.text) as GenerateResponse).error?.status).toBe('INVALID_ARGUMENT');

    const body = speech(unique('Refused, then said'));
    const before = await sim.callCount('vendor_j', { key: vendorKey });
    const refused = await rateLimited(vendorKey, () => post(key, STREAM(), body));
    expect((JSON.parse(refused.text) as GenerateResponse).error?.status).toBe('RESOURCE_EXHAUSTED');
    expect((await post(key, STREAM(), body)).status).toBe(200);
    expect(await sim.callCount('vendor_j', { key: vendorKey })).toBe(before + 2);
  });

  it("answers a path or method vendor_j's mirror does not have with the vendor's empty 404", async () => {
    const { key } = await newOrg();
    for (const path of [
      '/v1beta/models/j_model_1:countTokens',
      '/v1/projects/p1/locations/l1/publishers/p2/models/j_model_1:generateContent',
    ]) {
      const answer = await post(key, path, speech('Hi.'));
      expect([path, answer.status, answer.text]).toEqual([path, 404, '']);
    }
  });

  it("refuses a missing, wrong or vendor-keyless router key, and an org out of credit, in vendor_j's shape", async () => {
    const path = GENERATE();
    const none = await post(undefined, path, speech('Hi.'));
    expect(none.status).toBe(403);
    expect(JSON.parse(none.text)).toMatchObject({ error: { code: 403, status: 'PERMISSION_DENIED' } });

    for (const where of ['header', 'query'] as const) {
      const wrong = await post('rtr_not-a-key', path, speech('Hi.'), where);
      expect(wrong.status).toBe(400);
      expect(JSON.parse(wrong.text)).toEqual({
        error: {
          code: 400,
          status: 'INVALID_ARGUMENT',
          message: expect.any(String),
          details: [expect.objectContaining({ reason: 'API_KEY_INVALID' })],
        },
      });
    }

    const noVendorKey = await post(keylessOrg().key, path, speech('Hi.'));
    expect(noVendorKey.status).toBe(400);
    const refusal = (JSON.parse(noVendorKey.text) as GenerateResponse).error;
    expect(refusal).toMatchObject({ status: 'INVALID_ARGUMENT', details: [{ reason: 'API_KEY_INVALID' }] });
    expect(refusal?.message).toContain('/dashboard/provider-keys');

    const { orgId, key } = await newOrg();
    await setCredit(orgId, 'out', async () => (await post(key, path, speech('Hi.'))).status === 402);
    await setCredit(orgId, 'in');
  });

  it("refuses a body nested past the client-JSON limit with the vendor's INVALID_ARGUMENT, calling no one", async () => {
    const { key, vendorKey } = await newOrg();
    const before = await sim.callCount('vendor_j', { key: vendorKey });
    const deep = `{"contents":[{"parts":[{"text":"Hi."}]}],"generationConfig":${'{"a":'.repeat(40)}1${'}'.repeat(40)}}`;
    for (const path of [GENERATE(), STREAM()]) {
      const answer = await post(key, path, deep);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text)).toMatchObject({
        error: {
          code: 400,
          status: 'INVALID_ARGUMENT',
          message: expect.stringContaining('generationConfig'),
        },
      });
    }
    expect(await sim.callCount('vendor_j', { key: vendorKey })).toBe(before);
  });
});
