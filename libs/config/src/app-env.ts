import {
  commonEnv,
  databaseEnv,
  databaseTimeoutEnv,
  gatewayTlsEnv,
  identityEnv,
  natsEnv,
  outageEnv,
  pipelineEnv,
  providerKeyEnv,
  replyAppEnv,
  requestBodyEnv,
  clientStallEnv,
  requestLogEnv,
  requestLogRetentionEnv,
  runtimeEnv,
  s3Env,
  sessionEnv,
  signingEnv,
  vendorReadEnv,
  vendorUpstreamEnv,
  type VendorToken,
} from './common-env';
import { ConfigError, env, type EnvReader, type EnvSchema } from './env-schema';
import { mirrorAppEnv, mirrorAppName, mirrorUpstreamEnv } from './mirror-env';

/**
 * Each app's environment, declared here rather than in its main.ts so that the configuration reference
 * (docs/operations.md, the chart's values.yaml) is generated from the very schemas the apps validate at start
 * (tools/deploy-gen), and the deployment checks read what each app requires from them.
 */

/** The operator's prices, read by the dashboard app (and the standalone router). */
export const dashboardPriceEnv = {
  /** `vendor_a=15,vendor_c=180`: each vendor's price per million characters; unset, no saving is estimated. */
  VENDOR_PRICES: env.optionalString(),
  PRICE_CURRENCY: env.string({ default: 'USD' }),
};

/** `SIGN_IN_LIMIT_*`: how many sign-ins an address and a client get per window before a 429. */
export const signInLimitEnv = {
  SIGN_IN_LIMIT_PER_ADDRESS: env.int({ default: 10, min: 1 }),
  SIGN_IN_LIMIT_PER_CLIENT: env.int({ default: 50, min: 1 }),
  SIGN_IN_LIMIT_WINDOW_MS: env.int({ default: 15 * 60_000, min: 1000 }),
};

/**
 * `ORG_LIMIT_*`: each org's limits where the org has none of its own (set per org through the admin API), kept
 * by each gateway replica on its own (docs/operations.md, "Per-org limits"); 0: no limit. Past one, `429
 * rate_limited` with `Retry-After`, in the surface's shape.
 */
export const orgLimitEnv = {
  /** Requests in flight at once that may synthesize (every method but GET and HEAD), per org. */
  ORG_LIMIT_CONCURRENT_SYNTHESES: env.int({ default: 64, min: 0 }),
  /** WebSockets open at once (`/v1/stream` and every mirror's), per org. */
  ORG_LIMIT_OPEN_SOCKETS: env.int({ default: 256, min: 0 }),
  /** Requests and handshakes per second (a burst of one second's worth allowed), per org. */
  ORG_LIMIT_REQUESTS_PER_SECOND: env.int({ default: 200, min: 0 }),
};

/** The per-org limits' defaults as the gateway takes them (0 in the environment: none). */
export function orgLimitDefaults(config: {
  ORG_LIMIT_CONCURRENT_SYNTHESES: number;
  ORG_LIMIT_OPEN_SOCKETS: number;
  ORG_LIMIT_REQUESTS_PER_SECOND: number;
}): { concurrentSyntheses: number; openSockets: number; requestsPerSecond: number } {
  return {
    concurrentSyntheses: config.ORG_LIMIT_CONCURRENT_SYNTHESES,
    openSockets: config.ORG_LIMIT_OPEN_SOCKETS,
    requestsPerSecond: config.ORG_LIMIT_REQUESTS_PER_SECOND,
  };
}

function nonNegativeNumber(options: { default: number }): EnvReader<number> {
  return (raw, name) => {
    if (raw === undefined || raw.trim() === '') return options.default;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0)
      throw new ConfigError([`${name} must be a number >= 0, got "${raw}"`]);
    return value;
  };
}

/** The simulator's own variables; their defaults are the simulator's (a vendor-sim spec holds them equal). */
export const vendorSimEnv = {
  /** Time to first audio, ms. */
  SIM_TTFA_MS: env.int({ default: 5, min: 0 }),
  /** Real-time factor: 1 = audio at playback speed, 0 = as fast as possible. */
  SIM_PACING: nonNegativeNumber({ default: 0 }),
  SIM_CHUNK_MS: env.int({ default: 100, min: 1 }),
  SIM_MS_PER_CHAR: env.int({ default: 60, min: 1 }),
};

