import { env } from './env-schema';

/**
 * How long a process told to stop (SIGTERM) goes on finishing what it had (open replies, socket sentences,
 * takes) before it closes what is left with the surface's going-away code; read by `runService`. A deployment
 * gives each process at least this long before it kills it (Kubernetes' terminationGracePeriodSeconds).
 */
export const drainEnv = {
  DRAIN_MS: env.int({ default: 20_000, min: 0, max: 600_000 }),
};

/** Variables shared by several apps, so each is spelled and checked one way everywhere. */
export const commonEnv = {
  ...drainEnv,
  LOG_LEVEL: env.oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, {
    default: 'info',
  }),
};

/**
 * Read by every process as it starts (`runService`), before its own variables. The heap's growth before a
 * full collection, in percent of what survived the last one; 0 keeps V8's own policy (docs/operations.md).
 */
export const runtimeEnv = {
  V8_HEAP_GROWING_PERCENT: env.int({ default: 300, min: 0, max: 1000 }),
};

export const natsEnv = {
  NATS_URL: env.url({ protocols: ['nats', 'tls'] }),
  /** Keeps several routers on one NATS apart: every subject starts with it (lower-case letters and digits). */
  NATS_SUBJECT_PREFIX: env.optionalString(),
  /**
   * Each end of a streamed reply gives up on the other after this much silence (each says it is alive at a
   * third of it): how soon a requester notices a worker that died mid-take.
   */
  NATS_STREAM_LIVENESS_MS: env.int({ default: 1500, min: 30 }),
  /** Wait between attempts to reach NATS again after it went away. */
  NATS_RECONNECT_DELAY_MS: env.int({ default: 250, min: 10 }),
};

/**
 * The gateway's own TLS (docs/operations.md, "TLS at the gateway"), declared after `PORT`: with a certificate
 * and its key named (PEM files), the gateway also listens on TLS_PORT (PORT+3 unless set) for HTTPS and
 * wss://, serving what PORT serves, and reads both files again every TLS_RELOAD_MS: a changed pair is served
 * from the next connection on.
 */
export const gatewayTlsEnv = {
  TLS_CERT_FILE: env.optionalString(),
  TLS_KEY_FILE: env.optionalStringWith('TLS_CERT_FILE'),
  TLS_PORT: env.portBeside('PORT', 3),
  TLS_RELOAD_MS: env.int({ default: 60_000, min: 100 }),
};

/** The gateway's TLS listener from a config that includes `gatewayTlsEnv` (and `HOST`); none without files. */
export function gatewayTls(config: {
  TLS_CERT_FILE: string | undefined;
  TLS_KEY_FILE: string | undefined;
  TLS_PORT: number;
  TLS_RELOAD_MS: number;
  HOST: string;
}): { port: number; host: string; certFile: string; keyFile: string; reloadMs: number } | undefined {
  if (config.TLS_CERT_FILE === undefined || config.TLS_KEY_FILE === undefined) return undefined;
  return {
    port: config.TLS_PORT,
    host: config.HOST,
    certFile: config.TLS_CERT_FILE,
    keyFile: config.TLS_KEY_FILE,
    reloadMs: config.TLS_RELOAD_MS,
  };
}

/**
 * Bounds on every wait for PostgreSQL (docs/operations.md, "A PostgreSQL outage"): a server that accepts
 * connections and never answers, or never finishes a statement, fails the query within them, and the outage's
 * fallbacks answer as for a server that is down.
 */
export const databaseTimeoutEnv = {
  DATABASE_CONNECT_TIMEOUT_MS: env.int({ default: 5000, min: 10 }),
  DATABASE_QUERY_TIMEOUT_MS: env.int({ default: 5000, min: 10 }),
};

export const databaseEnv = {
  DATABASE_URL: env.url({ protocols: ['postgresql', 'postgres'] }),
  ...databaseTimeoutEnv,
};

/** The pool's timeouts from a config that includes `databaseTimeoutEnv`. */
export function databaseTimeouts(config: {
  DATABASE_CONNECT_TIMEOUT_MS: number;
  DATABASE_QUERY_TIMEOUT_MS: number;
}): {
  connectTimeoutMs: number;
  queryTimeoutMs: number;
} {
  return {
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
    queryTimeoutMs: config.DATABASE_QUERY_TIMEOUT_MS,
  };
}

