import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createSelfSignedCertificate,
  mirrorAppName,
  mirrorAppVendor,
  mirrorUrlVariable,
  VENDOR_TOKENS,
  type TlsFiles,
  type VendorToken,
} from '@router/config';
import { type AppProcess, freePort, httpOk, REPO_ROOT, spawnApp, stopProcess, waitFor } from './processes';

/**
 * The vendors with a mirror app, in token order: one `apps/mirror-vendor-x` per mirror in the registry (the
 * registry itself is out of this lib's reach, its specs use this lib; tools/deploy-gen's spec checks that
 * the folders and the registry's mirrors are the same set).
 */
export const STACK_MIRRORS: readonly VendorToken[] = readdirSync(join(REPO_ROOT, 'apps'))
  .flatMap((app) => mirrorAppVendor(app) ?? [])
  .sort();

/**
 * In start order: the simulated vendors first, then what depends on them; two workers, as replicas run; the
 * mirror apps; the gateway last, once everything it routes to is up.
 */
export const STACK_APPS = [
  'vendor-sim',
  'cache-service',
  'synthesis-worker',
  'synthesis-worker-2',
  'native-api',
  'dashboard',
  ...STACK_MIRRORS.map(mirrorAppName),
  'edge-gateway',
] as const;
export type StackApp = (typeof STACK_APPS)[number];

/** Members no client or app reaches by address (their port serves probes only): a rolling update surges them. */
/**
 * How long an app may take to answer /healthz once spawned. A crash ends the wait at once (its exit is raced);
 * this bound only matters on a starved machine, where twenty Node processes starting together on two busy
 * cores have been seen to need more than 20 s.
 */
const APP_START_BOUND_MS = 120_000;

const BEHIND_NATS_ONLY: ReadonlySet<StackApp> = new Set([
  'synthesis-worker',
  'synthesis-worker-2',
  'cache-service',
]);

/** The built app a stack member runs (replicas share one). */
function entryOf(app: StackApp): string {
  return join('dist/apps', app === 'synthesis-worker-2' ? 'synthesis-worker' : app, 'main.js');
}

export interface StackOptions {
  databaseUrl: string;
  natsUrl: string;
  s3: { endpoint: string; accessKey: string; secretKey: string; bucket: string };
  logDir: string;
  /** Short, so tests see key and org changes quickly without waiting for events. */
  authCacheTtlMs?: number;
  /** Set last, over the defaults above (e.g. a benchmark's quieter log level or production timings). */
  env?: Record<string, string>;
  /**
   * Synthesis worker replicas, 1 or 2 (the default: the tests of takes shared across replicas need two). With
   * 1, `synthesis-worker-2` is not started and its port is unused.
   */
  workers?: 1 | 2;
}

export interface StackInfo {
  gatewayUrl: string;
  /** The gateway's readiness and metrics port. */
  gatewayInternalUrl: string;
  /** The gateway's own TLS port (HTTPS and wss://), with a self-signed certificate for `localhost`. */
  gatewayTlsUrl: string;
  /** The certificate a client trusts to reach `gatewayTlsUrl` (e.g. the `ca` of a Node TLS client). */
  tlsCertFile: string;
  adminUrl: string;
  nativeApiUrl: string;
  simUrl: string;
  ports: Record<StackApp, number>;
  logDir: string;
  databaseUrl: string;
  env: Record<string, string>;
}

export interface RunningStack extends StackInfo {
  /** The members running now (a member started again replaces its entry). */
  apps: AppProcess[];
  /** The synthesis worker replicas running now, for a fault test to kill one. */
  workers(): AppProcess[];
  /** SIGKILLs a member (no shutdown: what it had in flight is lost, as in a crash); resolves once it is gone. */
  kill(app: StackApp): Promise<void>;
  /** Starts a stopped or killed member again, on its port with its environment; resolves once it is healthy. */
  restart(app: StackApp): Promise<AppProcess>;
  /**
   * Restarts a member as a rolling update does. A member reached over NATS alone (a synthesis worker,
   * cache-service) gets its replacement first, on a port of its own, and is then told to stop (SIGTERM: it
   * drains); any other is told to stop, and once it has drained and exited, started again on its port (its
   * address is fixed, as a Service's would be). Resolves once the new one is healthy and the old one gone.
   */
  roll(app: StackApp): Promise<AppProcess>;
  stop(): Promise<void>;
}

