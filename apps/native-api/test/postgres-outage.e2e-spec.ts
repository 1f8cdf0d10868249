import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { RouterApiError, RouterConnectionError, type RouterClient, type SpeechRequest } from '@router/client';
import {
  createOrgClient,
  eventually,
  everySurface,
  type PrivatePostgres,
  REPO_ROOT,
  type RunningStack,
  startFaultStack,
  type Surface as SurfaceDriver,
  type SurfaceOrg,
} from '@router/testing';
import { SimControl } from '@router/vendor-sim';

/**
 * A PostgreSQL outage under load, on a stack with a PostgreSQL server of its own (never the shared one), so it
 * can be stopped and started again under the running apps. Sentences cached before the stop keep playing on
 * every surface (from the hot tier, and from the blob store without the index), keys and orgs are answered from
 * what the processes hold, misses are played and not stored, whatever cannot be served is the surface's
 * retryable 503, and nothing is a 500. The same holds when the database hangs instead (paused with SIGSTOP: it
 * accepts connections and answers nothing), since the pool's connect and query timeouts turn every wait into
 * the failure of a database that is down. Timings are shortened through configuration; nothing here asserts a
 * time.
 */
const TIMINGS = {
  // Short, so that the replies during the outage have to read the blob store, not only the hot tier.
  HOT_TIER_TTL_MS: '300',
  // Generous, for a loaded machine: a store that does not answer is not what this test is about.
  CACHE_READ_TIMEOUT_MS: '10000',
  // A lessee trusts its leases for half of this after its last beat: the outage outlasts that.
  SYNTH_LEASE_MS: '2000',
  SYNTH_HEARTBEAT_MS: '250',
  WORKER_EXPIRY_MS: '2000',
  NATS_RECONNECT_DELAY_MS: '100',
  // Short, so that a hang is noticed within the load; long enough for a loaded machine's ordinary statements.
  DATABASE_CONNECT_TIMEOUT_MS: '2000',
  DATABASE_QUERY_TIMEOUT_MS: '2000',
};
/** How long the load runs with the database stopped (a duration of the test's, not a bound on the router). */
const OUTAGE_LOAD_MS = 6000;
const CLIENTS = 6;

let pg: PrivatePostgres;
let stack: RunningStack;
let sim: SimControl;
let stopAll: () => Promise<void>;

beforeAll(async () => {
  const logDir = join(REPO_ROOT, 'tmp', 'e2e', 'postgres-outage');
  mkdirSync(logDir, { recursive: true });
  const started = await startFaultStack({
    label: 'pg_outage',
    logDir,
    bucket: 'router-pg-outage',
    env: TIMINGS,
    privatePostgres: true,
  });
  if (!started.pg) throw new Error('the fault stack started without its own PostgreSQL');
  ({ pg, stack, stop: stopAll } = started);
  sim = new SimControl(stack.simUrl);
}, 600_000);

afterAll(async () => {
  await stopAll?.();
}, 60_000);

const unique = (what: string): string => `The ${what} sentence ${randomUUID().slice(0, 8)} is here.`;
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** What one request came to: its audio, or its status and error code (null status: the body was cut). */
type Outcome = { ok: true; audio: Buffer } | { ok: false; status: number | null; code: string | null };

const SPEECH = {
  model: 'vendor_a/a_model_1',
  voice: 'aarila',
  language: 'en-IN',
  response_format: 'pcm',
  sample_rate: 16000,
} as const;

async function speak(client: RouterClient, input: string): Promise<Outcome> {
  try {
    const body: SpeechRequest = { ...SPEECH, input };
    return { ok: true, audio: Buffer.from(await (await client.speech(body)).bytes()) };
  } catch (error) {
    if (error instanceof RouterApiError)
      return { ok: false, status: error.httpStatus ?? null, code: error.code };
    if (error instanceof RouterConnectionError) return { ok: false, status: null, code: 'aborted' };
    throw error;
  }
}

