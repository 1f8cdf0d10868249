import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client as PgClient } from 'pg';
import { createBlobStore } from '@router/blob-store';
import { RouterClient } from '@router/client';
import {
  createOrgWithKey,
  loadServicesEnv,
  type PrivateS3,
  REPO_ROOT,
  startFaultStack,
} from '@router/testing';
import { readTakeId, sampleCount, SimControl, spokenMs } from '@router/vendor-sim';
import { type FaultEvent, runFaults } from './faults';
import { sentencePool } from './sentence-pool';
import { type CommittedTake, type FaultWindows, judge, type SoakVerdict } from './soak-checks';
import type { SoakOptions } from './soak-options';
import { SoakRecord, sha256 } from './soak-record';
import { httpClient, SOAK_SETTINGS, streamClient, type TrafficSetup } from './traffic';

export interface SoakResult {
  verdict: SoakVerdict;
  faults: FaultEvent[];
  trafficSeconds: number;
  logDir: string;
}

const BUCKET = 'router-soak';
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
    const { db, nats, s3, stack, stop } = await startFaultStack({
      label: 'soak',
      logDir,
      bucket: BUCKET,
      env: soakEnv(options),
    });
    cleanups.push(stop);
    log(`database ${db.name}, NATS ${nats.url}, S3 ${s3.s3.endpoint}; app logs in ${logDir}`);

    const org = createOrgWithKey(stack.adminUrl, `soak-${randomUUID().slice(0, 8)}`);
    const router = new RouterClient({ baseUrl: stack.gatewayUrl, apiKey: org.key });
    await router.providerKeys.put('vendor_a', `vk-soak-${randomUUID()}`);
    const catalogue = await router.models();
    const voice = catalogue.providers
      .find((p) => p.id === 'vendor_a')
      ?.models.find((m) => m.id === SOAK_SETTINGS.model.split('/')[1])?.voices?.[0];
    if (!voice) throw new Error(`GET /v1/models lists no voice for ${SOAK_SETTINGS.model}`);
    const sim = new SimControl(stack.simUrl);
    await sim.setPacing('vendor_a', { ttfaMs: options.ttfaMs, factor: options.pacingFactor });

    const pool = sentencePool(options.sentences);
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
    log(
      `traffic for ${options.seconds} s: ${options.httpClients} speech clients, ${options.streamSessions} stream sessions, ` +
        `${options.sentences} sentences, faults ${options.faults ? 'on' : 'off'}`,
    );
    const [faults] = await Promise.all([
      options.faults
        ? runFaults(
            { stack, nats, s3 },
            { startedAt, until, gapMs: options.faultGapMs, downMs: options.faultDownMs },
            signal,
            log,
          )
        : Promise.resolve([]),
      ...Array.from({ length: options.httpClients }, () => httpClient(setup)),
      ...Array.from({ length: options.streamSessions }, () => streamClient(setup)),
    ]);
    const trafficSeconds = (Date.now() - startedAt) / 1000;

    log(`traffic done; waiting for commits and the orphan grace (${orphanGraceMs(options)} ms)`);
    const pg = new PgClient({ connectionString: db.url });
    await pg.connect();
    cleanups.push(() => pg.end());
    await untilRowsSettle(pg, org.orgId);
    await sleep(orphanGraceMs(options) + 2 * SWEEP_INTERVAL_MS);

    const { committed, orphanBlobs } = await readCache(pg, org.orgId, s3);
    const calls = await sim.calls('vendor_a');
    const verdict = judge({
      pool,
      record,
      committed,
      calls: calls.map((c) => ({ takeId: c.takeId, chars: c.chars, at: Date.parse(c.at) })),
      callsCounted: await sim.callCount('vendor_a'),
      orphanBlobs,
      faults: faultWindows(faults, startedAt),
      fullTakeBytes: (sentence) => sampleCount(spokenMs(sentence), SOAK_SETTINGS.sample_rate) * 2,
    });
    return { verdict, faults, trafficSeconds, logDir };
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
  return {
    storeDown: faults
      .filter((f) => f.fault === 'stop S3')
      .map((f) => ({ from: at(f), to: at(f) + f.downMs + STORE_BACK_MS })),
    kills: faults.filter((f) => f.fault.startsWith('kill')).map(at),
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

/** The org's index rows with what the blob store holds under each name, and the blobs no row names. */
async function readCache(
  pg: PgClient,
  orgId: string,
  s3: PrivateS3,
): Promise<{ committed: CommittedTake[]; orphanBlobs: string[] }> {
  // The router's own store client, as the apps read the bucket.
  const blobs = createBlobStore({ kind: 's3', ...s3.s3, bucket: BUCKET });
  try {
    const rows = await pg.query<{ objectName: string; byteSize: number }>(
      'SELECT object_name AS "objectName", byte_size AS "byteSize" FROM cache_entries WHERE org_id = $1',
      [orgId],
    );
    const listed = new Set<string>();
    for await (const item of blobs.list('')) listed.add(item.name);
    const committed: CommittedTake[] = [];
    for (const row of rows.rows) {
      if (!listed.has(row.objectName)) {
        committed.push({ ...row, blob: null });
        continue;
      }
      const bytes = await blobs.get(row.objectName);
      committed.push({
        ...row,
        blob: { size: bytes.length, sha256: sha256(bytes), takeId: readTakeId(bytes, 'pcm') },
      });
    }
    const named = new Set(rows.rows.map((r) => r.objectName));
    return { committed, orphanBlobs: [...listed].filter((name) => !named.has(name)) };
  } finally {
    await blobs.close();
  }
}
