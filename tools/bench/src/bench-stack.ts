import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { mirrorAppName } from '@router/config';
import { dropBucket } from './bench-bucket';
import { NAIVE_INDEX_TABLE, type NaiveCacheWrite } from './load-process';
import { type MemoryReading, readMemory } from './memory-probe';
import {
  adminCli,
  loadServicesEnv,
  migrateScratchDatabase,
  call,
  createOrgWithKey,
  createScratchDatabase,
  REPO_ROOT,
  type RunningStack,
  servicesEnv,
  STACK_MIRRORS,
  startStack,
} from '@router/testing';

/**
 * The stack as a deployment runs it, tuned only where a test setting would distort a measurement: the
 * log level (per-request info lines cost CPU), production timings for the background jobs that
 * `startStack` makes fast for tests, and a hot tier that outlives the run, so `hot-hit` measures the hot
 * tier alone and `cold-hit` the lookup path alone.
 */
export const BENCH_ENV: Readonly<Record<string, string>> = {
  LOG_LEVEL: 'warn',
  AUTH_CACHE_TTL_MS: '5000',
  ORG_SETTINGS_TTL_MS: '5000',
  CACHE_SWEEP_INTERVAL_MS: '3600000',
  CACHE_USAGE_FLUSH_MS: '2000',
  HOT_TIER_TTL_MS: '600000',
  CACHE_ORPHAN_GRACE_MS: '900000',
  SYNTH_FIRST_AUDIO_TIMEOUT_MS: '10000',
  // Each mirror socket keeps its vendor's idle limit (vendor_a's 60 s), not the tests' 10 s cap.
  MIRROR_SOCKET_IDLE_CAP_MS: '0',
};

/** The stack members whose CPU counts as the router's (everything but the simulated vendors). */
export const ROUTER_APPS = [
  'edge-gateway',
  'native-api',
  'synthesis-worker',
  'synthesis-worker-2',
  'cache-service',
  ...STACK_MIRRORS.map(mirrorAppName),
];

/** The vendors the benchmarks call, each with the org's key stored (vendor_a; vendor_c and vendor_d for the peer benchmark). */
const BENCH_VENDORS = ['vendor_a', 'vendor_c', 'vendor_d'] as const;

export interface BenchStack {
  stack: RunningStack;
  routerKey: string;
  /** A key of a second org whose retention is 0: nothing of it is looked up in or written to the cache. */
  uncachedRouterKey: string;
  vendorKey: string;
  voice: string;
  /** A vendor_c voice (the vendor_c mirror's path names one). */
  vendorCVoice: string;
  /** When the stack was up (performance.now()); the cache-service's first timed sweep is a minute later. */
  startedAt: number;
  /** name → pid of every stack member. */
  pids: Record<string, number>;
  /** The NATS the stack talks over (the naive chain uses it too, on a subject of its own). */
  natsUrl: string;
  /** The stack's bucket and scratch database, where the naive chain's cached takes go too. */
  cacheWrite: NaiveCacheWrite;
  setPacing(pacing: { ttfaMs: number; factor: number; chunkMs?: number }): Promise<void>;
  /** Synthesis calls the simulator accepted so far, over all vendors and keys. */
  vendorCalls(): Promise<number>;
  /**
   * Takes committed so far: the router's cache rows and the naive chain's indexed ones (its indexer creates
   * its table before the chain takes a request).
   */
  committedTakes(): Promise<number>;
  /** Rows in the request log's table (the request log benchmark checks what each stack wrote). */
  requestLogRows(): Promise<number>;
  /** A stack member's memory right after a forced full GC (only when started with `memoryProbeDir`). */
  memory(app: string): Promise<MemoryReading>;
  stop(): Promise<void>;
}

