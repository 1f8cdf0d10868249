import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  createOrgWithVendorKey,
  createScratchDatabase,
  everySurface,
  migrateScratchDatabase,
  REPO_ROOT,
  type RunningStack,
  type ScratchDatabase,
  servicesEnv,
  startStack,
  type Surface,
  type SurfaceKind,
  type SurfaceOutcome,
} from '@router/testing';
import { type InjectFault, SimControl } from '@router/vendor-sim';

/**
 * Vendor faults on every surface, in one table: for every vendor and every way in (native HTTP, `/v1/stream`,
 * and each mirror's REST, SSE and socket), each fault the simulators inject ends in that surface's documented
 * error (docs/architecture.md, "When a vendor fails"), nothing of the broken answer is stored, and the next
 * identical request reaches the vendor again, whole, and is then replayed from the cache.
 *
 * One stack of its own, with short bounds set through configuration: a take with no audio for 1.5 s, or not
 * over after 3 s, fails with `provider_timeout` (a trickle of 300 ms a piece needs about 9 s).
 */
const TIMINGS = {
  SYNTH_FIRST_AUDIO_TIMEOUT_MS: '1500',
  SYNTH_TAKE_TIMEOUT_MS: '3000',
};
/** The audio a mid-stream fault lets through first (the body's bytes for one-shot JSON answers). */
const AFTER = 2000;

interface Fault {
  readonly name: string;
  readonly inject: Omit<InjectFault, 'vendor' | 'key' | 'textIncludes'>;
}

const FAULTS: readonly Fault[] = [
  { name: '400', inject: { kind: 'error', status: 400 } },
  { name: '401', inject: { kind: 'error', status: 401 } },
  { name: '429', inject: { kind: 'error', status: 429 } },
  { name: '500', inject: { kind: 'error', status: 500 } },
  { name: '503', inject: { kind: 'error', status: 503 } },
  { name: 'stall before audio', inject: { kind: 'stall', stallMs: null } },
  { name: 'stall mid-stream', inject: { kind: 'stall', stallMs: null, afterBytes: AFTER } },
  { name: 'cut', inject: { kind: 'cut', afterBytes: AFTER } },
  { name: 'garbage', inject: { kind: 'garbage', afterBytes: AFTER } },
  { name: 'trickle', inject: { kind: 'trickle', afterBytes: AFTER, trickleMs: 300 } },
  { name: 'end', inject: { kind: 'end', afterBytes: AFTER } },
];

const NATIVE_CODES: Readonly<Record<number, [number, string]>> = {
  400: [400, 'provider_rejected'],
  401: [400, 'provider_rejected'],
  429: [429, 'provider_rate_limited'],
  500: [502, 'provider_unavailable'],
  503: [502, 'provider_unavailable'],
};

/**
 * What each surface's documentation says a fault ends in, as the summary `seen` writes: native HTTP answers the
 * envelope before audio and aborts the body after it; `/v1/stream` sends an `error` for the sentence (after its
 * audio where some was sent); a mirror's REST and SSE pass the vendor's refusal and the answer it sent as they
 * came (a clean end included) and answer the router's own failures in the vendor's shape (504 for a timeout);
 * a mirror's socket sends the vendor's error message for the sentence.
 */
function expected(kind: SurfaceKind, fault: Fault): string {
  const { inject } = fault;
  const before = inject.afterBytes === undefined;
  const timeout = inject.kind === 'stall' || inject.kind === 'trickle';
  switch (kind) {
    case 'native': {
      if (inject.kind === 'error') return `refused ${NATIVE_CODES[inject.status ?? 500]?.join(' ')}`;
      return before ? 'refused 504 provider_timeout' : 'broken';
    }
    case 'stream': {
      if (inject.kind === 'error') return `refused ${NATIVE_CODES[inject.status ?? 500]?.[1]}`;
      return `${before ? 'refused' : 'broken'} ${timeout ? 'provider_timeout' : 'provider_unavailable'}`;
    }
    case 'mirror-http': {
      if (inject.kind === 'error') return `refused ${inject.status}`;
      if (before) return 'refused 504';
      return inject.kind === 'garbage' || inject.kind === 'end' ? 'clean 200' : 'broken';
    }
    case 'mirror-socket':
      return 'error';
  }
}

/** An outcome as `expected` writes it: how it ended, then the status and code that surface carries. */
function seen(kind: SurfaceKind, outcome: Outcome): string {
  const { end, status, code } = outcome;
  switch (kind) {
    case 'native':
      return end === 'broken' ? 'broken' : `${end} ${status} ${code ?? ''}`.trim();
    case 'stream':
      return `${end} ${code ?? ''}`.trim();
    case 'mirror-http':
      return end === 'broken' ? 'broken' : `${end} ${status}`;
    case 'mirror-socket':
      return end === 'clean' ? 'clean' : 'error';
  }
}

