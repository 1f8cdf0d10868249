import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client as PgClient } from 'pg';
import { createBlobStore } from '@router/blob-store';
import { RouterClient } from '@router/client';
import {
  createOrgWithKey,
  everySurface,
  loadServicesEnv,
  type PrivateS3,
  REPO_ROOT,
  startFaultStack,
} from '@router/testing';
import { VENDOR_IDS } from '@router/vendors';
import { readTakeId, sampleCount, SimControl, spokenMs } from '@router/vendor-sim';
import { type FaultEvent, runFaults } from './faults';
import { judgeMirrors, type MirrorVerdict } from './mirror-checks';
import {
  type MirrorLane,
  MirrorLaneRecord,
  mirrorClient,
  type MirrorTrafficSetup,
  takeIdIn,
} from './mirror-traffic';
import { sentencePool } from './sentence-pool';
import {
  type CommittedTake,
  type FaultWindows,
  judge,
  type SoakVerdict,
  type VendorCall,
} from './soak-checks';
import type { SoakOptions } from './soak-options';
import { SoakRecord, sha256 } from './soak-record';
import { httpClient, SOAK_SETTINGS, streamClient, type TrafficSetup } from './traffic';

export interface SoakResult {
  /** The native traffic's checks, with the mirrors' violations added to its own. */
  verdict: SoakVerdict;
  /** The mirrors' traffic, lane by lane (one vendor's surface each). */
  mirrors: MirrorVerdict;
  faults: FaultEvent[];
  trafficSeconds: number;
  logDir: string;
}

const BUCKET = 'router-soak';
/** A take's word timings beside its audio blob (`<org>/<key>/<take>.words.json`). */
const WORDS_SUFFIX = '.words.json';
/** The orphan sweep's period (the cache-service's smallest). */
const SWEEP_INTERVAL_MS = 1000;
/** A cache read that began just before the store came back fails within CACHE_READ_TIMEOUT_MS (2 s) after. */
const STORE_BACK_MS = 3000;

/**
 * Short timings for every app, so a fault is noticed and recovered from within the run: a dead worker is
 * given up after two seconds, the hot tier forgets within a second (hits then read the blob store, which an
 * S3 outage can fail), the orphan grace outlasts any outage (a take delayed by one must still commit). The
 * vendor's first-audio timeout stays long: the simulator is never told to stall, so on a busy machine a short
 * one would only turn load into failed takes that are not the faults under test.
 */
function soakEnv(options: SoakOptions): Record<string, string> {
  return {
    LOG_LEVEL: 'warn',
    HOT_TIER_TTL_MS: '1000',
    WORKER_EXPIRY_MS: '2000',
    WORKER_WAIT_MS: '2000',
    SYNTH_HEARTBEAT_MS: '250',
    SYNTH_FIRST_AUDIO_TIMEOUT_MS: '8000',
    CACHE_KEYS_RELOAD_MS: '1000',
    CACHE_SWEEP_INTERVAL_MS: String(SWEEP_INTERVAL_MS),
    CACHE_ORPHAN_GRACE_MS: String(orphanGraceMs(options)),
    STREAM_IDLE_TIMEOUT_MS: String(Math.max(30_000, options.requestTimeoutMs * 2)),
    // A rolling restart drains each app for at most this: long enough for a stream turn to play out.
    DRAIN_MS: '5000',
    ...options.appEnv,
  };
}

const orphanGraceMs = (options: SoakOptions): number => Math.max(5000, options.faultDownMs * 3);

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * The soak: a scratch database, a private NATS and S3 emulator, the stack with two workers; mixed speech and
 * /v1/stream traffic over a pool of sentences for `options.seconds` while faults run; then, with everything
 * back up and the orphan grace passed, the checks. Everything it started is stopped before it returns or
 * throws; an aborted `signal` ends the traffic early.
 */