/** One sentence said on a new /v1/stream: its audio, or the sentence's (or the handshake's) error. */
async function sayOnStream(client: RouterClient, text: string): Promise<Outcome> {
  let session;
  try {
    session = await client.stream({ ...SPEECH, options: {} });
  } catch (error) {
    if (error instanceof RouterApiError)
      return { ok: false, status: error.httpStatus ?? null, code: error.code };
    throw error;
  }
  const sentences = session.sentences();
  session.send(text);
  const closing = session.close();
  let outcome: Outcome = { ok: false, status: null, code: 'no sentence' };
  try {
    for (let next = await sentences.next(); !next.done; next = await sentences.next()) {
      outcome = { ok: true, audio: Buffer.from(await next.value.bytes()) };
    }
  } catch (error) {
    outcome = {
      ok: false,
      status: null,
      code: error instanceof RouterApiError ? error.code : 'stream failed',
    };
  }
  await closing.catch(() => undefined);
  return outcome;
}

/** A mirror's REST request through the gateway, the router key where that vendor's clients put theirs. */
interface MirrorCall {
  path: string;
  headers: (key: string) => Record<string, string>;
  body: (text: string) => unknown;
}

const MIRRORS: Record<'vendor_c' | 'vendor_d', MirrorCall> = {
  vendor_d: {
    path: '/v1/audio/speech',
    headers: (key) => ({ authorization: `Bearer ${key}` }),
    body: (input) => ({ model: 'd_model_3', voice: 'brook', input, response_format: 'wav' }),
  },
  vendor_c: {
    path: '/v1/text-to-speech/{voice}?output_format=pcm_16000',
    headers: (key) => ({ 'vendor_c-api-key': key }),
    body: (text) => ({
      text,
      model_id: 'c_model_1',
      voice_settings: { stability: 0.5, similarity_boost: 0.75 },
    }),
  },
};

async function onMirror(
  vendor: keyof typeof MIRRORS,
  key: string,
  text: string,
  voice: string,
): Promise<Outcome> {
  const call = MIRRORS[vendor];
  const answer = await fetch(`${stack.gatewayUrl}/${vendor}${call.path.replace('{voice}', voice)}`, {
    method: 'POST',
    headers: { ...call.headers(key), 'content-type': 'application/json' },
    body: JSON.stringify(call.body(text)),
  });
  let audio: Buffer;
  try {
    audio = Buffer.from(await answer.arrayBuffer());
  } catch {
    return { ok: false, status: null, code: 'aborted' };
  }
  if (answer.status === 200) return { ok: true, audio };
  return { ok: false, status: answer.status, code: audio.toString('utf8').slice(0, 200) };
}

/** A sentence on a mirror's socket (everySurface's driver): its audio, or the error frames it ended with. */
async function onMirrorSocket(driver: SurfaceDriver, org: SurfaceOrg, text: string): Promise<Outcome> {
  const said = await driver.say(org, text);
  if (said.end === 'clean') return { ok: true, audio: said.audio };
  return { ok: false, status: null, code: said.message ?? said.end };
}

interface Surface {
  name: string;
  say(text: string): Promise<Outcome>;
}

/** How the load went while the database was down or hanging. */
interface LoadFigures {
  during: { hits: number; hitsPlayed: number; misses: number; missesPlayed: number; unavailable: number };
  statuses: Map<string, number>;
  wrong: string[];
}

/**
 * A miss refused during the outage in the surface's retryable shape: 503 (native, and the mirrors' REST), the
 * router's `unavailable`, or vendor_c's socket error for a retryable failure (`system_busy`).
 */
function refusedAsUnavailable(outcome: Outcome): boolean {
  if (outcome.ok) return false;
  return outcome.status === 503 || outcome.code === 'unavailable' || /system_busy/.test(outcome.code ?? '');
}

