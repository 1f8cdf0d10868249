import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createBlobStore } from '@router/blob-store';
import { type Bus, createBus } from '@router/bus';
import {
  addressedTo,
  RouterError,
  type SynthRequestTake,
  synthRequestV1,
  synthWorkerHeartbeatV1,
} from '@router/contracts';
import { createDatabase, type Database } from '@router/db';
import { createLogger } from '@router/observability';
import {
  createPipeline,
  type Pipeline,
  type RequestAnswer,
  RequestTakePlanner,
  StoredSettings,
} from '@router/pipeline';
import { createOrgWithVendorKey, readE2eStack, waitFor } from '@router/testing';
import { VendorCAdapter, vendorCMirror } from '@router/vendor-c';
import { createTake, SimControl } from '@router/vendor-sim';
import type { DropInRequest } from '@router/vendors-core';

const stack = readE2eStack();
const sim = new SimControl(stack.simUrl);
const VENDOR_C_BASE = `${stack.simUrl}/vendor_c`;
/** Stored vendor settings are re-read this often here, so a change at the vendor shows within the test. */
const STORED_REFRESH_MS = 500;
const SETTINGS = { stability: 0.5, similarity_boost: 0.5, speed: 1 };

/**
 * Whole-request takes (drop-in REST/SSE, spec "What is cached": same body again, same audio) through the
 * requester's side a mirror app uses (RequestTakePlanner, PieceResolver.resolveRequest) and the stack's two
 * synthesis workers, against the vendor simulator.
 */