export function edgeGatewayEnv(mirrorVendors: readonly VendorToken[]) {
  return {
    ...commonEnv,
    ...natsEnv,
    ...databaseEnv,
    ...signingEnv,
    PORT: env.int({ default: 8080, min: 0, max: 65535 }),
    HOST: env.string({ default: '0.0.0.0' }),
    // Readiness and metrics: not to be published beside PORT (PORT+1 unless set).
    INTERNAL_PORT: env.portBeside('PORT', 1),
    INTERNAL_HOST: env.string({ default: '0.0.0.0' }),
    // HTTPS and wss:// on TLS_PORT (PORT+3 unless set) with TLS_CERT_FILE and TLS_KEY_FILE, reloaded as they change.
    ...gatewayTlsEnv,
    NATIVE_API_URL: env.url({ protocols: ['http'] }),
    ...mirrorUpstreamEnv(mirrorVendors),
    /** The dashboard app; unset, the gateway serves no `/dashboard` or `/api/...`. */
    DASHBOARD_URL: env.optionalUrl({ protocols: ['http'] }),
    API_KEY_LAST_USED_FLUSH_MS: env.int({ default: 30_000, min: 10 }),
    AUTH_CACHE_TTL_MS: env.int({ default: 5000, min: 50 }),
    ...outageEnv,
    ...requestBodyEnv,
    MAX_SOCKET_MESSAGE_BYTES: env.int({ default: 256 * 1024, min: 1024 }),
    ...clientStallEnv,
    /**
     * Connections the gateway keeps to each app behind it; an HTTP answer holds one for as long as its client
     * reads, and a request beyond them waits for one.
     */
    UPSTREAM_CONNECTIONS: env.int({ default: 256, min: 1, max: 65_536 }),
    ...orgLimitEnv,
  };
}

export const nativeApiEnv = {
  ...replyAppEnv,
  ...sessionEnv,
  PORT: env.int({ default: 3001, min: 0, max: 65535 }),
  HOST: env.string({ default: '0.0.0.0' }),
  ADMIN_PORT: env.int({ default: 3100, min: 0, max: 65535 }),
  ADMIN_HOST: env.string({ default: '127.0.0.1' }),
  ADMIN_TOKEN: env.optionalString(),
};

export const synthesisWorkerEnv = {
  ...commonEnv,
  ...natsEnv,
  ...databaseEnv,
  ...s3Env,
  ...providerKeyEnv,
  ...vendorUpstreamEnv,
  PORT: env.int({ default: 3002, min: 0, max: 65535 }),
  HOST: env.string({ default: '0.0.0.0' }),
  SYNTH_FIRST_AUDIO_TIMEOUT_MS: env.int({ default: 10_000, min: 10 }),
  /** The longest a take may run, however its audio trickles in; shorter than SYNTH_CLAIM_STALE_MS. */
  SYNTH_TAKE_TIMEOUT_MS: env.int({ default: 90_000, min: 10 }),
  SYNTH_HEARTBEAT_MS: env.int({ default: 1000, min: 50 }),
  /** A claim on a key's take older than this no longer holds (its worker died unnoticed). */
  SYNTH_CLAIM_STALE_MS: env.int({ default: 120_000, min: 100 }),
  /** The length of a worker's lease on shards of the cache keys (claimed with no round trip); 0 leases none. */
  SYNTH_LEASE_MS: env.int({ default: 10_000, min: 0 }),
  /** A committed take's blob not read within this is synthesized afresh, uncached. */
  CACHE_READ_TIMEOUT_MS: env.int({ default: 2000, min: 10 }),
  PROVIDER_KEY_CACHE_TTL_MS: env.int({ default: 5000, min: 0 }),
  ...outageEnv,
};

export const cacheServiceEnv = {
  ...commonEnv,
  ...natsEnv,
  ...databaseEnv,
  ...s3Env,
  PORT: env.int({ default: 3003, min: 0, max: 65535 }),
  HOST: env.string({ default: '0.0.0.0' }),
  // Under a day, so that audio goes within retention plus one day of its last use.
  CACHE_SWEEP_INTERVAL_MS: env.int({ default: 3_600_000, min: 1000, max: 43_200_000 }),
  CACHE_ORPHAN_GRACE_MS: env.int({ default: 900_000, min: 0 }),
  CACHE_USAGE_FLUSH_MS: env.int({ default: 2000, min: 10 }),
  ...requestLogRetentionEnv,
};