export async function runSoak(
  options: SoakOptions,
  log: (line: string) => void,
  signal: AbortSignal = new AbortController().signal,
): Promise<SoakResult> {
  loadServicesEnv();
  const logDir = join(REPO_ROOT, 'tmp', 'soak', `logs-${process.pid}`);
  rmSync(logDir, { recursive: true, force: true });
  mkdirSync(logDir, { recursive: true });
  const cleanups: Array<() => Promise<unknown>> = [];
  try {
    // PostgreSQL of its own, so the `postgres` fault can stop it under the running apps.
    const { db, nats, s3, pg, stack, stop } = await startFaultStack({
      label: 'soak',
      logDir,
      bucket: BUCKET,
      env: soakEnv(options),
      privatePostgres: true,
    });
    cleanups.push(stop);
    if (!pg) throw new Error('the fault stack started without its own PostgreSQL');
    log(
      `database ${db.url.replace(/\/\/[^@]*@/, '//')}, NATS ${nats.url}, S3 ${s3.s3.endpoint}; app logs in ${logDir}`,
    );

    const org = createOrgWithKey(stack.adminUrl, `soak-${randomUUID().slice(0, 8)}`);
    const router = new RouterClient({ baseUrl: stack.gatewayUrl, apiKey: org.key });
    // A vendor key of the org's own for every vendor: the mirrors' traffic speaks to all ten.
    const vendorKeys: Record<string, string> = {};
    for (const vendor of VENDOR_IDS) {
      vendorKeys[vendor] = `vk-soak-${vendor}-${randomUUID()}`;
      await router.providerKeys.put(vendor, vendorKeys[vendor]);
    }
    const catalogue = await router.models();
    const voice = catalogue.providers
      .find((p) => p.id === 'vendor_a')
      ?.models.find((m) => m.id === SOAK_SETTINGS.model.split('/')[1])?.voices?.[0];
    if (!voice) throw new Error(`GET /v1/models lists no voice for ${SOAK_SETTINGS.model}`);
    const sim = new SimControl(stack.simUrl);
    for (const vendor of VENDOR_IDS)
      await sim.setPacing(vendor, { ttfaMs: options.ttfaMs, factor: options.pacingFactor });

    const pool = sentencePool(options.sentences);
    const lanes = mirrorLanes(stack, options);
    const mirrorRecords = new Map(lanes.map((lane) => [lane, new MirrorLaneRecord()] as const));
    const record = new SoakRecord();
    const startedAt = Date.now();
    const until = startedAt + options.seconds * 1000;
    const setup: TrafficSetup = {
      gatewayUrl: stack.gatewayUrl,
      routerKey: org.key,
      voice,
      pool,
      record,
      until,
      requestTimeoutMs: options.requestTimeoutMs,
      signal,
    };
    const mirrorSetup: MirrorTrafficSetup = {
      org: { key: org.key, client: router, vendorKeys },
      lanes,
      records: mirrorRecords,
      until,
      requestTimeoutMs: options.requestTimeoutMs,
      signal,
    };
    log(
      `traffic for ${options.seconds} s: ${options.httpClients} speech clients, ${options.streamSessions} stream sessions, ` +
        `${options.mirrorClients} mirror clients over ${lanes.length} mirror surfaces, ` +
        `${options.sentences} sentences, faults ${options.faults ? 'on' : 'off'}`,
    );
    const [faults] = await Promise.all([
      options.faults
        ? runFaults(
            { stack, nats, s3, pg },
            {
              startedAt,
              until,
              gapMs: options.faultGapMs,
              downMs: options.faultDownMs,
              kinds: options.faultKinds,
            },
            signal,
            log,
          )
        : Promise.resolve([]),
      ...Array.from({ length: options.httpClients }, () => httpClient(setup)),
      ...Array.from({ length: options.streamSessions }, () => streamClient(setup)),
      // Each mirror client goes round its share of the lanes, so every lane has traffic however few clients.
      ...Array.from({ length: options.mirrorClients }, (_, i) =>
        mirrorClient(
          mirrorSetup,
          lanes.filter((_, k) => k % options.mirrorClients === i),
        ),
      ),
    ]);
    const trafficSeconds = (Date.now() - startedAt) / 1000;

    log(`traffic done; waiting for commits and the orphan grace (${orphanGraceMs(options)} ms)`);
    const pgClient = new PgClient({ connectionString: db.url });
    await pgClient.connect();
    cleanups.push(() => pgClient.end());
    await untilRowsSettle(pgClient, org.orgId);
    await sleep(orphanGraceMs(options) + 2 * SWEEP_INTERVAL_MS);

    const callsByVendor = new Map<string, VendorCall[]>();
    for (const vendor of VENDOR_IDS)
      callsByVendor.set(
        vendor,
        (await sim.calls(vendor)).map((c) => ({ takeId: c.takeId, chars: c.chars, at: Date.parse(c.at) })),
      );
    const mirrorLengthsOfVendorA = new Set(
      lanes
        .filter((lane) => lane.surface.vendor === 'vendor_a')
        .flatMap((lane) => lane.pool.map((sentence) => Array.from(sentence).length)),
    );
    const { committed, orphanBlobs, mirrorTakes } = await readCache(
      pgClient,
      org.orgId,
      s3,
      mirrorLengthsOfVendorA,
      callsByVendor.get('vendor_a') ?? [],
    );
    const nativeLengths = new Set(pool.map((sentence) => Array.from(sentence).length));
    const calls = (callsByVendor.get('vendor_a') ?? []).filter((c) => nativeLengths.has(c.chars));
    const windows = faultWindows(faults, startedAt);
    const mirrors = judgeMirrors({
      lanes: lanes.map((lane) => ({ lane, record: mirrorRecords.get(lane) ?? new MirrorLaneRecord() })),
      callsByVendor,
      committedTakes: new Set([
        ...committed.flatMap((row) => (row.blob?.takeId ? [row.blob.takeId] : [])),
        ...mirrorTakes,
      ]),
      faults: windows,
    });
    const verdict = judge({
      pool,
      record,
      committed,
      calls,
      // The native traffic's calls only: vendor_a's mirror lanes have sentences of other lengths.
      callsCounted:
        calls.length + (await sim.callCount('vendor_a')) - (callsByVendor.get('vendor_a') ?? []).length,
      orphanBlobs,
      faults: windows,
      fullTakeBytes: (sentence) => sampleCount(spokenMs(sentence), SOAK_SETTINGS.sample_rate) * 2,
    });
    verdict.violations.push(...mirrors.violations);
    return { verdict, mirrors, faults, trafficSeconds, logDir };
  } finally {
    for (const cleanup of cleanups.reverse()) {
      await cleanup().catch((error: unknown) =>
        log(`cleanup: ${error instanceof Error ? error.message : String(error)}`),
      );
    }
  }
}