describe('a PostgreSQL outage under load (e2e, own PostgreSQL)', () => {
  // One org for every surface: its router key and a vendor key of its own for vendor_a, vendor_c and vendor_d.
  let org: ReturnType<typeof createOrgClient>;
  const vendorKeys: Record<string, string> = {};
  let surfaces: Surface[];

  beforeAll(async () => {
    org = createOrgClient(stack, `pg-outage-${randomUUID().slice(0, 8)}`);
    for (const vendor of ['vendor_a', 'vendor_c', 'vendor_d'] as const) {
      vendorKeys[vendor] = `vk-pg-outage-${vendor}-${randomUUID()}`;
      await org.client.providerKeys.put(vendor, vendorKeys[vendor]);
    }
    const voices = await fetch(`${stack.gatewayUrl}/vendor_c/v1/voices`, {
      headers: { 'vendor_c-api-key': org.key },
    });
    const listed = (await voices.json()) as { voices: Array<{ voice_id: string }> };
    const voiceC = listed.voices[0]?.voice_id ?? '';
    expect(voiceC).not.toBe('');
    const socketC = everySurface(stack).find((s) => s.vendor === 'vendor_c' && s.kind === 'mirror-socket');
    if (!socketC) throw new Error('no vendor_c mirror socket among the surfaces');

    surfaces = [
      { name: 'POST /v1/audio/speech', say: (text) => speak(org.client, text) },
      { name: '/v1/stream', say: (text) => sayOnStream(org.client, text) },
      { name: 'vendor_d mirror REST', say: (text) => onMirror('vendor_d', org.key, text, '') },
      { name: 'vendor_c mirror REST', say: (text) => onMirror('vendor_c', org.key, text, voiceC) },
      {
        name: `vendor_c mirror ${socketC.name}`,
        say: (text) => onMirrorSocket(socketC, { ...org, vendorKey: vendorKeys['vendor_c'] ?? '' }, text),
      },
    ];
  }, 60_000);

  /** Each surface's sentence, said once (a vendor call) and again (a hit): the bytes every later hit must be. */
  async function cacheOnEverySurface(): Promise<Map<string, { text: string; audio: Buffer }>> {
    const cached = new Map<string, { text: string; audio: Buffer }>();
    for (const surface of surfaces) {
      const text = unique(`cached ${surface.name}`);
      const first = await surface.say(text);
      if (!first.ok) throw new Error(`${surface.name} failed before the outage: ${JSON.stringify(first)}`);
      const again = await surface.say(text);
      expect(again.ok && again.audio.equals(first.audio)).toBe(true);
      cached.set(surface.name, { text, audio: first.audio });
    }
    await pause(500); // past the hot tier's TTL: the first replies during the outage read the blob store
    return cached;
  }

  /**
   * Each client alternates a cached sentence and a new one, going round the surfaces, for the load's time and at
   * least four requests (a loaded machine may take seconds for each).
   */
  async function loadThrough(cached: Map<string, { text: string; audio: Buffer }>): Promise<LoadFigures> {
    const figures: LoadFigures = {
      during: { hits: 0, hitsPlayed: 0, misses: 0, missesPlayed: 0, unavailable: 0 },
      statuses: new Map(),
      wrong: [],
    };
    const { during, statuses, wrong } = figures;
    const note = (surface: Surface, hit: boolean, outcome: Outcome): void => {
      const status = outcome.ok ? '200' : String(outcome.status ?? outcome.code);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (hit) {
        during.hits += 1;
        const expected = cached.get(surface.name)?.audio;
        if (outcome.ok && expected && outcome.audio.equals(expected)) during.hitsPlayed += 1;
        else wrong.push(`${surface.name} hit: ${outcome.ok ? 'other bytes' : JSON.stringify(outcome)}`);
        return;
      }
      during.misses += 1;
      if (outcome.ok) during.missesPlayed += 1;
      // A miss may be played (not stored) or refused as retryable; never the router's 500.
      else if (refusedAsUnavailable(outcome)) during.unavailable += 1;
      else wrong.push(`${surface.name} miss: ${JSON.stringify(outcome)}`);
    };
    const until = Date.now() + OUTAGE_LOAD_MS;
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        for (let turn = 0; turn < 4 || Date.now() < until; turn++) {
          const surface = surfaces[(client + Math.floor(turn / 2)) % surfaces.length];
          if (!surface) break;
          const hit = (client + turn) % 2 === 0;
          const text = hit ? (cached.get(surface.name)?.text ?? '') : unique(`outage ${client} ${turn}`);
          note(surface, hit, await surface.say(text));
        }
      }),
    );
    return figures;
  }

  /**
   * The whole check, around one way for the database to fail: cached sentences play on every surface during it,
   * misses go on (played, not stored) or are refused as retryable, nothing is a 500; once it ends, the router
   * stores again without a restart, and the take made during it was not stored.
   */
  async function servesThrough(fault: { name: string; begin(): Promise<void>; end(): Promise<void> }) {
    const cached = await cacheOnEverySurface();
    await fault.begin();
    let fresh = '';
    try {
      const { during, statuses, wrong } = await loadThrough(cached);
      // The figures of the run, for the report (and for a reader of a failure).
      console.log(
        `while ${fault.name}: ${JSON.stringify(during)}, statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
      );
      expect(wrong).toEqual([]);
      expect(statuses.has('500')).toBe(false);
      expect(during.hits).toBeGreaterThan(0);
      expect(during.hitsPlayed).toBe(during.hits);
      expect(during.misses).toBeGreaterThan(0);
      // Every surface played its cached sentence during the outage.
      for (const surface of surfaces) {
        const replay = await surface.say(cached.get(surface.name)?.text ?? '');
        expect({
          surface: surface.name,
          played: replay.ok && replay.audio.equals(cached.get(surface.name)?.audio ?? Buffer.alloc(0)),
        }).toEqual({ surface: surface.name, played: true });
      }
      // Misses went on: a sentence never said before is played (and not stored). Its key goes to one of the two
      // workers, and a worker that never opened the org's vendor key has none to use (503): new sentences are
      // tried until one reaches the worker that holds it (each has even odds).
      for (let tries = 0; tries < 20 && fresh === ''; tries++) {
        const text = unique('fresh in the outage');
        const said = await speak(org.client, text);
        if (said.ok) fresh = text;
        else expect(said).toMatchObject({ status: 503, code: 'unavailable' });
      }
      expect(fresh).not.toBe('');
    } finally {
      await fault.end();
    }

    // Back without a restart of any app: a new sentence is played and stored (said again, no vendor call).
    const after = unique('after the outage');
    await eventually(
      'a sentence said after the outage is stored again',
      async () => {
        const said = await speak(org.client, after);
        if (!said.ok) return false;
        const calls = await sim.callCount('vendor_a', { key: vendorKeys['vendor_a'] ?? '' });
        const again = await speak(org.client, after);
        return again.ok && (await sim.callCount('vendor_a', { key: vendorKeys['vendor_a'] ?? '' })) === calls;
      },
      30_000,
    );
    // A take made during the outage was played and not stored: said again, it is a vendor call.
    const before = await sim.callCount('vendor_a', { key: vendorKeys['vendor_a'] ?? '' });
    expect((await speak(org.client, fresh)).ok).toBe(true);
    expect(await sim.callCount('vendor_a', { key: vendorKeys['vendor_a'] ?? '' })).toBe(before + 1);
  }

  it('stopped: keeps cached sentences playing on every surface, answers nothing with a 500, and recovers without a restart', async () => {
    await servesThrough({ name: 'stopped', begin: () => pg.stop(), end: () => pg.restart() });
  }, 300_000);

  it('hanging (paused, accepting connections and answering nothing): the same, within the configured timeouts', async () => {
    await servesThrough({
      name: 'hanging',
      begin: async () => pg.pause(),
      end: async () => pg.resume(),
    });
  }, 300_000);
});