describe('whole-request takes (e2e)', () => {
  let bus: Bus;
  let db: Database;
  let pg: Client;
  let pipeline: Pipeline;
  let planner: RequestTakePlanner;
  let workers: string[];
  const adapter = new VendorCAdapter({ baseUrl: VENDOR_C_BASE });
  const vendorKeys = new Map<string, string>();

  beforeAll(async () => {
    bus = createBus({
      kind: 'nats',
      url: stack.env['NATS_URL'],
      name: 'request-takes-test',
      prefix: stack.env['NATS_SUBJECT_PREFIX'],
    });
    const seen = new Set<string>();
    const heartbeats = bus.subscribe(synthWorkerHeartbeatV1, ({ workerId, serves }) => {
      if (serves?.includes(synthRequestV1.subject)) seen.add(workerId);
    });
    await waitFor('both workers serving request takes', async () => seen.size >= 2, 10_000, 50);
    heartbeats.unsubscribe();
    workers = [...seen];
    db = await createDatabase({ url: stack.databaseUrl, poolSize: 2 });
    pg = new Client({ connectionString: stack.databaseUrl });
    await pg.connect();
    const blobs = createBlobStore({
      kind: 's3',
      endpoint: stack.env['S3_ENDPOINT'],
      accessKey: stack.env['S3_ACCESS_KEY'],
      secretKey: stack.env['S3_SECRET_KEY'],
      bucket: stack.env['S3_BUCKET'],
    });
    pipeline = await createPipeline(
      { bus, blobs, sql: db.sql },
      {
        hotTierBytes: 1 << 20,
        hotTierTtlMs: 60_000,
        workerExpiryMs: 10_000,
        workerWaitMs: 2000,
        streamWindow: 16,
        cacheKeysReloadMs: 300_000,
        cacheReadTimeoutMs: 2000,
      },
      ['vendor_c'],
    );
    const storedSettings = new StoredSettings(
      {
        keys: { get: (orgId) => Promise.resolve(vendorKeys.get(orgId) ?? '') },
        upstream: () => adapter,
        logger: createLogger({ service: 'test', level: 'silent' }),
      },
      { refreshMs: STORED_REFRESH_MS, readTimeoutMs: 2000 },
    );
    planner = new RequestTakePlanner({ secret: randomBytes(32), storedSettings });
  });

  afterAll(async () => {
    pipeline.close();
    await bus.close();
    await pg.end();
    await db.close();
    await adapter.close();
  });

  /** An org with its own vendor_c key, so the simulator's counts are this test's alone. */
  async function newOrg(): Promise<{ orgId: string; vendorKey: string }> {
    const org = await createOrgWithVendorKey(stack, 'vendor_c', `request-takes-${randomUUID().slice(0, 8)}`);
    vendorKeys.set(org.orgId, org.vendorKey);
    return org;
  }

  async function firstVoice(vendorKey: string): Promise<string> {
    const answer = await fetch(`${VENDOR_C_BASE}/v1/voices`, { headers: { 'vendor_c-api-key': vendorKey } });
    const { voices } = (await answer.json()) as { voices: { voice_id: string }[] };
    const voice = voices[0]?.voice_id;
    if (!voice) throw new Error('the simulator lists no vendor_c voice');
    return voice;
  }

  function speech(
    voice: string,
    text: string,
    query = 'output_format=pcm_16000',
    settings: Record<string, unknown> = {},
  ): DropInRequest {
    return {
      method: 'POST',
      path: `/v1/text-to-speech/${voice}/stream`,
      query,
      headers: { 'content-type': 'application/json', accept: 'audio/*' },
      body: Buffer.from(JSON.stringify({ text, model_id: 'c_model_1', ...settings })),
    };
  }

  async function read(answer: RequestAnswer): Promise<Buffer> {
    const parts: Buffer[] = [];
    for await (const chunk of answer.chunks) parts.push(chunk);
    return Buffer.concat(parts);
  }

  async function resolve(
    orgId: string,
    request: DropInRequest,
  ): Promise<{ answer: RequestAnswer; body: Buffer }> {
    const take = await planner.plan(orgId, vendorCMirror, request, true);
    const answer = await pipeline.resolver.resolveRequest(take);
    return { answer, body: await read(answer) };
  }

  async function entries(orgId: string): Promise<{ status: number | null }[]> {
    const rows = await pg.query<{ head: { status: number } | null }>(
      'SELECT response_head AS head FROM cache_entries WHERE org_id = $1',
      [orgId],
    );
    return rows.rows.map((row) => ({ status: row.head?.status ?? null }));
  }

  it("answers with the vendor's bytes and headers, then the same request is a hit with no vendor call", async () => {
    const { orgId, vendorKey } = await newOrg();
    const voice = await firstVoice(vendorKey);
    const text = `A whole request ${randomUUID().slice(0, 8)}.`;
    const calls = await sim.callCount('vendor_c', { key: vendorKey });

    const first = await resolve(orgId, speech(voice, text, undefined, { voice_settings: SETTINGS }));
    expect(first.answer.cached).toBe(false);
    expect(first.answer.status).toBe(200);
    expect(first.answer.headers['content-type']).toBe('audio/pcm');
    expect(first.answer.headers['x-character-count']).toBe(String(text.length));
    // The simulator makes a take's bytes from its text, format, speed and random take id (in the audio and
    // its call log): the answer is that take, byte for byte.
    const [record] = await sim.calls('vendor_c', { key: vendorKey });
    const vendorBytes = createTake(
      text,
      { codec: 'pcm', sampleRate: 16000 },
      { takeId: record?.takeId, speed: 1 },
    ).bytes;
    expect(first.body.equals(vendorBytes)).toBe(true);
    expect(await sim.callCount('vendor_c', { key: vendorKey })).toBe(calls + 1);
    await waitFor('the commit', async () => (await entries(orgId)).length === 1, 5000, 50);

    // The same request with its fields in another order and the defaults spelled out: the same entry.
    const again = await resolve(orgId, {
      ...speech(voice, text, 'enable_logging=true&output_format=pcm_16000'),
      body: Buffer.from(
        JSON.stringify({
          voice_settings: { speed: 1, similarity_boost: 0.5, stability: 0.5 },
          apply_text_normalization: 'auto',
          model_id: 'c_model_1',
          text,
        }),
      ),
    });
    expect(again.answer.cached).toBe(true);
    expect(again.body.equals(first.body)).toBe(true);
    // The stored head is the live one without the wire's live-only headers (what the vendor billed).
    const { 'x-character-count': _billed, ...replayed } = first.answer.headers;
    expect(again.answer.headers).toEqual(replayed);
    expect(await sim.callCount('vendor_c', { key: vendorKey })).toBe(calls + 1);
    expect(await entries(orgId)).toEqual([{ status: 200 }]);

    // Another output format is another request.
    const other = await resolve(
      orgId,
      speech(voice, text, 'output_format=pcm_22050', { voice_settings: SETTINGS }),
    );
    expect(other.answer.cached).toBe(false);
    expect(await sim.callCount('vendor_c', { key: vendorKey })).toBe(calls + 2);
  });

  it("keys a request that relies on the voice's stored settings by them", async () => {
    const { orgId, vendorKey } = await newOrg();
    const voice = await firstVoice(vendorKey);
    const request = speech(voice, `Stored settings ${randomUUID().slice(0, 8)}.`);
    const calls = await sim.callCount('vendor_c', { key: vendorKey });
    expect((await resolve(orgId, request)).answer.cached).toBe(false);
    await waitFor('the commit', async () => (await entries(orgId)).length === 1, 5000, 50);
    expect((await resolve(orgId, request)).answer.cached).toBe(true);
    expect(await sim.callCount('vendor_c', { key: vendorKey })).toBe(calls + 1);

    await sim.setVendorCVoiceSettings(vendorKey, voice, { stability: 0.9, similarity_boost: 0.1 });
    await new Promise((resolve) => setTimeout(resolve, STORED_REFRESH_MS + 100));
    const changed = await resolve(orgId, request);
    expect(changed.answer.cached).toBe(false);
    expect(await sim.callCount('vendor_c', { key: vendorKey })).toBe(calls + 2);
  });

  it('makes one vendor call for ten identical requests at once, spread over both workers', async () => {
    const { orgId, vendorKey } = await newOrg();
    const voice = await firstVoice(vendorKey);
    const take = await planner.plan(
      orgId,
      vendorCMirror,
      speech(voice, `Ten at once ${randomUUID()}.`),
      true,
    );
    const calls = await sim.callCount('vendor_c', { key: vendorKey });
    const fault = await sim.injectFault({
      vendor: 'vendor_c',
      kind: 'stall',
      key: vendorKey,
      stallMs: 400,
      times: 'always',
    });
    try {
      const bodies = await Promise.all(
        Array.from({ length: 10 }, (_, i) => takeFrom(workers[i % workers.length] ?? '', take)),
      );
      for (const body of bodies) expect(body.equals(bodies[0] ?? Buffer.alloc(0))).toBe(true);
      expect(bodies[0]?.length).toBeGreaterThan(0);
      expect(await sim.callCount('vendor_c', { key: vendorKey })).toBe(calls + 1);
      expect(await entries(orgId)).toHaveLength(1);
    } finally {
      await sim.removeFault(fault.id);
    }
  });

  async function takeFrom(worker: string, take: SynthRequestTake): Promise<Buffer> {
    const stream = bus.requestStream(addressedTo(synthRequestV1, worker), take, { window: 16 });
    const parts: Buffer[] = [];
    for await (const chunk of stream) parts.push(Buffer.from(chunk));
    await stream.trailer();
    return Buffer.concat(parts);
  }

  it('passes a vendor refusal back as the vendor sent it and stores nothing', async () => {
    const { orgId, vendorKey } = await newOrg();
    const voice = await firstVoice(vendorKey);
    const request = speech(voice, `Refused ${randomUUID().slice(0, 8)}.`);
    const fault = await sim.injectFault({
      vendor: 'vendor_c',
      kind: 'error',
      key: vendorKey,
      status: 429,
      code: 'too_many_concurrent_requests',
      message: 'Slow down.',
    });
    const calls = await sim.callCount('vendor_c', { key: vendorKey });
    const refused = await resolve(orgId, request);
    expect(refused.answer.status).toBe(429);
    expect(refused.answer.cached).toBe(false);
    expect(refused.answer.headers['content-type']).toMatch(/json/);
    expect(refused.body.toString('utf8')).toContain('Slow down.');
    expect(await entries(orgId)).toEqual([]);
    await sim.removeFault(fault.id).catch(() => undefined);

    // Nothing was stored, so the same request reaches the vendor again.
    const retried = await resolve(orgId, request);
    expect(retried.answer.status).toBe(200);
    expect(retried.answer.cached).toBe(false);
    expect(await sim.callCount('vendor_c', { key: vendorKey })).toBe(calls + 2);
  });

  it("aborts the requester's body when the vendor cuts the answer, and stores nothing", async () => {
    const { orgId, vendorKey } = await newOrg();
    const voice = await firstVoice(vendorKey);
    const request = speech(voice, `Cut short, this sentence is long enough to be cut ${randomUUID()}.`);
    const fault = await sim.injectFault({ vendor: 'vendor_c', kind: 'cut', key: vendorKey, afterBytes: 512 });
    const cut = await resolve(orgId, request).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(cut).toBeInstanceOf(RouterError);
    expect((cut as RouterError).retryable).toBe(true);
    await sim.removeFault(fault.id).catch(() => undefined);
    expect(await entries(orgId)).toEqual([]);
    const calls = await sim.callCount('vendor_c', { key: vendorKey });
    const whole = await resolve(orgId, request);
    expect(whole.answer.cached).toBe(false);
    expect(whole.body.length).toBeGreaterThan(512);
    expect(await sim.callCount('vendor_c', { key: vendorKey })).toBe(calls + 1);
  });

  it('proxies a never-cached endpoint live each time', async () => {
    const { orgId, vendorKey } = await newOrg();
    const list: DropInRequest = {
      method: 'GET',
      path: '/v1/voices',
      query: '',
      headers: { accept: 'application/json' },
      body: Buffer.alloc(0),
    };
    const reads = await sim.readCount('vendor_c', { key: vendorKey });
    for (let i = 1; i <= 2; i++) {
      const listed = await resolve(orgId, list);
      expect(listed.answer.cached).toBe(false);
      expect(listed.answer.status).toBe(200);
      expect(JSON.parse(listed.body.toString('utf8'))).toHaveProperty('voices');
      expect(await sim.readCount('vendor_c', { key: vendorKey })).toBe(reads + i);
    }
    expect(await entries(orgId)).toEqual([]);
  });
});