/**
 * When the faults hit, in ms. The store counts as down until a moment after it is back: a read that failed just
 * before the restart may make its fresh take just after.
 */
function faultWindows(faults: FaultEvent[], startedAt: number): FaultWindows {
  const at = (f: FaultEvent): number => startedAt + f.atS * 1000;
  const down = (fault: string): FaultWindows['storeDown'] =>
    faults
      .filter((f) => f.fault === fault)
      .map((f) => ({ from: at(f), to: at(f) + f.downMs + STORE_BACK_MS }));
  return {
    startedAt,
    // PostgreSQL down: a take made meanwhile is played and not stored (docs/operations.md, "A PostgreSQL outage").
    storeDown: [...down('stop S3'), ...down('stop PostgreSQL')],
    busDown: down('stop NATS'),
    kills: faults.filter((f) => f.fault.startsWith('kill')).map(at),
    cutsExplained: faults.some((f) => f.fault !== 'rolling restart'),
  };
}

/** Waits until the org's row count has not changed for a second (takes in flight committed), at most 20 s. */
async function untilRowsSettle(pg: PgClient, orgId: string): Promise<void> {
  const rows = async (): Promise<number> =>
    (await pg.query<{ n: number }>('SELECT count(*)::int AS n FROM cache_entries WHERE org_id = $1', [orgId]))
      .rows[0]?.n ?? 0;
  let last = await rows();
  let stableSince = Date.now();
  const deadline = Date.now() + 20_000;
  while (Date.now() - stableSince < 1000 && Date.now() < deadline) {
    await sleep(200);
    const now = await rows();
    if (now !== last) stableSince = Date.now();
    last = now;
  }
}