export const s3Env = {
  S3_ENDPOINT: env.url({ protocols: ['http', 'https'] }),
  S3_ACCESS_KEY: env.string(),
  S3_SECRET_KEY: env.string(),
  S3_BUCKET: env.string({ default: 'router-audio' }),
  S3_REGION: env.string({ default: 'us-east-1' }),
  S3_IDLE_TIMEOUT_MS: env.int({ default: 5000, min: 100, max: 600_000 }),
};

export const signingEnv = {
  /** Shared by the gateway (signs) and every app behind it (verifies). */
  INTERNAL_SIGNING_SECRET: env.string({ minLength: 32 }),
};

/**
 * How an app behind the gateway judges the age of the gateway's identity header: the same request (its body
 * included) can be replayed within the age, so it is short; a clock ahead of this host's by more than the skew
 * (at most a second: NTP keeps hosts far closer) is refused as well.
 */
export const identityEnv = {
  IDENTITY_MAX_AGE_MS: env.int({ default: 2000, min: 100, max: 60_000 }),
  IDENTITY_MAX_FUTURE_SKEW_MS: env.int({ default: 1000, min: 0, max: 1000 }),
};

export function identityPolicy(config: {
  INTERNAL_SIGNING_SECRET: string;
  IDENTITY_MAX_AGE_MS: number;
  IDENTITY_MAX_FUTURE_SKEW_MS: number;
}): { secret: string; maxAgeMs: number; maxFutureSkewMs: number } {
  return {
    secret: config.INTERNAL_SIGNING_SECRET,
    maxAgeMs: config.IDENTITY_MAX_AGE_MS,
    maxFutureSkewMs: config.IDENTITY_MAX_FUTURE_SKEW_MS,
  };
}

export const providerKeyEnv = {
  /** `1:<base64 of 32 bytes>[,2:<...>]`; the highest version encrypts, every listed one decrypts. */
  PROVIDER_KEY_MASTER_KEYS: env.string(),
};

/**
 * Each vendor token's letter, in the spec's order: the one hand-written list of vendors (vendors/core spells
 * `VENDOR_IDS` from it; the registry's entries are keyed by those). Adding a vendor adds its letter here.
 */
export const VENDOR_TOKENS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'] as const;
/** `vendor_a` …, the tokens of `VENDOR_TOKENS`; core's `VendorId` is this type. */
export type VendorToken = `vendor_${(typeof VENDOR_TOKENS)[number]}`;

/** A vendor's API base variable: `VENDOR_X_BASE_URL` for `vendor_x`. */
export function vendorBaseUrlVariable(vendor: string): string {
  return `VENDOR_${vendor.slice('vendor_'.length).toUpperCase()}_BASE_URL`;
}

/** `VENDOR_A_BASE_URL` … `VENDOR_J_BASE_URL`: each vendor's API base (the simulator's, in tests and demos). */
export const vendorUpstreamEnv = Object.fromEntries(
  VENDOR_TOKENS.map((t) => [
    vendorBaseUrlVariable(`vendor_${t}`),
    env.optionalUrl({ protocols: ['http', 'https'] }),
  ]),
) as Record<
  `VENDOR_${Uppercase<(typeof VENDOR_TOKENS)[number]>}_BASE_URL`,
  ReturnType<typeof env.optionalUrl>
>;

/** The configured base URLs keyed by vendor token (`vendor_a` …), leaving out the ones not set. */
export function vendorBaseUrls(config: Record<string, unknown>): Partial<Record<VendorToken, string>> {
  const urls: Partial<Record<VendorToken, string>> = {};
  for (const t of VENDOR_TOKENS) {
    const value = config[vendorBaseUrlVariable(`vendor_${t}`)];
    if (typeof value === 'string') urls[`vendor_${t}`] = value;
  }
  return urls;
}

/**
 * What the native API reads from vendors itself (voice lists, stored settings), with the org's stored key:
 * how long an opened key is remembered and how long a read may take.
 */
export const vendorReadEnv = {
  PROVIDER_KEY_CACHE_TTL_MS: env.int({ default: 5000, min: 0 }),
  VOICE_LIST_TIMEOUT_MS: env.int({ default: 10_000, min: 10 }),
  /** Settings stored at the vendor (vendor_c voice settings, unversioned dictionaries) are re-read this often. */
  STORED_SETTINGS_REFRESH_MS: env.int({ default: 60_000, min: 100 }),
  STORED_SETTINGS_READ_TIMEOUT_MS: env.int({ default: 5000, min: 10 }),
};