/** `webRoot`: the front end's build, beside the app's code in dist/ (tools/build/build.mjs puts it there). */
export function dashboardEnv(webRoot: string) {
  return {
    ...commonEnv,
    ...natsEnv,
    ...databaseEnv,
    ...signingEnv,
    ...identityEnv,
    ...sessionEnv,
    ...dashboardPriceEnv,
    ...signInLimitEnv,
    PORT: env.int({ default: 3004, min: 0, max: 65535 }),
    HOST: env.string({ default: '0.0.0.0' }),
    DASHBOARD_WEB_ROOT: env.string({ default: webRoot }),
  };
}

export const vendorSimAppEnv = {
  ...commonEnv,
  ...vendorSimEnv,
  PORT: env.int({ default: 4010, min: 0, max: 65535 }),
  HOST: env.string({ default: '0.0.0.0' }),
};

/**
 * Every app in one process (`npm start`), with embedded defaults; `webRoot` is the dashboard's front end.
 */
export function standaloneEnv(webRoot: string) {
  return {
    ...commonEnv,
    PORT: env.int({ default: 8080, min: 0, max: 65535 }),
    HOST: env.string({ default: '0.0.0.0' }),
    // Readiness and metrics: not to be published beside PORT. Both ports follow PORT unless set, so a second
    // router on the machine needs only another PORT and another DATA_DIR (one router per data directory).
    INTERNAL_PORT: env.portBeside('PORT', 1),
    INTERNAL_HOST: env.string({ default: '127.0.0.1' }),
    ADMIN_PORT: env.portBeside('PORT', 2),
    // HTTPS and wss:// on TLS_PORT (PORT+3) with TLS_CERT_FILE and TLS_KEY_FILE, else a self-signed certificate.
    ...gatewayTlsEnv,
    TLS_SELF_SIGNED: env.bool({ default: true }),
    DATA_DIR: env.string({ default: '.router' }),
    DATABASE_URL: env.optionalUrl({ protocols: ['postgresql', 'postgres'] }),
    ...databaseTimeoutEnv,
    INTERNAL_SIGNING_SECRET: env.optionalString(),
    ...identityEnv,
    PROVIDER_KEY_MASTER_KEYS: env.optionalString(),
    AUTH_CACHE_TTL_MS: env.int({ default: 5000, min: 50 }),
    ...requestBodyEnv,
    MAX_SOCKET_MESSAGE_BYTES: env.int({ default: 256 * 1024, min: 1024 }),
    ...clientStallEnv,
    ...vendorUpstreamEnv,
    ...vendorReadEnv,
    ...pipelineEnv,
    ...requestLogEnv,
    ...requestLogRetentionEnv,
    ...sessionEnv,
    ...dashboardPriceEnv,
    ...signInLimitEnv,
    ...orgLimitEnv,
    DASHBOARD_WEB_ROOT: env.string({ default: webRoot }),
    // Generated and kept in DATA_DIR when not given, like the other secrets.
    CACHE_KEY_SECRET: env.optionalString(),
    SYNTH_FIRST_AUDIO_TIMEOUT_MS: env.int({ default: 10_000, min: 10 }),
    SYNTH_TAKE_TIMEOUT_MS: env.int({ default: 90_000, min: 10 }),
  };
}

/** Where the dashboard's front end is for the configuration reference (a path inside dist/ at run time). */
const WEB_ROOT_IN_DIST = 'dist/apps/dashboard/web';

/**
 * Every app's full environment by app name, the mirror apps of `mirrorVendors` included, each with what every
 * process reads first (`runtimeEnv`, read by `runService`): what the configuration reference documents.
 */
export function appEnvSchemas(mirrorVendors: readonly VendorToken[]): Record<string, EnvSchema> {
  const apps: Record<string, EnvSchema> = {
    'edge-gateway': edgeGatewayEnv(mirrorVendors),
    'native-api': nativeApiEnv,
    'synthesis-worker': synthesisWorkerEnv,
    'cache-service': cacheServiceEnv,
    dashboard: dashboardEnv(WEB_ROOT_IN_DIST),
    'vendor-sim': vendorSimAppEnv,
    standalone: standaloneEnv(WEB_ROOT_IN_DIST),
    ...Object.fromEntries(mirrorVendors.map((vendor) => [mirrorAppName(vendor), mirrorAppEnv(vendor)])),
  };
  return Object.fromEntries(
    Object.entries(apps).map(([name, schema]) => [name, { ...runtimeEnv, ...schema }]),
  );
}