/**
 * The org's index rows with what the blob store holds under each name, and the blobs no row names. The native
 * traffic's rows (vendor_a's sentence takes, but those of vendor_a's mirror lanes, told apart by the length of
 * the call that made them) are returned whole for its checks; of the mirrors' rows, only the takes they hold.
 */
async function readCache(
  pg: PgClient,
  orgId: string,
  s3: PrivateS3,
  mirrorLengthsOfVendorA: ReadonlySet<number>,
  vendorACalls: readonly VendorCall[],
): Promise<{ committed: CommittedTake[]; orphanBlobs: string[]; mirrorTakes: string[] }> {
  // The router's own store client, as the apps read the bucket.
  const blobs = createBlobStore({ kind: 's3', ...s3.s3, bucket: BUCKET });
  const lengthOfTake = new Map(vendorACalls.map((c) => [c.takeId, c.chars]));
  try {
    const rows = await pg.query<{ objectName: string; byteSize: number; provider: string; whole: boolean }>(
      `SELECT object_name AS "objectName", byte_size AS "byteSize", provider, response_head IS NOT NULL AS whole
       FROM cache_entries WHERE org_id = $1`,
      [orgId],
    );
    const listed = new Set<string>();
    for await (const item of blobs.list('')) listed.add(item.name);
    const committed: CommittedTake[] = [];
    const mirrorTakes: string[] = [];
    for (const { objectName, byteSize, provider, whole } of rows.rows) {
      const bytes = listed.has(objectName) ? await blobs.get(objectName) : null;
      const takeId = bytes ? takeIdIn(bytes) : null;
      const length = takeId ? lengthOfTake.get(takeId) : undefined;
      const native =
        provider === 'vendor_a' && !whole && !(length !== undefined && mirrorLengthsOfVendorA.has(length));
      if (!native) {
        if (takeId) mirrorTakes.push(takeId);
        continue;
      }
      committed.push({
        objectName,
        byteSize,
        blob: bytes ? { size: bytes.length, sha256: sha256(bytes), takeId: readTakeId(bytes, 'pcm') } : null,
      });
    }
    // A take's word timings (`….words.json`) belong to its audio blob, which the row names.
    const named = new Set(rows.rows.map((r) => r.objectName));
    const audioOfBlob = (name: string): string =>
      name.endsWith(WORDS_SUFFIX) ? `${name.slice(0, -WORDS_SUFFIX.length)}.audio` : name;
    return {
      committed,
      orphanBlobs: [...listed].filter((name) => !named.has(audioOfBlob(name))),
      mirrorTakes,
    };
  } finally {
    await blobs.close();
  }
}

/** The mirror lanes: every mirror surface of every vendor, each with sentences of its own (see sentencePool). */
function mirrorLanes(stack: Parameters<typeof everySurface>[0], options: SoakOptions): MirrorLane[] {
  const lanes: MirrorLane[] = [];
  // The native traffic's sentences come first among vendor_a's lengths.
  const nextFrom = new Map<string, number>([['vendor_a', options.sentences]]);
  for (const surface of everySurface(stack)) {
    if (surface.kind !== 'mirror-http' && surface.kind !== 'mirror-socket') continue;
    const from = nextFrom.get(surface.vendor) ?? 0;
    lanes.push({ surface, pool: sentencePool(options.mirrorSentences, from) });
    nextFrom.set(surface.vendor, from + options.mirrorSentences);
  }
  return options.mirrorClients > 0 ? lanes : [];
}