/**
 * The staleness bound of a PostgreSQL outage: what a process already holds (keys, org state and credit,
 * retention, vendor keys) keeps answering while the database cannot be read, for at most this long after it
 * was last read (docs/operations.md, "A PostgreSQL outage").
 */
export const outageEnv = {
  DATABASE_OUTAGE_STALE_MS: env.int({ default: 600_000, min: 0 }),
};

/** What every app that serves audio reads: the cache-key secret and the pipeline's bounds and timings. */
export const pipelineEnv = {
  ...outageEnv,
  /** The key of the cache's keyed hash; the same in every process that serves or synthesizes audio. */
  CACHE_KEY_SECRET: env.string({ minLength: 32 }),
  HOT_TIER_BYTES: env.int({ default: 64 * 1024 * 1024, min: 0 }),
  HOT_TIER_TTL_MS: env.int({ default: 60_000, min: 0 }),
  /** Each org's filter of cached keys (which lets a miss skip the index lookup) is rebuilt this often. */
  CACHE_KEYS_RELOAD_MS: env.int({ default: 300_000, min: 100 }),
  /** A cache index or blob read that has not answered within this is a miss (the piece is synthesized). */
  CACHE_READ_TIMEOUT_MS: env.int({ default: 2000, min: 10 }),
  WORKER_EXPIRY_MS: env.int({ default: 3500, min: 100 }),
  /** How long a piece waits for the bus to be connected and a worker known before it fails (retryable). */
  WORKER_WAIT_MS: env.int({ default: 2000, min: 0 }),
  STREAM_WINDOW: env.int({ default: 16, min: 1, max: 4096 }),
  LOOK_AHEAD: env.int({ default: 2, min: 0, max: 16 }),
  ORG_SETTINGS_TTL_MS: env.int({ default: 5000, min: 0 }),
  /** A WebSocket (`/v1/stream`) with no message either way for this long is closed (4008). */
  STREAM_IDLE_TIMEOUT_MS: env.int({ default: 300_000, min: 100 }),
};

/** The pipeline settings from a config that includes `pipelineEnv`. */
export function pipelineSettings(config: {
  HOT_TIER_BYTES: number;
  HOT_TIER_TTL_MS: number;
  WORKER_EXPIRY_MS: number;
  WORKER_WAIT_MS: number;
  STREAM_WINDOW: number;
  CACHE_KEYS_RELOAD_MS: number;
  CACHE_READ_TIMEOUT_MS: number;
}): {
  hotTierBytes: number;
  hotTierTtlMs: number;
  workerExpiryMs: number;
  workerWaitMs: number;
  streamWindow: number;
  cacheKeysReloadMs: number;
  cacheReadTimeoutMs: number;
} {
  return {
    hotTierBytes: config.HOT_TIER_BYTES,
    hotTierTtlMs: config.HOT_TIER_TTL_MS,
    workerExpiryMs: config.WORKER_EXPIRY_MS,
    workerWaitMs: config.WORKER_WAIT_MS,
    streamWindow: config.STREAM_WINDOW,
    cacheKeysReloadMs: config.CACHE_KEYS_RELOAD_MS,
    cacheReadTimeoutMs: config.CACHE_READ_TIMEOUT_MS,
  };
}

/** The largest request body: the gateway reads each whole (it signs its digest), and a mirror takes as much. */
export const requestBodyEnv = {
  MAX_REQUEST_BODY_BYTES: env.int({ default: 1024 * 1024, min: 1024 }),
};

/**
 * How long the gateway holds a client that takes nothing of an HTTP answer (0: for as long as it stays
 * connected). A reader that pauses for less, or reads at any pace, gets its whole answer.
 */
export const clientStallEnv = {
  CLIENT_STALL_TIMEOUT_MS: env.int({ default: 120_000, min: 0 }),
};

/**
 * What an app that plays replies wires once (libs/pipeline `startReplyServices`), from a config that includes
 * `pipelineEnv`, `vendorUpstreamEnv` and `vendorReadEnv`.
 */
