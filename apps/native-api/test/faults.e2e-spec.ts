import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { RouterApiError, RouterConnectionError, type RouterClient, type SpeechRequest } from '@router/client';
import {
  createOrgClient,
  type PrivateNats,
  type PrivateS3,
  REPO_ROOT,
  type RunningStack,
  startFaultStack,
} from '@router/testing';
import { SimControl } from '@router/vendor-sim';

/**
 * The faults of a distributed deployment, each against its own stack (every app its own process, two
 * workers) on a NATS server and an S3 emulator of this file's own, so they can be stopped and started again
 * without touching the services other tests use. Timings are shortened through configuration.
 */
const TIMINGS = {
  HOT_TIER_TTL_MS: '300',
  // The default: a live worker's first frame is due within twice this, which a loaded machine must meet too.
  NATS_STREAM_LIVENESS_MS: '1500',
  NATS_RECONNECT_DELAY_MS: '100',
  WORKER_WAIT_MS: '1500',
  CACHE_READ_TIMEOUT_MS: '1000',
  SYNTH_HEARTBEAT_MS: '250',
  WORKER_EXPIRY_MS: '2000',
  SYNTH_FIRST_AUDIO_TIMEOUT_MS: '10000',
  S3_IDLE_TIMEOUT_MS: '2000',
};

let nats: PrivateNats;
let s3: PrivateS3;
let stack: RunningStack;
let sim: SimControl;
let stopAll: () => Promise<void>;

beforeAll(async () => {
  const logDir = join(REPO_ROOT, 'tmp', 'e2e', 'faults');
  mkdirSync(logDir, { recursive: true });
  ({
    nats,
    s3,
    stack,
    stop: stopAll,
  } = await startFaultStack({
    label: 'faults',
    logDir,
    bucket: 'router-faults',
    env: TIMINGS,
  }));
  sim = new SimControl(stack.simUrl);
}, 120_000);

afterAll(async () => {
  await stopAll?.();
}, 60_000);

const sentence = (what: string): string => `The ${what} sentence ${randomUUID().slice(0, 8)} is here.`;

async function orgWithVendorKey(name: string): Promise<{ client: RouterClient; vendorKey: string }> {
  const org = createOrgClient(stack, name);
  const vendorKey = `vk-${name}-${randomUUID()}`;
  await org.client.providerKeys.put('vendor_a', vendorKey);
  return { client: org.client, vendorKey };
}

const body = (input: string): SpeechRequest => ({
  model: 'vendor_a/a_model_1',
  voice: 'aarila',
  language: 'en-IN',
  response_format: 'pcm',
  sample_rate: 16000,
  input,
});

type Spoken =
  | { ok: true; audio: Buffer; ms: number }
  | { ok: false; status: number | null; code: string | null; retryable: boolean | null; ms: number };

async function speak(client: RouterClient, input: string): Promise<Spoken> {
  const started = Date.now();
  try {
    const audio = Buffer.from(await (await client.speech(body(input))).bytes());
    return { ok: true, audio, ms: Date.now() - started };
  } catch (error) {
    if (error instanceof RouterApiError) {
      return {
        ok: false,
        status: error.httpStatus ?? null,
        code: error.body?.code ?? null,
        retryable: error.body?.retryable ?? null,
        ms: Date.now() - started,
      };
    }
    if (error instanceof RouterConnectionError) {
      return { ok: false, status: null, code: 'aborted', retryable: null, ms: Date.now() - started };
    }
    throw error;
  }
}

