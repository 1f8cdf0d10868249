import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { type Bus, createBus } from '@router/bus';
import {
  addressedTo,
  KEY_SHARDS,
  synthTakeV1,
  type SynthTakeRequest,
  synthWorkerHeartbeatV1,
} from '@router/contracts';
import { call, createOrgWithKey, readE2eStack, waitFor } from '@router/testing';
import { SimControl } from '@router/vendor-sim';

const stack = readE2eStack();
const sim = new SimControl(stack.simUrl);

/**
 * A cache key has one take, whichever worker is asked and whenever. A requester's view of the workers can
 * differ from another's (a worker joining or leaving, heartbeats late under load), and its index lookup can
 * miss a commit that lands right after it; both end with a request for a key at a worker that is not the one
 * which made (or is making) its take. These tests send such requests straight to the stack's two workers.
 */
describe('one take per cache key, across workers (e2e)', () => {
  let bus: Bus;
  let db: Client;
  let workers: string[];
  let org: { orgId: string; key: string };
  let vendorKey: string;

  beforeAll(async () => {
    org = createOrgWithKey(stack.adminUrl, `one-take-${randomUUID().slice(0, 8)}`);
    vendorKey = `vk-one-take-${randomUUID()}`;
    const put = await call(stack.gatewayUrl, 'PUT', '/v1/provider-keys/vendor_a', {
      key: org.key,
      body: { api_key: vendorKey },
    });
    expect(put.status).toBe(200);
    bus = createBus({
      kind: 'nats',
      url: stack.env['NATS_URL'],
      name: 'one-take-test',
      prefix: stack.env['NATS_SUBJECT_PREFIX'],
    });
    const seen = new Set<string>();
    const heartbeats = bus.subscribe(synthWorkerHeartbeatV1, ({ workerId }) => void seen.add(workerId));
    await waitFor('both workers', async () => seen.size >= 2, 10_000, 50);
    heartbeats.unsubscribe();
    workers = [...seen];
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
  });

  afterAll(async () => {
    await bus.close();
    await db.end();
  });

  function request(cacheKey: string): SynthTakeRequest {
    return {
      orgId: org.orgId,
      cacheKey,
      cache: true,
      text: `One take only ${randomUUID().slice(0, 8)}.`,
      settings: {
        vendor: 'vendor_a',
        model: 'a_model_1',
        voice: 'aarila',
        language: 'en-IN',
        speed: 1,
        sampleRate: 16000,
        format: 'pcm',
        options: {},
      },
    };
  }

  async function take(worker: string, req: SynthTakeRequest): Promise<{ audio: Buffer; cached: boolean }> {
    const stream = bus.requestStream(addressedTo(synthTakeV1, worker), req, { window: 16 });
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(Buffer.from(chunk));
    return { audio: Buffer.concat(chunks), cached: (await stream.trailer()).cached };
  }

  async function committedObjects(cacheKey: string): Promise<string[]> {
    const rows = await db.query<{ name: string }>(
      'SELECT object_name AS name FROM cache_entries WHERE org_id = $1 AND cache_key = $2',
      [org.orgId, cacheKey],
    );
    return rows.rows.map((r) => r.name);
  }

  it('the workers lease the key shards between them; a key sent to its lessee is claimed with no claim row', async () => {
    const leased = async (): Promise<Array<{ shard: number; worker: string }>> =>
      (await db.query('SELECT shard, worker_id AS worker FROM take_leases WHERE worker_id IS NOT NULL')).rows;
    await waitFor(
      'every shard leased, by both workers',
      async () => {
        const rows = await leased();
        return rows.length === KEY_SHARDS && new Set(rows.map((r) => r.worker)).size === 2;
      },
      30_000,
      100,
    );
    const [{ shard, worker: lessee }] = await leased();
    const cacheKey = shard.toString(16).padStart(2, '0') + randomBytes(31).toString('hex');
    const req = request(cacheKey);
    const first = await take(lessee, req);
    expect(first.cached).toBe(true);
    expect(await committedObjects(cacheKey)).toHaveLength(1);
    const claims = await db.query('SELECT 1 FROM take_claims WHERE cache_key = $1', [cacheKey]);
    expect(claims.rows).toEqual([]);
    // The other worker, asked for it, replays that take.
    const second = await take(workers.find((w) => w !== lessee) ?? '', req);
    expect(second.audio.equals(first.audio)).toBe(true);
  });

  it('a key committed by one worker is replayed, not synthesized again, by the other', async () => {
    const cacheKey = randomBytes(32).toString('hex');
    const req = request(cacheKey);
    const calls = await sim.callCount('vendor_a', { key: vendorKey });
    const first = await take(workers[0], req);
    expect(first.cached).toBe(true);
    const [committed] = await committedObjects(cacheKey);
    // The requester's lookup missed just before the commit; its directory sends the key to the other worker.
    const second = await take(workers[1], req);
    expect(second.audio.equals(first.audio)).toBe(true);
    expect(await sim.callCount('vendor_a', { key: vendorKey })).toBe(calls + 1);
    expect(await committedObjects(cacheKey)).toEqual([committed]);
  });

  it('the same key asked of both workers at once makes one vendor call and one take', async () => {
    const cacheKey = randomBytes(32).toString('hex');
    const req = request(cacheKey);
    const calls = await sim.callCount('vendor_a', { key: vendorKey });
    // The vendor takes a moment, so both requests are in flight together.
    const fault = await sim.injectFault({
      vendor: 'vendor_a',
      kind: 'stall',
      key: vendorKey,
      stallMs: 400,
      times: 'always',
    });
    try {
      const [a, b] = await Promise.all([take(workers[0], req), take(workers[1], req)]);
      expect(b.audio.equals(a.audio)).toBe(true);
      expect(await sim.callCount('vendor_a', { key: vendorKey })).toBe(calls + 1);
      const committed = await committedObjects(cacheKey);
      expect(committed).toHaveLength(1);
      // A third request, to either worker, is that same take.
      const again = await take(workers[1], req);
      expect(again.audio.equals(a.audio)).toBe(true);
    } finally {
      await sim.removeFault(fault.id);
    }
  });
});
