import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { mirrorE2e } from '@router/testing';
import { createTake, type AudioSpec } from '@router/vendor-sim';

const { stack, sim, newOrg, unique, calls, keylessOrg, disableOrg, setCredit, rateLimited, saidTwice } =
  mirrorE2e('vendor_e');
/** The mirror's base URL, as a vendor_e client is configured with it (the vendor's is `https://{BASE}`). */
const BASE = `${stack.gatewayUrl}/vendor_e`;
const V1_MODEL = 'e_model_1-orla-en';
const V2_MODEL = 'e_model_3-orla-en';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The vendor's headers about one request of its own: live only, never replayed (spec). */
const VENDOR_HEADERS = [
  'vendor_e-request-id',
  'vendor_e-model-name',
  'vendor_e-model-uuid',
  'vendor_e-char-count',
];

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly bytes: Buffer;
}

/**
 * A vendor_e client's REST session, written from the vendor's notes (../shared/vendors/vendor_e.md), against the
 * router through the gateway with only the base URL and the key changed: each speak call is the vendor's answer
 * and then, said again, served from the cache with no vendor call, byte for byte, with only its `Content-Type`;
 * the model lists and calls with a callback reach the vendor every time.
 */
describe('vendor_e mirror, REST (e2e)', () => {
  async function speak(
    key: string | null,
    path: string,
    query: Record<string, string>,
    body: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    const search = new URLSearchParams(query).toString();
    const answer = await fetch(`${BASE}${path}${search ? `?${search}` : ''}`, {
      method: 'POST',
      headers: {
        ...(key === null ? {} : { authorization: `Token ${key}` }),
        'content-type': 'application/json',
        ...headers,
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: answer.status, headers: answer.headers, bytes: Buffer.from(await answer.arrayBuffer()) };
  }

  const json = (answer: Answer): any => JSON.parse(answer.bytes.toString('utf8'));

  /** The take the simulator made for the last call of `vendorKey`, as the vendor encodes it. */
  async function lastTake(vendorKey: string, text: string, spec: AudioSpec): Promise<Buffer> {
    const takeId = (await sim.calls('vendor_e', { key: vendorKey })).at(-1)?.takeId;
    return createTake(text, spec, { takeId }).bytes;
  }

  it.each<{ path: string; query: Record<string, string>; spec: AudioSpec; type: string }>([
    {
      path: '/v1/speak',
      query: {},
      spec: { codec: 'mp3', sampleRate: 22050, bitrateKbps: 48 },
      type: 'audio/mpeg',
    },
    {
      path: '/v1/speak',
      query: { model: 'e_model_2-marisol-es', encoding: 'linear16', container: 'wav', sample_rate: '16000' },
      spec: { codec: 'wav', sampleRate: 16000 },
      type: 'audio/wav',
    },
    {
      path: '/v1/speak',
      query: { model: V1_MODEL, encoding: 'mulaw', sample_rate: '8000' },
      spec: { codec: 'mulaw', sampleRate: 8000 },
      type: 'audio/mulaw',
    },
    {
      path: '/v2/speak',
      query: { model: V2_MODEL, encoding: 'linear16', container: 'none', sample_rate: '24000' },
      spec: { codec: 'pcm', sampleRate: 24000 },
      type: 'audio/pcm',
    },
  ])(
    "answers $path $query with the vendor's audio and headers, then the same audio from the cache with only Content-Type",
    async ({ path, query, spec, type }) => {
      const { key, vendorKey } = await newOrg();
      const text = unique('Spoken once, then from the cache');
      const before = await calls(vendorKey);

      const first = await speak(key, path, query, { text });
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toBe(type);
      expect(first.headers.get('vendor_e-request-id')).toMatch(UUID);
      expect(first.headers.get('vendor_e-model-name')).toBe(query.model ?? V1_MODEL);
      expect(first.headers.get('vendor_e-char-count')).toBe(String([...text].length));
      expect(first.bytes.equals(await lastTake(vendorKey, text, spec))).toBe(true);
      expect(await calls(vendorKey)).toBe(before + 1);

      const again = await speak(key, path, query, { text });
      expect(again.status).toBe(200);
      expect(again.bytes.equals(first.bytes)).toBe(true);
      expect(again.headers.get('content-type')).toBe(type);
      for (const name of VENDOR_HEADERS) expect([name, again.headers.get(name)]).toEqual([name, null]);
      expect(await calls(vendorKey)).toBe(before + 1);
    },
  );

  it('keys a call with its defaults left out as the same call spelled out: one vendor call; a change is another', async () => {
    const { key, vendorKey } = await newOrg();
    const text = unique('Defaults left out');
    const before = await calls(vendorKey);

    const bare = await speak(key, '/v1/speak', {}, { text });
    expect(bare.status).toBe(200);
    const spelled = await speak(
      key,
      '/v1/speak',
      {
        mip_opt_out: 'false',
        speed: '1.0',
        bit_rate: '48000',
        sample_rate: '22050',
        container: 'none',
        encoding: 'mp3',
        model: V1_MODEL,
      },
      { text },
    );
    expect(spelled.bytes.equals(bare.bytes)).toBe(true);
    const linear = await speak(key, '/v1/speak', { encoding: 'linear16' }, { text });
    const linearSpelled = await speak(
      key,
      '/v1/speak',
      { encoding: 'linear16', container: 'wav', sample_rate: '24000' },
      { text },
    );
    expect(linearSpelled.bytes.equals(linear.bytes)).toBe(true);
    expect(await calls(vendorKey)).toBe(before + 2);

    await speak(key, '/v1/speak', { speed: '1.2' }, { text });
    await speak(key, '/v1/speak', {}, { text, extra: 'a field the router does not know' });
    expect(await calls(vendorKey)).toBe(before + 4);
  });

  it('forwards a call with a callback live every time, as the vendor answers it later', async () => {
    const { key, vendorKey } = await newOrg();
    const text = unique('Delivered to a callback');
    const before = await calls(vendorKey);
    const query = { model: V2_MODEL, callback: 'https://client.invalid/hook', callback_method: 'POST' };
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const answer = await speak(key, '/v2/speak', query, { text });
      expect(answer.status).toBe(202);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      const body = JSON.parse(answer.bytes.toString('utf8')) as Record<string, unknown>;
      expect(Object.keys(body)).toEqual(['request_id']);
      expect(body['request_id']).toMatch(UUID);
      ids.push(String(body['request_id']));
      expect(await calls(vendorKey)).toBe(before + i + 1);
    }
    expect(ids[1]).not.toBe(ids[0]);
  });

  it("passes a client's own session-id header and takes a chunked body with no length", async () => {
    const { key, vendorKey } = await newOrg();
    const text = unique('Sent in chunks');
    const before = await calls(vendorKey);
    const url = new URL(`${BASE}/v1/speak?encoding=linear16&container=none&sample_rate=16000`);
    const chunked = await new Promise<Answer>((resolve, reject) => {
      const req = httpRequest(
        url,
        {
          method: 'POST',
          headers: {
            authorization: `Token ${key}`,
            'content-type': 'application/json',
            'vendor_e-session-id': randomUUID(),
          },
        },
        (res) => {
          const parts: Buffer[] = [];
          res.on('data', (part: Buffer) => parts.push(part));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: new Headers(res.headers as Record<string, string>),
              bytes: Buffer.concat(parts),
            }),
          );
        },
      );
      req.on('error', reject);
      const body = JSON.stringify({ text });
      // No content-length: the body goes chunked, in three writes.
      for (const part of [body.slice(0, 3), body.slice(3, 10), body.slice(10)]) req.write(part);
      req.end();
    });
    expect(chunked.status).toBe(200);
    expect(chunked.bytes.equals(await lastTake(vendorKey, text, { codec: 'pcm', sampleRate: 16000 }))).toBe(
      true,
    );
    // Another session's id: the same call, from the cache.
    const again = await speak(
      key,
      '/v1/speak',
      { encoding: 'linear16', container: 'none', sample_rate: '16000' },
      { text },
      { 'vendor_e-session-id': randomUUID() },
    );
    expect(again.bytes.equals(chunked.bytes)).toBe(true);
    expect(await calls(vendorKey)).toBe(before + 1);
  });

  it('reads both model lists from the vendor every time, with no key needed by the vendor', async () => {
    const { key, vendorKey } = await newOrg();
    const reads = () => sim.readCount('vendor_e', { key: vendorKey });
    const before = await reads();
    for (let i = 0; i < 2; i++) {
      for (const [path, family] of [
        ['/v1/models', 'e_model_1'],
        ['/v2/models', 'e_model_3'],
      ] as const) {
        const answer = await fetch(`${BASE}${path}`, { headers: { authorization: `Token ${key}` } });
        expect(answer.status).toBe(200);
        const list = (await answer.json()) as { stt: unknown[]; tts: Array<{ architecture: string }> };
        expect(list.stt).toEqual([]);
        expect(list.tts.some((m) => m.architecture === family)).toBe(true);
      }
    }
    expect(await reads()).toBe(before + 4);
    expect(await calls(vendorKey)).toBe(0);
  });

  it("passes the vendor's refusals on as sent and stores none of them", async () => {
    const { key, vendorKey } = await newOrg();
    const text = unique('Refused, then said');
    const before = await calls(vendorKey);

    const v1OnV2 = await speak(key, '/v2/speak', { model: V1_MODEL }, { text });
    expect(v1OnV2.status).toBe(400);
    expect(json(v1OnV2)).toEqual({
      err_code: 'UNSUPPORTED_MODEL',
      err_msg: `Model ${V1_MODEL} is not available on /v2/speak`,
      request_id: expect.stringMatching(UUID),
    });
    const noModel = await speak(key, '/v2/speak', {}, { text });
    expect([noModel.status, json(noModel).err_code, json(noModel).err_msg]).toEqual([
      400,
      'INVALID_QUERY_PARAMETER',
      'model is required',
    ]);
    const empty = await speak(key, '/v1/speak', {}, { text: ' ' });
    expect([empty.status, json(empty).err_code]).toEqual([400, 'INVALID_TEXT']);

    const refused = await rateLimited(vendorKey, () => speak(key, '/v1/speak', {}, { text }));
    expect([refused.status, json(refused).err_code]).toEqual([429, 'TOO_MANY_REQUESTS']);

    await saidTwice(() => speak(key, '/v1/speak', {}, { text }));
    // The 429 and the one take that was stored: two calls, none for the refusals of the query or the body.
    expect(await calls(vendorKey)).toBe(before + 2);
  });

  it("answers a path vendor_e's mirror does not have with the vendor's 404", async () => {
    const { key } = await newOrg();
    for (const [method, path] of [
      ['GET', '/v1/speak'],
      ['POST', '/v3/speak'],
      ['POST', '/v1/models'],
      ['GET', '/v1/projects'],
      ['POST', '/v1/listen'],
    ] as const) {
      const answer = await fetch(`${BASE}${path}`, { method, headers: { authorization: `Token ${key}` } });
      expect([method, path, answer.status]).toEqual([method, path, 404]);
      expect(await answer.json()).toEqual({ err_code: 'NOT_FOUND', err_msg: 'Not Found', request_id: null });
    }
  });

  it('takes the key as Token or Bearer, and refuses a missing, wrong, bare or vendor-keyless key and a disabled org with 401 INVALID_AUTH', async () => {
    const { orgId, key } = await newOrg();
    const text = unique('Keyed two ways');
    expect((await speak(null, '/v1/speak', {}, { text }, { authorization: `Token ${key}` })).status).toBe(
      200,
    );
    expect((await speak(null, '/v1/speak', {}, { text }, { authorization: `Bearer ${key}` })).status).toBe(
      200,
    );

    const expectRefusal = (answer: Answer) => {
      expect(answer.status).toBe(401);
      const body = json(answer);
      expect(Object.keys(body).sort()).toEqual(['err_code', 'err_msg', 'request_id']);
      expect(body.err_code).toBe('INVALID_AUTH');
      expect(body.err_msg).toEqual(expect.any(String));
      expect(body.request_id).toMatch(UUID);
    };
    expectRefusal(await speak(null, '/v1/speak', {}, { text }));
    expectRefusal(await speak('rtr_not-a-key', '/v1/speak', {}, { text }));
    expectRefusal(await speak(null, '/v1/speak', {}, { text }, { authorization: key }));
    const noVendorKey = await speak(keylessOrg().key, '/v2/speak', { model: V2_MODEL }, { text });
    expectRefusal(noVendorKey);
    expect(json(noVendorKey).err_msg).toMatch(/dashboard/);

    await disableOrg(orgId, async () => (await speak(key, '/v1/speak', {}, { text })).status === 401);
    expectRefusal(await speak(key, '/v1/speak', {}, { text }));
  });

  it("refuses an org out of credit with 402 in the vendor's shape, code insufficient_credits", async () => {
    const { orgId, key, vendorKey } = await newOrg();
    const text = unique('Out of credit');
    await setCredit(orgId, 'out', async () => (await speak(key, '/v1/speak', {}, { text })).status === 402);
    const refused = await speak(key, '/v1/speak', {}, { text });
    expect(refused.status).toBe(402);
    expect(json(refused)).toEqual({
      err_code: 'insufficient_credits',
      err_msg: expect.stringMatching(/credit/i),
      request_id: expect.stringMatching(UUID),
    });
    expect(await calls(vendorKey)).toBe(0);
  });

  it("refuses a body nested past 32 levels or holding a number past a double with the vendor's 400", async () => {
    const { key, vendorKey } = await newOrg();
    for (const { raw, field } of [
      { raw: `{"text":"Hi.","x":${'['.repeat(4000)}${']'.repeat(4000)}}`, field: 'x' },
      { raw: `{"text":"Hi.","y":${'{"a":'.repeat(32)}1${'}'.repeat(32)}}`, field: 'y' },
      { raw: '{"text":"Hi.","z":1e400}', field: 'z' },
    ]) {
      const answer = await speak(key, '/v1/speak', {}, raw);
      expect(answer.status).toBe(400);
      expect(json(answer)).toEqual({
        err_code: 'INVALID_REQUEST_BODY',
        err_msg: expect.stringMatching(new RegExp(`^${field} (nests|holds)`)),
        request_id: expect.stringMatching(UUID),
      });
    }
    expect(await calls(vendorKey)).toBe(0);
  });
});