/** Starts every app as its own process, as a deployment would run them, and waits until each is healthy. */
export async function startStack(options: StackOptions): Promise<RunningStack> {
  const ports = Object.fromEntries(
    await Promise.all(STACK_APPS.map(async (app) => [app, await freePort()] as const)),
  ) as Record<StackApp, number>;
  const adminPort = await freePort();
  const gatewayInternalPort = await freePort();
  const env = stackEnv(options, { apps: ports, admin: adminPort, gatewayInternal: gatewayInternalPort });
  const tls = await gatewayTls();
  const apps: AppProcess[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all(apps.map((app) => app.stop()));
  };
  /** Spawns a member and waits until it is healthy; it replaces the member's entry in `apps`. */
  const launch = async (app: StackApp, replacing?: AppProcess): Promise<AppProcess> => {
    const started = spawnApp(
      app,
      entryOf(app),
      { ...env, ...(app === 'edge-gateway' ? tls.env : {}), PORT: String(ports[app]), HOST: '127.0.0.1' },
      options.logDir,
    );
    const index = apps.findIndex((member) => member === (replacing ?? apps.find((m) => m.name === app)));
    if (index >= 0) apps[index] = started;
    else apps.push(started);
    const exited = new Promise<never>((_, reject) =>
      started.child.once('exit', (code) =>
        reject(new Error(`${app} exited with code ${code}; see ${started.logFile}`)),
      ),
    );
    await Promise.race([
      waitFor(`${app} /healthz`, () => httpOk(`http://127.0.0.1:${ports[app]}/healthz`), APP_START_BOUND_MS),
      exited,
    ]);
    return started;
  };
  const memberOf = (app: StackApp): AppProcess => {
    const member = apps.find((started) => started.name === app);
    if (!member) throw new Error(`${app} is not a member of this stack`);
    return member;
  };
  try {
    const members = STACK_APPS.filter((app) => app !== 'synthesis-worker-2' || (options.workers ?? 2) === 2);
    for (const app of members) await launch(app);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    gatewayUrl: `http://127.0.0.1:${ports['edge-gateway']}`,
    gatewayInternalUrl: `http://127.0.0.1:${gatewayInternalPort}`,
    gatewayTlsUrl: `https://localhost:${tls.env.TLS_PORT}`,
    tlsCertFile: tls.files.certFile,
    adminUrl: `http://127.0.0.1:${adminPort}`,
    nativeApiUrl: `http://127.0.0.1:${ports['native-api']}`,
    simUrl: `http://127.0.0.1:${ports['vendor-sim']}`,
    ports,
    logDir: options.logDir,
    databaseUrl: options.databaseUrl,
    env,
    apps,
    workers: () => apps.filter((app) => app.name.startsWith('synthesis-worker')),
    async kill(app) {
      const { child } = memberOf(app);
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGKILL');
      await gone;
    },
    async restart(app) {
      await memberOf(app).stop();
      return launch(app);
    },
    async roll(app) {
      const old = memberOf(app);
      const drainGraceMs = Number(env.DRAIN_MS ?? 20_000) + 10_000;
      if (!BEHIND_NATS_ONLY.has(app)) {
        await stopProcess(old.child, drainGraceMs);
        return launch(app, old);
      }
      ports[app] = await freePort();
      const started = await launch(app, old);
      await stopProcess(old.child, drainGraceMs);
      return started;
    },
    stop,
  };
}

/**
 * The gateway's own TLS, as a small deployment without an ingress runs it: a self-signed certificate made for
 * this stack (the machine's openssl) and a port of its own.
 */
async function gatewayTls(): Promise<{ files: TlsFiles; env: Record<string, string> }> {
  const dir = mkdtempSync(join(tmpdir(), 'router-stack-tls-'));
  const files = { certFile: join(dir, 'cert.pem'), keyFile: join(dir, 'key.pem') };
  await createSelfSignedCertificate(files, ['localhost', '127.0.0.1', '::1']);
  const env = {
    TLS_CERT_FILE: files.certFile,
    TLS_KEY_FILE: files.keyFile,
    TLS_PORT: String(await freePort()),
  };
  return { files, env };
}