/** A second org with retention 0 and one key, made with the admin CLI; returns the key. */
function orgWithoutCache(adminUrl: string): string {
  const name = `bench-nocache-${randomUUID().slice(0, 8)}`;
  const org = adminCli(adminUrl, ['org', 'create', '--name', name, '--retention', '0', '--json']);
  const orgId = (org.json as { id?: unknown } | undefined)?.id;
  if (org.code !== 0 || typeof orgId !== 'string') throw new Error(`org create failed: ${org.out}`);
  const issued = adminCli(adminUrl, ['key', 'issue', orgId, '--json']);
  const key = (issued.json as { key?: unknown } | undefined)?.key;
  if (issued.code !== 0 || typeof key !== 'string') throw new Error(`key issue failed: ${issued.out}`);
  return key;
}

/**
 * With `cpuProfileDir`, every app writes a V8 CPU profile there when it stops (see cpu-profile.preload.ts);
 * with `memoryProbeDir`, every app reports its memory after a forced GC on request (memory-probe.preload.ts);
 * `logLevel` replaces BENCH_ENV's, to measure what logging costs; `nodeOptions` are added to every app's
 * NODE_OPTIONS (e.g. V8 heap flags) and `appEnv` to every app's environment, to measure a runtime setting;
 * `name` puts its app logs in a folder of their own, for a second stack started beside the first.
 */