export function replyServicesSettings(
  config: Parameters<typeof pipelineSettings>[0] & {
    CACHE_KEY_SECRET: string;
    ORG_SETTINGS_TTL_MS: number;
    PROVIDER_KEY_CACHE_TTL_MS: number;
    STORED_SETTINGS_REFRESH_MS: number;
    STORED_SETTINGS_READ_TIMEOUT_MS: number;
    DATABASE_OUTAGE_STALE_MS: number;
    REQUEST_LOG_ENABLED?: boolean;
    REQUEST_LOG_MAX_QUEUED?: number;
    REQUEST_LOG_FLUSH_MS?: number;
  },
): {
  cacheKeySecret: string;
  pipeline: ReturnType<typeof pipelineSettings>;
  orgSettingsTtlMs: number;
  vendorBaseUrls: ReturnType<typeof vendorBaseUrls>;
  providerKeyCacheTtlMs: number;
  storedSettingsRefreshMs: number;
  storedSettingsReadTimeoutMs: number;
  outageStaleMs: number;
  requestLog: { enabled?: boolean; maxQueued?: number; flushMs?: number };
} {
  return {
    cacheKeySecret: config.CACHE_KEY_SECRET,
    pipeline: pipelineSettings(config),
    orgSettingsTtlMs: config.ORG_SETTINGS_TTL_MS,
    vendorBaseUrls: vendorBaseUrls(config),
    providerKeyCacheTtlMs: config.PROVIDER_KEY_CACHE_TTL_MS,
    storedSettingsRefreshMs: config.STORED_SETTINGS_REFRESH_MS,
    storedSettingsReadTimeoutMs: config.STORED_SETTINGS_READ_TIMEOUT_MS,
    outageStaleMs: config.DATABASE_OUTAGE_STALE_MS,
    requestLog: {
      ...(config.REQUEST_LOG_ENABLED === undefined ? {} : { enabled: config.REQUEST_LOG_ENABLED }),
      ...(config.REQUEST_LOG_MAX_QUEUED === undefined ? {} : { maxQueued: config.REQUEST_LOG_MAX_QUEUED }),
      ...(config.REQUEST_LOG_FLUSH_MS === undefined ? {} : { flushMs: config.REQUEST_LOG_FLUSH_MS }),
    },
  };
}

/** What every app that plays replies reads (the native API, each mirror), besides its own settings. */
/** The request log's writer in every app that plays replies (`RequestLogWriter`, libs/pipeline). */
export const requestLogEnv = {
  /** false: no row is kept at all (nothing queued, written or counted); to measure what the log costs. */
  REQUEST_LOG_ENABLED: env.bool({ default: true }),
  /** Rows waiting to be written at most; past it a row is dropped and counted (router_request_log_dropped_total). */
  REQUEST_LOG_MAX_QUEUED: env.int({ default: 10_000, min: 1 }),
  /** How often waiting rows are written, in batches of at most 500. */
  REQUEST_LOG_FLUSH_MS: env.int({ default: 1000, min: 10 }),
};

/** How long the request log keeps a row (cache-service's sweep removes older ones). */
export const requestLogRetentionEnv = {
  REQUEST_LOG_RETENTION_DAYS: env.int({ default: 30, min: 1, max: 3650 }),
};

export const replyAppEnv = {
  ...commonEnv,
  ...natsEnv,
  ...databaseEnv,
  ...s3Env,
  ...signingEnv,
  ...identityEnv,
  ...providerKeyEnv,
  ...pipelineEnv,
  ...vendorUpstreamEnv,
  ...vendorReadEnv,
  ...requestLogEnv,
};

/**
 * Dashboard sign-in, read by the dashboard app (sessions) and native-api (its admin API prints sign-in codes,
 * its provider-key endpoints take sessions): how long a session lasts from its sign-in, and a printed code.
 */
export const sessionEnv = {
  DASHBOARD_SESSION_TTL_MS: env.int({ default: 12 * 3_600_000, min: 1000 }),
  SIGN_IN_CODE_TTL_MS: env.int({ default: 24 * 3_600_000, min: 1000 }),
};

export function sessionSettings(config: { DASHBOARD_SESSION_TTL_MS: number; SIGN_IN_CODE_TTL_MS: number }): {
  sessionTtlMs: number;
  signInCodeTtlMs: number;
} {
  return { sessionTtlMs: config.DASHBOARD_SESSION_TTL_MS, signInCodeTtlMs: config.SIGN_IN_CODE_TTL_MS };
}
