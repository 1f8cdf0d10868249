import { randomUUID } from 'node:crypto';
import { createBlobStore } from '@router/blob-store';
import { mirrorE2e } from '@router/testing';
import { createTake, type AudioSpec } from '@router/vendor-sim';

const { stack, sim, newOrg, keylessOrg, rateLimited, underFault } = mirrorE2e('vendor_c');
/** The mirror's base URL, as a vendor_c client is configured with it. */
const BASE = `${stack.gatewayUrl}/vendor_c`;
const SETTINGS = { stability: 0.5, similarity_boost: 0.75 };

/**
 * A vendor_c client's REST session, written from the vendor's notes (../shared/vendors/vendor_c.md), against
 * the router through the gateway with only the base URL and the key changed: every synthesis endpoint is
 * the vendor's answer and then, said again, the same bytes from the cache with no vendor call; the voice
 * endpoints reach the vendor every time.
 */
describe('vendor_c mirror, REST (e2e)', () => {
  /** An org with its router key and its own vendor_c key, so the simulator's counts are this test's alone. */

  async function post(
    key: string,
    path: string,
    body: unknown,
  ): Promise<{ status: number; type: string | null; headers: Headers; bytes: Buffer }> {
    const answer = await fetch(`${BASE}${path}`, {
      method: 'POST',
      headers: { 'vendor_c-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return {
      status: answer.status,
      type: answer.headers.get('content-type'),
      headers: answer.headers,
      bytes: Buffer.from(await answer.arrayBuffer()),
    };
  }

  async function get(key: string, path: string): Promise<{ status: number; json: any }> {
    const answer = await fetch(`${BASE}${path}`, { headers: { 'vendor_c-api-key': key } });
    return { status: answer.status, json: await answer.json() };
  }

  async function firstVoice(key: string): Promise<string> {
    const { status, json } = await get(key, '/v1/voices');
    expect(status).toBe(200);
    const voice = (json.voices as Array<{ voice_id: string }>)[0]?.voice_id;
    if (!voice) throw new Error('the simulator lists no vendor_c voice');
    return voice;
  }

  it("answers text-to-speech with the vendor's take, then replays it from the cache byte for byte", async () => {
    const { key, vendorKey } = await newOrg();
    const voice = await firstVoice(key);
    const text = `Hello from the mirror ${randomUUID().slice(0, 8)}.`;
    const before = await sim.callCount('vendor_c', { key: vendorKey });

    const first = await post(key, `/v1/text-to-speech/${voice}?output_format=pcm_16000`, {
      text,
      model_id: 'c_model_1',
      voice_settings: SETTINGS,
    });
    expect(first.status).toBe(200);
    expect(first.type).toBe('audio/pcm');
    // The simulator's audio differs per take (its id is in the call log): this is that take, untouched.
    const calls = await sim.calls('vendor_c', { key: vendorKey });
    const take = calls.at(-1)?.takeId;
    const vendorBytes = createTake(
      text,
      { codec: 'pcm', sampleRate: 16000 },
      { takeId: take, speed: 1 },
    ).bytes;
    expect(first.bytes.equals(vendorBytes)).toBe(true);
    expect(await sim.callCount('vendor_c', { key: vendorKey })).toBe(before + 1);

    const again = await post(key, `/v1/text-to-speech/${voice}?output_format=pcm_16000`, {
      text,
      model_id: 'c_model_1',
      voice_settings: SETTINGS,
    });
    expect(again.status).toBe(200);
    expect(again.type).toBe('audio/pcm');
    expect(again.bytes.equals(first.bytes)).toBe(true);
    expect(await sim.callCount('vendor_c', { key: vendorKey })).toBe(before + 1);
  });

  it.each([
    { format: 'mp3_22050_32', spec: { codec: 'mp3', sampleRate: 22050, bitrateKbps: 32, id3: true } },
    { format: 'pcm_44100', spec: { codec: 'pcm', sampleRate: 44100 } },
    { format: 'wav_16000', spec: { codec: 'wav', sampleRate: 16000 } },
    { format: 'ulaw_8000', spec: { codec: 'mulaw', sampleRate: 8000 } },
    { format: 'alaw_8000', spec: { codec: 'alaw', sampleRate: 8000 } },
    { format: 'opus_48000_192', spec: { codec: 'opus', sampleRate: 48000, bitrateKbps: 192 } },
  ] satisfies Array<{ format: string; spec: AudioSpec }>)(
    "answers in $format with the vendor's bytes and type, then the same from the cache",
    async ({ format, spec }) => {
      const { key, vendorKey } = await newOrg();
      const voice = await firstVoice(key);
      const text = `Answered in ${format} ${randomUUID().slice(0, 8)}.`;
      const path = `/v1/text-to-speech/${voice}?output_format=${format}`;
      const body = { text, model_id: 'c_model_1', voice_settings: SETTINGS };

      const first = await post(key, path, body);
      expect(first.status).toBe(200);
      const take = createTake(text, spec, {
        takeId: (await sim.calls('vendor_c', { key: vendorKey })).at(-1)?.takeId,
      });
      expect(first.type).toBe(take.contentType);
      expect(first.bytes.equals(take.bytes)).toBe(true);
      const calls = await sim.callCount('vendor_c', { key: vendorKey });

      const again = await post(key, path, body);
      expect(again.status).toBe(200);
      expect(again.type).toBe(first.type);
      expect(again.bytes.equals(first.bytes)).toBe(true);
      expect(await sim.callCount('vendor_c', { key: vendorKey })).toBe(calls);
    },
  );

  it.each([
    { endpoint: '/stream', format: 'mp3_44100_128', type: 'audio/mpeg' },
    { endpoint: '/with-timestamps', format: 'pcm_22050', type: 'application/json' },
    { endpoint: '/stream/with-timestamps', format: 'pcm_22050', type: null },
  ])('serves $endpoint, then the same request from the cache', async ({ endpoint, format, type }) => {
    const { key, vendorKey } = await newOrg();
    const voice = await firstVoice(key);
    const body = { text: `Said twice on ${endpoint} ${randomUUID().slice(0, 8)}.`, voice_settings: SETTINGS };
    const path = `/v1/text-to-speech/${voice}${endpoint}?output_format=${format}`;
    const before = await sim.callCount('vendor_c', { key: vendorKey });

    const first = await post(key, path, body);
    expect(first.status).toBe(200);
    if (type) expect(first.type).toBe(type);
    if (endpoint.includes('with-timestamps')) {
      // JSON with the audio and the character timings (one object, or one per line when streamed).
      const objects = first.bytes
        .toString('utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Record<string, any>);
      expect(objects.length).toBeGreaterThan(0);
      expect(typeof objects[0]['audio_base64']).toBe('string');
      const alignment = objects[0]['alignment'];
      expect(alignment.characters.length).toBe(alignment.character_start_times_seconds.length);
    }
    expect(await sim.callCount('vendor_c', { key: vendorKey })).toBe(before + 1);

    const again = await post(key, path, body);
    expect(again.status).toBe(200);
    expect(again.type).toBe(first.type);
    expect(again.bytes.equals(first.bytes)).toBe(true);
    expect(await sim.callCount('vendor_c', { key: vendorKey })).toBe(before + 1);
  });

  it('serves text-to-dialogue streaming, then the same request from the cache', async () => {
    const { key, vendorKey } = await newOrg();
    const voice = await firstVoice(key);
    const body = {
      model_id: 'c_model_8',
      inputs: [
        { text: `First speaker ${randomUUID().slice(0, 8)}.`, voice_id: voice },
        { text: 'And the answer.', voice_id: voice },
      ],
    };
    const before = await sim.callCount('vendor_c', { key: vendorKey });
    const first = await post(key, '/v1/text-to-dialogue/stream?output_format=pcm_16000', body);
    expect(first.status).toBe(200);
    expect(first.bytes.length).toBeGreaterThan(0);
    const again = await post(key, '/v1/text-to-dialogue/stream?output_format=pcm_16000', body);
    expect(again.bytes.equals(first.bytes)).toBe(true);
    expect(await sim.callCount('vendor_c', { key: vendorKey })).toBe(before + 1);
  });

  it('keys a request with its defaults left out and partial voice settings as the same request spelled out: one vendor call, the same bytes', async () => {
    const { key, vendorKey } = await newOrg();
    const voice = await firstVoice(key);
    const text = `Defaults left out ${randomUUID().slice(0, 8)}.`;
    const before = await sim.callCount('vendor_c', { key: vendorKey });

    // Partial voice settings: the vendor takes the fields left out from the voice's stored settings.
    const bare = await post(key, `/v1/text-to-speech/${voice}/stream`, {
      text,
      voice_settings: { speed: 1.1 },
    });
    expect(bare.status).toBe(200);
    const take = (await sim.calls('vendor_c', { key: vendorKey })).at(-1)?.takeId;
    const mp3 = { codec: 'mp3', sampleRate: 44100, bitrateKbps: 128, id3: true } satisfies AudioSpec;
    expect(bare.bytes.equals(createTake(text, mp3, { takeId: take, speed: 1.1 }).bytes)).toBe(true);

    // Every default the vendor reads spelled out, in the spellings it reads alike, fields in another order.
    const spelled = await post(
      key,
      `/v1/text-to-speech/${voice}/stream?optimize_streaming_latency=0&enable_logging=1&output_format=mp3_44100_128`,
      {
        voice_settings: { style: null, speed: 1.1 },
        apply_text_normalization: 'auto',
        language_code: null,
        model_id: 'c_model_3',
        seed: null,
        text,
      },
    );
    expect(spelled.status).toBe(200);
    expect(spelled.bytes.equals(bare.bytes)).toBe(true);
    expect(await sim.callCount('vendor_c', { key: vendorKey })).toBe(before + 1);
  });

  it("keys voice settings with every field left out as settings left out: the voice's stored ones, one entry", async () => {
    const { key, vendorKey } = await newOrg();
    const voice = await firstVoice(key);
    const text = `Stored settings ${randomUUID().slice(0, 8)}.`;
    const path = `/v1/text-to-speech/${voice}?output_format=pcm_16000`;
    const before = await sim.callCount('vendor_c', { key: vendorKey });

    const left = await post(key, path, { text, voice_settings: {} });
    expect(left.status).toBe(200);
    for (const body of [{ text }, { text, voice_settings: { stability: null, similarity_boost: null } }]) {
      const same = await post(key, path, body);
      expect([same.status, same.bytes.equals(left.bytes)]).toEqual([200, true]);
    }
    expect(await sim.callCount('vendor_c', { key: vendorKey })).toBe(before + 1);
  });

  it('makes one vendor call for ten identical requests at once', async () => {
    const { key, vendorKey } = await newOrg();
    const voice = await firstVoice(key);
    const body = { text: `Ten at once ${randomUUID().slice(0, 8)}.`, voice_settings: SETTINGS };
    const before = await sim.callCount('vendor_c', { key: vendorKey });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        post(key, `/v1/text-to-speech/${voice}/stream?output_format=pcm_16000`, body),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    for (const answer of answers) expect(answer.bytes.equals(answers[0].bytes)).toBe(true);
    expect(await sim.callCount('vendor_c', { key: vendorKey })).toBe(before + 1);
  });

  it("passes the vendor's refusals through as it sent them", async () => {
    const { key } = await newOrg();
    const unknown = await post(key, '/v1/text-to-speech/no-such-voice?output_format=pcm_16000', {
      text: `Unknown voice ${randomUUID().slice(0, 8)}.`,
    });
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.bytes.toString('utf8')).detail.status).toBe('voice_not_found');
  });

  it('stores nothing of a refused or cut answer: the same request reaches the vendor again', async () => {
    const { key, vendorKey } = await newOrg();
    const voice = await firstVoice(key);
    const path = `/v1/text-to-speech/${voice}/stream?output_format=pcm_16000`;
    const body = { text: `Refused, cut, then said ${randomUUID().slice(0, 8)}.`, voice_settings: SETTINGS };
    const before = await sim.callCount('vendor_c', { key: vendorKey });

    const refused = await rateLimited(vendorKey, () => post(key, path, body), {
      code: 'too_many_concurrent_requests',
      message: 'Slow down.',
    });
    expect(JSON.parse(refused.bytes.toString('utf8')).detail.message).toBe('Slow down.');

    // Every call is cut while the fault stands: a cut that reaches the worker before any audio is retried on
    // another worker (by design), and that retry must be cut too for the client to see one.
    const cut = await sim.injectFault({
      vendor: 'vendor_c',
      kind: 'cut',
      key: vendorKey,
      afterBytes: 512,
      times: 'always',
    });
    const aborted = await fetch(`${BASE}${path}`, {
      method: 'POST',
      headers: { 'vendor_c-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(
      (answer) =>
        answer.arrayBuffer().then(
          () => 'whole',
          () => 'aborted',
        ),
      () => 'aborted',
    );
    await sim.removeFault(cut.id).catch(() => undefined);
    expect(aborted).toBe('aborted');
    const afterCut = await sim.callCount('vendor_c', { key: vendorKey });
    expect(afterCut).toBeGreaterThanOrEqual(before + 2);

    // Nothing of the refusal or the cut was stored: the request reaches the vendor, then replays from the cache.
    const said = await post(key, path, body);
    expect(said.status).toBe(200);
    const again = await post(key, path, body);
    expect(again.bytes.equals(said.bytes)).toBe(true);
    expect(await sim.callCount('vendor_c', { key: vendorKey })).toBe(afterCut + 1);
  });

  it.each([
    {
      answer: "the vendor's error line after the 200",
      endpoint: '/stream/with-timestamps',
      fault: { kind: 'error', status: 500, message: 'The take failed midway.' },
    },
    { answer: 'lines ended inside a line', endpoint: '/stream/with-timestamps', fault: { kind: 'end' } },
    { answer: 'a JSON document ended short', endpoint: '/with-timestamps', fault: { kind: 'end' } },
  ] as const)(
    'passes $answer on as the vendor sent it, stores none of it: the same request reaches the vendor again',
    async ({ endpoint, fault }) => {
      const { key, vendorKey } = await newOrg();
      const voice = await firstVoice(key);
      const path = `/v1/text-to-speech/${voice}${endpoint}?output_format=pcm_16000`;
      const body = {
        text: `Not whole, then whole, then from the cache ${randomUUID().slice(0, 8)}.`,
        voice_settings: SETTINGS,
      };
      const before = await sim.callCount('vendor_c', { key: vendorKey });

      const broken = await underFault(vendorKey, { afterBytes: 600, ...fault }, () => post(key, path, body));
      // The client gets what the vendor sent: a 200 whose body ended normally, not whole.
      expect(broken.status).toBe(200);
      const text = broken.bytes.toString('utf8');
      if (fault.kind === 'error') {
        const last = JSON.parse(text.trimEnd().split('\n').at(-1) ?? '') as { detail: { message: string } };
        expect(last.detail.message).toBe('The take failed midway.');
      } else {
        expect(() =>
          text
            .trimEnd()
            .split('\n')
            .forEach((line) => JSON.parse(line)),
        ).toThrow();
      }

      const whole = await post(key, path, body);
      expect(whole.status).toBe(200);
      expect(whole.bytes.equals(broken.bytes)).toBe(false);
      expect(await sim.callCount('vendor_c', { key: vendorKey })).toBe(before + 2);
      const again = await post(key, path, body);
      expect(again.bytes.equals(whole.bytes)).toBe(true);
      expect(await sim.callCount('vendor_c', { key: vendorKey })).toBe(before + 2);
    },
  );

  it('replays the request id of the take it stores, but not the characters billed for it', async () => {
    const { key } = await newOrg();
    const voice = await firstVoice(key);
    const path = `/v1/text-to-speech/${voice}/stream?output_format=pcm_16000`;
    const text = `Billed once ${randomUUID().slice(0, 8)}.`;
    const first = await post(key, path, { text, voice_settings: SETTINGS });
    expect(first.headers.get('x-character-count')).toBe(String(text.length));
    expect(first.headers.get('request-id')).toMatch(/^[0-9a-f]{32}$/);
    const again = await post(key, path, { text, voice_settings: SETTINGS });
    expect(again.bytes.equals(first.bytes)).toBe(true);
    expect(again.headers.get('x-character-count')).toBeNull();
    expect(again.headers.get('request-id')).toBe(first.headers.get('request-id'));
  });

  it('reads every voice endpoint from the vendor, every time', async () => {
    const { key, vendorKey } = await newOrg();
    const voice = await firstVoice(key);
    // The simulator counts the account's reads of its voices and a voice's settings.
    for (const path of ['/v1/voices', '/v2/voices', `/v1/voices/${voice}/settings`]) {
      const before = await sim.readCount('vendor_c', { key: vendorKey });
      const first = await get(key, path);
      const again = await get(key, path);
      expect([path, first.status, again.status]).toEqual([path, 200, 200]);
      expect(await sim.readCount('vendor_c', { key: vendorKey })).toBe(before + 2);
    }
    // The shared library is the same for every account: the mirror's answer is the vendor's.
    const shared = await get(key, '/v1/shared-voices');
    const direct = await fetch(`${stack.simUrl}/vendor_c/v1/shared-voices`, {
      headers: { 'vendor_c-api-key': vendorKey },
    });
    expect(shared.status).toBe(200);
    expect(shared.json).toEqual(await direct.json());
  });

  it('adds a shared-library voice through the mirror, which then speaks', async () => {
    const { key } = await newOrg();
    const shared = await get(key, '/v1/shared-voices?page_size=1');
    const pick = (shared.json.voices as Array<{ public_owner_id: string; voice_id: string }>)[0];
    const added = await post(key, `/v1/voices/add/${pick.public_owner_id}/${pick.voice_id}`, {
      new_name: 'Picked through the mirror',
    });
    expect(added.status).toBe(200);
    const { voice_id: voiceId } = JSON.parse(added.bytes.toString('utf8')) as { voice_id: string };
    const listed = await get(key, '/v1/voices');
    expect(
      (listed.json.voices as Array<{ voice_id: string; name: string }>).find((v) => v.voice_id === voiceId)
        ?.name,
    ).toBe('Picked through the mirror');
    const spoken = await post(key, `/v1/text-to-speech/${voiceId}?output_format=pcm_16000`, {
      text: `With a voice just added ${randomUUID().slice(0, 8)}.`,
    });
    expect(spoken.status).toBe(200);
  });

  it('stores a timed answer sealed: no blob holds its text, its characters or its JSON', async () => {
    const org = await newOrg();
    const voice = await firstVoice(org.key);
    const text = `Sealed words ${randomUUID().slice(0, 8)}`;
    const path = `/v1/text-to-speech/${voice}/with-timestamps?output_format=pcm_16000`;
    const first = await post(org.key, path, { text, voice_settings: SETTINGS });
    expect(first.bytes.toString('utf8')).toContain('"characters"');
    expect((await post(org.key, path, { text, voice_settings: SETTINGS })).bytes.equals(first.bytes)).toBe(
      true,
    );
    const blobs = createBlobStore({
      kind: 's3',
      endpoint: stack.env['S3_ENDPOINT'],
      accessKey: stack.env['S3_ACCESS_KEY'],
      secretKey: stack.env['S3_SECRET_KEY'],
      bucket: stack.env['S3_BUCKET'],
    });
    const names: string[] = [];
    for await (const entry of blobs.list(`${org.orgId}/`)) names.push(entry.name);
    expect(names.length).toBeGreaterThan(0);
    const spelled = JSON.stringify([...text.slice(0, 6)]).slice(1, -1); // "S","e","a",… as the answer spells it
    for (const name of names) {
      const stored = (await blobs.get(name)).toString('latin1');
      expect([
        name,
        stored.includes(text),
        stored.includes(spelled),
        stored.includes('audio_base64'),
      ]).toEqual([name, false, false, false]);
    }
  });

  it("answers a path vendor_c does not have with the vendor's 404", async () => {
    const { key } = await newOrg();
    const answer = await fetch(`${BASE}/v1/no-such-endpoint`, { headers: { 'vendor_c-api-key': key } });
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({ detail: 'Not Found' });
  });

  it("refuses a missing, wrong or vendor-keyless router key in vendor_c's shape", async () => {
    const path = '/v1/text-to-speech/any-voice?output_format=pcm_16000';
    const noKey = await fetch(`${BASE}${path}`, { method: 'POST', body: '{}' });
    expect(noKey.status).toBe(401);
    const wrong = await fetch(`${BASE}${path}`, {
      method: 'POST',
      headers: { 'vendor_c-api-key': 'rtr_not-a-key' },
      body: '{}',
    });
    expect(wrong.status).toBe(400);
    const wrongBody = (await wrong.json()) as { detail: Record<string, unknown> };
    expect(wrongBody.detail).toMatchObject({
      type: 'authentication_error',
      code: 'invalid_api_key',
      status: 'invalid_api_key',
      param: 'api_key',
    });
    expect(Object.keys(wrongBody.detail).sort()).toEqual(
      ['code', 'message', 'param', 'request_id', 'status', 'type'].sort(),
    );
    const noVendorKey = await fetch(`${BASE}${path}`, {
      method: 'POST',
      headers: { 'vendor_c-api-key': keylessOrg().key },
      body: '{}',
    });
    expect(noVendorKey.status).toBe(400);
    expect(((await noVendorKey.json()) as { detail: { message: string } }).detail.message).toContain(
      '/dashboard/provider-keys',
    );
  });

  it("refuses a body nested past 32 levels or holding a number past a double with the vendor's schema error at the field", async () => {
    const { key } = await newOrg();
    const voice = await firstVoice(key);
    const cases = [
      {
        raw: `{"text":"Hi.","voice_settings":${'['.repeat(4000)}${']'.repeat(4000)}}`,
        field: 'voice_settings',
      },
      { raw: `{"text":"Hi.","x":${'{"a":'.repeat(32)}1${'}'.repeat(32)}}`, field: 'x' },
      { raw: '{"text":"Hi.","seed":1e400}', field: 'seed' },
    ];
    for (const path of ['', '/stream', '/with-timestamps', '/stream/with-timestamps']) {
      for (const { raw, field } of cases) {
        const answer = await fetch(`${BASE}/v1/text-to-speech/${voice}${path}`, {
          method: 'POST',
          headers: { 'vendor_c-api-key': key, 'content-type': 'application/json' },
          body: raw,
        });
        expect(answer.status).toBe(422);
        const body = (await answer.json()) as { detail: Array<{ loc: string[]; msg: string }> };
        expect(body.detail[0]?.loc).toEqual(['body', field]);
        expect(body.detail[0]?.msg).toMatch(new RegExp(`^${field} (nests|holds)`));
      }
    }
  });
});