// --- the surfaces -------------------------------------------------------------------------------------------

let stack: RunningStack;
let db: ScratchDatabase;
let sim: SimControl;

type Outcome = SurfaceOutcome;

/**
 * Every surface of every vendor in the registry (`everySurface`), or those `FAULT_SURFACES` matches. The table's
 * rows are named before the stack starts: the surfaces read its addresses when they speak.
 */
const SURFACES: readonly Surface[] = everySurface({
  get gatewayUrl() {
    return stack.gatewayUrl;
  },
  get simUrl() {
    return stack.simUrl;
  },
}).filter(
  (s) =>
    !process.env['FAULT_SURFACES'] || new RegExp(process.env['FAULT_SURFACES']).test(`${s.vendor} ${s.name}`),
);

// --- the table ----------------------------------------------------------------------------------------------

beforeAll(async () => {
  const logDir = join(REPO_ROOT, 'tmp', 'e2e', 'vendor-faults');
  mkdirSync(logDir, { recursive: true });
  const services = servicesEnv();
  db = await createScratchDatabase('vendor_faults');
  await migrateScratchDatabase(db);
  stack = await startStack({
    databaseUrl: db.url,
    natsUrl: services.natsUrl,
    s3: { ...services.s3, bucket: `router-faults-${db.name.slice(-8)}` },
    logDir,
    workers: 1,
    env: TIMINGS,
  });
  sim = new SimControl(stack.simUrl);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await db?.drop();
}, 60_000);

interface Row {
  fault: string;
  first: string;
  /** The next identical request: reached the vendor again, and whole (its audio replayed after). */
  next: string;
}

/**
 * Every fault on one surface, on one org: each row's text has a length of its own, so the vendor calls of its
 * key are told apart by their length (the simulator keeps no text).
 */
async function table(surface: Surface): Promise<{ rows: Row[]; wanted: Row[] }> {
  const label = `faults-${surface.vendor}-${randomUUID().slice(0, 8)}`;
  const org = await createOrgWithVendorKey(stack, surface.vendor, label);
  const row = async (fault: Fault, index: number): Promise<Row> => {
    const id = randomUUID().slice(0, 8);
    const text = `The fault ${id} ends in its documented error here${' now'.repeat(index)}.`;
    const calls = async (): Promise<number> =>
      (await sim.calls(surface.vendor, { key: org.vendorKey })).filter((c) => c.chars === [...text].length)
        .length;
    const injected = await sim.injectFault({
      vendor: surface.vendor,
      key: org.vendorKey,
      textIncludes: id,
      ...fault.inject,
    });
    const first = await surface.say(org, text);
    await sim.removeFault(injected.id).catch(() => undefined);
    const before = await calls();
    const again = await surface.say(org, text);
    const vendorCalls = (await calls()) - before;
    let stored = again;
    let replay = await surface.say(org, text);
    let replayCalls = (await calls()) - before - vendorCalls;
    if (replayCalls === 1 && replay.end === 'clean') {
      // The whole take's commit was lost to the store (a PUT the S3 emulator cut): only a later miss, which
      // commits. The replay after it must come from the cache.
      stored = replay;
      replay = await surface.say(org, text);
      replayCalls = (await calls()) - before - vendorCalls - 1;
    }
    // A replay is the stored answer: the same bytes, but where the vendor's spec lists replay differences
    // (an id nulled, usage zeroed), a mirror's HTTP answer differs from the live one in just those.
    const whole =
      again.end === 'clean' &&
      again.audio.length > 0 &&
      replay.end === 'clean' &&
      (surface.kind === 'mirror-http' || replay.audio.equals(stored.audio)) &&
      !first.audio.equals(again.audio);
    const next = whole ? 'whole' : `not whole (${again.end}, ${replay.end})`;
    return {
      fault: fault.name,
      first: seen(surface.kind, first),
      next: `${next}, ${vendorCalls} vendor call, ${replayCalls} on replay`,
    };
  };
  // One row after the other: side by side, eleven rows on each of five surfaces load a shared machine past the
  // short bounds set here.
  const rows: Row[] = [];
  for (const [index, fault] of FAULTS.entries()) rows.push(await row(fault, index));
  const wanted = FAULTS.map((fault) => ({
    fault: fault.name,
    first: expected(surface.kind, fault),
    next: 'whole, 1 vendor call, 0 on replay',
  }));
  return { rows, wanted };
}

describe('vendor faults on every surface (e2e, a stack of its own)', () => {
  it.concurrent.each(SURFACES.map((s) => [`${s.vendor} ${s.name}`, s] as const))(
    '%s: each fault ends in its documented error; nothing partial is stored; the next request works',
    async (_name, surface) => {
      const { rows, wanted } = await table(surface);
      expect(rows).toEqual(wanted);
    },
    120_000,
  );
});