/** The environment every member of a stack gets (each also gets its own PORT and HOST). */
export function stackEnv(
  options: StackOptions,
  ports: { apps: Record<StackApp, number>; admin: number; gatewayInternal: number },
): Record<string, string> {
  return {
    LOG_LEVEL: 'info',
    NATS_URL: options.natsUrl,
    // Stacks sharing one NATS (an e2e run beside a benchmark) must not answer each other's requests.
    NATS_SUBJECT_PREFIX: `stack${randomBytes(4).toString('hex')}`,
    DATABASE_URL: options.databaseUrl,
    S3_ENDPOINT: options.s3.endpoint,
    S3_ACCESS_KEY: options.s3.accessKey,
    S3_SECRET_KEY: options.s3.secretKey,
    S3_BUCKET: options.s3.bucket,
    INTERNAL_SIGNING_SECRET: randomBytes(32).toString('base64url'),
    PROVIDER_KEY_MASTER_KEYS: `1:${randomBytes(32).toString('base64')}`,
    CACHE_KEY_SECRET: randomBytes(32).toString('base64url'),
    NATIVE_API_URL: `http://127.0.0.1:${ports.apps['native-api']}`,
    DASHBOARD_URL: `http://127.0.0.1:${ports.apps.dashboard}`,
    // A key's last use reaches the dashboard's key list within a fraction of a second.
    API_KEY_LAST_USED_FLUSH_MS: '200',
    VENDOR_PRICES: 'vendor_a=15,vendor_c=180',
    // Sign-in limits a test reaches in a few attempts (per address), and one every test's sign-ins from
    // 127.0.0.1 stay under (per client; the per-client test comes from 127.0.0.2).
    SIGN_IN_LIMIT_PER_ADDRESS: '5',
    SIGN_IN_LIMIT_PER_CLIENT: '100',
    SIGN_IN_LIMIT_WINDOW_MS: '60000',
    // No per-org limits by default: suites, the soak and the bench load one org past any default; a test of the
    // limits sets its org's own through the admin API.
    ORG_LIMIT_CONCURRENT_SYNTHESES: '0',
    ORG_LIMIT_OPEN_SOCKETS: '0',
    ORG_LIMIT_REQUESTS_PER_SECOND: '0',
    ...Object.fromEntries(
      STACK_MIRRORS.map((vendor) => [
        mirrorUrlVariable(vendor),
        `http://127.0.0.1:${ports.apps[mirrorAppName(vendor)]}`,
      ]),
    ),
    ADMIN_HOST: '127.0.0.1',
    ADMIN_PORT: String(ports.admin),
    INTERNAL_PORT: String(ports.gatewayInternal),
    AUTH_CACHE_TTL_MS: String(options.authCacheTtlMs ?? 1000),
    ORG_SETTINGS_TTL_MS: String(options.authCacheTtlMs ?? 1000),
    SIM_TTFA_MS: '5',
    SIM_PACING: '0',
    // A process told to stop finishes its work within this (a test's stop does not wait for the default 20 s).
    DRAIN_MS: '3000',
    CACHE_SWEEP_INTERVAL_MS: '1000',
    // Short, so the orphan sweep's specs see it work; long enough that a loaded machine's take (named as its
    // blob is written, then committed) is never refused as older than the grace: 3 s was not.
    CACHE_ORPHAN_GRACE_MS: '15000',
    // Short, so a test sees a stalled vendor's provider_timeout, yet long enough that a test acting mid-stall
    // (a client's clear or cancel after the first audio) gets there first on a loaded machine.
    SYNTH_FIRST_AUDIO_TIMEOUT_MS: '5000',
    // Every mirror socket idles out within 10 s, so a test sees a vendor's idle close without its minutes.
    MIRROR_SOCKET_IDLE_CAP_MS: '10000',
    CACHE_USAGE_FLUSH_MS: '200',
    // Stored vendor settings re-read every second, so a test sees a change at the vendor take effect.
    STORED_SETTINGS_REFRESH_MS: '1000',
    ...Object.fromEntries(
      VENDOR_TOKENS.map((t) => [
        `VENDOR_${t.toUpperCase()}_BASE_URL`,
        `http://127.0.0.1:${ports.apps['vendor-sim']}/vendor_${t}`,
      ]),
    ),
    ...options.env,
  };
}

export const REPO = REPO_ROOT;