async function metric(app: 'native-api', name: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${stack.ports[app]}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith(name))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('faults of a distributed deployment (e2e, own NATS and S3)', () => {
  afterEach(async () => {
    await sim.reset();
    if (!nats.running) await nats.restart();
    if (!s3.running) await s3.restart();
  });

  it('with the S3 store stopped, a sentence cached earlier is synthesized afresh rather than failed, and counted', async () => {
    const { client } = await orgWithVendorKey('faults-s3');
    const input = sentence('stored');
    const first = await speak(client, input);
    expect(first.ok).toBe(true);
    await pause(500); // past the hot tier's TTL: the next reply must read the blob store
    const before = await metric('native-api', 'router_cache_unreadable_total');
    await s3.stop();
    const during = await speak(client, input);
    expect(during).toMatchObject({ ok: true });
    expect(await metric('native-api', 'router_cache_unreadable_total')).toBeGreaterThan(before);

    await s3.restart();
    await pause(500);
    // The committed take is untouched by the outage: once the store is back, replays are that take again.
    const after = await speak(client, input);
    expect(after.ok && first.ok && after.audio.equals(first.audio)).toBe(true);
  });

  it('with the S3 store hanging, replies still end: a cached sentence afresh, a new one played and not cached', async () => {
    const { client, vendorKey } = await orgWithVendorKey('faults-s3-hang');
    const cached = sentence('stored');
    const first = await speak(client, cached);
    expect(first.ok).toBe(true);
    await pause(500); // past the hot tier's TTL: the next reply must read the blob store
    const fresh = sentence('new');
    s3.pause();
    try {
      // Without a bound on S3's requests the new take's PUT, and the reply's end behind it, waited for good.
      const during = [await speak(client, cached), await speak(client, fresh)];
      expect(during.map((said) => said.ok)).toEqual([true, true]);
    } finally {
      s3.resume();
    }
    // The take made during the hang was not cached: said again, it is a vendor call.
    const calls = await sim.callCount('vendor_a', { key: vendorKey });
    expect((await speak(client, fresh)).ok).toBe(true);
    expect(await sim.callCount('vendor_a', { key: vendorKey })).toBe(calls + 1);
    // The committed take is untouched: replays are that take again.
    const after = await speak(client, cached);
    expect(after.ok && first.ok && after.audio.equals(first.audio)).toBe(true);
  }, 120_000);

  it('with NATS stopped, an uncached sentence fails soon with a retryable error, a cached one still plays, and NATS back brings synthesis back', async () => {
    const { client } = await orgWithVendorKey('faults-nats');
    const cached = sentence('cached');
    const first = await speak(client, cached);
    expect(first.ok).toBe(true);
    await pause(500); // out of the hot tier: served from the index and the blob store

    await nats.stop();
    const uncached = await speak(client, sentence('uncached'));
    expect(uncached).toMatchObject({ ok: false, status: 503, code: 'unavailable', retryable: true });
    // WORKER_WAIT_MS (1.5 s) plus the liveness interval at most, far from the old 15-30 s.
    expect(uncached.ms).toBeLessThan(5000);
    const replay = await speak(client, cached);
    expect(replay.ok && first.ok && replay.audio.equals(first.audio)).toBe(true);

    await nats.restart();
    const back = Date.now();
    let recovered: Spoken | undefined;
    while (Date.now() - back < 15_000) {
      recovered = await speak(client, sentence('after'));
      if (recovered.ok) break;
      await pause(50);
    }
    expect(recovered?.ok).toBe(true);
    // Reconnects are tried every 100 ms here and workers announce themselves at once on reconnect.
    expect(Date.now() - back).toBeLessThan(4000);
  });

  it('a worker killed while takes wait for the vendor: every request still gets its audio, on the other worker', async () => {
    const { client } = await orgWithVendorKey('faults-kill');
    await sim.setPacing('vendor_a', { ttfaMs: 1500 });
    const inputs = Array.from({ length: 8 }, (_, i) => sentence(`killed-${i}`));
    const replies = inputs.map((input) => speak(client, input));
    await pause(700);
    await stack.kill('synthesis-worker');
    const results = await Promise.all(replies);
    // A failed one shows what it got.
    expect(results.map((r) => r.ok || r)).toEqual(inputs.map(() => true));
    // None waited for a 30 s timeout: the ones on the killed worker were tried again after the liveness interval.
    expect(Math.max(...results.map((r) => r.ms))).toBeLessThan(10_000);

    // New requests go to the live worker straight away: no error while the killed one is still announced.
    await sim.setPacing('vendor_a', { ttfaMs: 5 });
    const next = await Promise.all(inputs.map(() => speak(client, sentence('next'))));
    expect(next.every((r) => r.ok)).toBe(true);
    await stack.restart('synthesis-worker');
  });

  it('a worker killed mid-audio ends the reply at once with an aborted body, not a 30 s stall', async () => {
    const { client } = await orgWithVendorKey('faults-cut');
    // Half-speed pacing: a sentence's audio takes a few seconds to arrive.
    await sim.setPacing('vendor_a', { ttfaMs: 5, factor: 2, chunkMs: 100 });
    const inputs = Array.from({ length: 12 }, (_, i) => sentence(`cut-${i}`));
    const first: Array<Promise<void>> = [];
    let killedAt = 0;
    const replies = inputs.map(async (input) => {
      const audio = await client.speech(body(input));
      let bytes = 0;
      let heard!: () => void;
      first.push(new Promise<void>((resolve) => (heard = resolve)));
      try {
        for await (const chunk of audio) {
          bytes += chunk.length;
          heard();
        }
        return { aborted: false, bytes, ms: Date.now() - killedAt };
      } catch (error) {
        expect(error).toBeInstanceOf(RouterConnectionError);
        return { aborted: true, bytes, ms: Date.now() - killedAt };
      }
    });
    // Every reply has its first audio, none its last: the killed worker has takes mid-audio.
    while (first.length < inputs.length) await pause(20);
    await Promise.all(first);
    killedAt = Date.now();
    await stack.kill('synthesis-worker');
    const results = await Promise.all(replies);
    const cut = results.filter((r) => r.aborted);
    // Twelve keys over two workers: the killed one had some (rendezvous hashing spreads them; all twelve on
    // one worker has odds of 1 in 2048).
    expect(cut.length).toBeGreaterThan(0);
    for (const r of cut) {
      expect(r.bytes).toBeGreaterThan(0);
      // The liveness interval (1.5 s) after the kill, with room for a loaded machine; not a 30 s stall.
      expect(r.ms).toBeLessThan(6000);
    }
    await stack.restart('synthesis-worker');
  });
});