export async function startBenchStack(
  log: (line: string) => void,
  tuning: {
    cpuProfileDir?: string;
    memoryProbeDir?: string;
    logLevel?: string;
    nodeOptions?: string;
    appEnv?: Record<string, string>;
    workers?: 1 | 2;
    name?: string;
  } = {},
): Promise<BenchStack> {
  const { cpuProfileDir, memoryProbeDir, logLevel, nodeOptions, appEnv, workers, name } = tuning;
  const preloads = [
    ...(cpuProfileDir ? ['cpu-profile.preload.js'] : []),
    ...(memoryProbeDir ? ['memory-probe.preload.js'] : []),
  ];
  const appNodeOptions = [...preloads.map((file) => `--require ${join(__dirname, file)}`), nodeOptions ?? '']
    .filter(Boolean)
    .join(' ');
  const ensure = spawnSync('bash', [join(REPO_ROOT, 'tools/services/ensure.sh')], { encoding: 'utf8' });
  if (ensure.status !== 0) throw new Error(`local services: ${ensure.stderr || ensure.stdout}`);
  loadServicesEnv();
  const services = servicesEnv();
  const db = await createScratchDatabase('bench');
  await migrateScratchDatabase(db);
  const logDir = join(REPO_ROOT, 'tmp', 'bench', 'logs', ...(name ? [name] : []));
  rmSync(logDir, { recursive: true, force: true });
  mkdirSync(logDir, { recursive: true });
  log(`database ${db.name}; app logs in ${logDir}`);
  const bucket = `router-bench-${db.name.slice(-8)}`;
  let stack: RunningStack;
  try {
    stack = await startStack({
      databaseUrl: db.url,
      natsUrl: services.natsUrl,
      s3: { ...services.s3, bucket },
      logDir,
      ...(workers ? { workers } : {}),
      env: {
        ...BENCH_ENV,
        ...(logLevel ? { LOG_LEVEL: logLevel } : {}),
        ...(appNodeOptions ? { NODE_OPTIONS: appNodeOptions } : {}),
        ...(cpuProfileDir ? { BENCH_CPU_PROFILE_DIR: cpuProfileDir } : {}),
        ...(memoryProbeDir ? { BENCH_MEMORY_PROBE_DIR: memoryProbeDir } : {}),
        ...appEnv,
      },
    });
  } catch (error) {
    await db.drop();
    throw error;
  }
  log(`synthesis workers: ${stack.apps.filter((app) => app.name.startsWith('synthesis-worker')).length}`);
  const startedAt = performance.now();
  const pg = new Client({ connectionString: db.url });
  const stop = async (): Promise<void> => {
    await pg.end().catch(() => undefined);
    await stack.stop();
    await db.drop();
    await dropBucket(services.s3, bucket).catch((error: unknown) =>
      log(`bucket ${bucket} not removed: ${error instanceof Error ? error.message : String(error)}`),
    );
  };
  try {
    await pg.connect();
    const org = createOrgWithKey(stack.adminUrl, `bench-${randomUUID().slice(0, 8)}`);
    const uncached = orgWithoutCache(stack.adminUrl);
    const vendorKey = `vk-bench-${randomUUID()}`;
    for (const [key, vendor] of [
      [uncached, 'vendor_a'],
      ...BENCH_VENDORS.map((v) => [org.key, v]),
    ] as const) {
      const put = await call(stack.gatewayUrl, 'PUT', `/v1/provider-keys/${vendor}`, {
        key,
        body: { api_key: vendorKey },
      });
      if (put.status !== 200) throw new Error(`storing the ${vendor} key: HTTP ${put.status} ${put.text}`);
    }
    const models = await call<{
      providers: Array<{ id: string; models: Array<{ id: string; voices: string[] }> }>;
    }>(stack.gatewayUrl, 'GET', '/v1/models');
    const voice = models.body.providers
      .find((p) => p.id === 'vendor_a')
      ?.models.find((m) => m.id === 'a_model_1')?.voices[0];
    if (!voice) throw new Error('GET /v1/models lists no voice for vendor_a/a_model_1');
    // vendor_c's voices are the vendor's own list, read through its mirror as a vendor_c client reads it.
    const voices = await fetch(`${stack.gatewayUrl}/vendor_c/v1/voices`, {
      headers: { 'vendor_c-api-key': org.key },
    });
    const vendorCVoice = ((await voices.json()) as { voices?: Array<{ voice_id: string }> }).voices?.[0]
      ?.voice_id;
    if (!vendorCVoice) throw new Error('the vendor_c mirror lists no voice');
    const control = `${stack.simUrl}/__sim`;
    const pids: Record<string, number> = Object.fromEntries(
      stack.apps.map((app) => [app.name, app.child.pid as number]),
    );
    return {
      stack,
      routerKey: org.key,
      uncachedRouterKey: uncached,
      vendorKey,
      startedAt,
      voice,
      vendorCVoice,
      pids,
      natsUrl: services.natsUrl,
      cacheWrite: { s3: { ...services.s3, bucket }, databaseUrl: db.url },
      async setPacing(pacing) {
        for (const vendor of BENCH_VENDORS) {
          const res = await fetch(`${control}/pacing`, {
            method: 'PUT',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ vendor, ...pacing }),
          });
          if (!res.ok) throw new Error(`simulator pacing: HTTP ${res.status} ${await res.text()}`);
        }
      },
      async vendorCalls() {
        const res = await fetch(`${control}/calls/counts`);
        if (!res.ok) throw new Error(`simulator call counts: HTTP ${res.status}`);
        const { counts } = (await res.json()) as {
          counts: Record<string, Record<string, Record<string, number>>>;
        };
        return Object.values(counts)
          .flatMap((byKey) => Object.values(byKey))
          .flatMap((byEndpoint) => Object.values(byEndpoint))
          .reduce((sum, n) => sum + n, 0);
      },
      async committedTakes() {
        // The naive chain's table exists only where the chain runs (not in the request log benchmark).
        const chain = await pg.query<{ present: boolean }>('SELECT to_regclass($1) IS NOT NULL AS present', [
          NAIVE_INDEX_TABLE,
        ]);
        const result = await pg.query<{ n: number }>(
          chain.rows[0]?.present
            ? `SELECT (SELECT count(*) FROM cache_entries)::int + (SELECT count(*) FROM ${NAIVE_INDEX_TABLE})::int AS n`
            : 'SELECT count(*)::int AS n FROM cache_entries',
        );
        return result.rows[0]?.n ?? 0;
      },
      async requestLogRows() {
        const result = await pg.query<{ n: number }>('SELECT count(*)::int AS n FROM request_log');
        return result.rows[0]?.n ?? 0;
      },
      async memory(app) {
        const pid = pids[app];
        if (!memoryProbeDir || pid === undefined) throw new Error(`no memory probe in ${app}`);
        return readMemory(pid, memoryProbeDir);
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
