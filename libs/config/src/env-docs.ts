/**
 * What each variable of the apps' env schemas means, for the configuration reference that tools/deploy-gen
 * writes into docs/operations.md (with the apps that read each and its default, both read from the schemas).
 * Every variable of every schema must match exactly one entry, and every entry some variable: the generator
 * refuses otherwise, so a variable added to a schema is documented here once.
 */
export interface EnvDoc {
  /** The variables of one row: names, or a pattern for a family (one per vendor). */
  readonly variables: readonly string[] | RegExp;
  readonly meaning: string;
  /** Shown instead of the defaults read from the schemas (a default that follows another variable). */
  readonly default?: string;
}

export const ENV_DOCS: readonly EnvDoc[] = [
  {
    variables: ['PORT'],
    meaning: 'listener (health, readiness and metrics are on it too, but for the gateway)',
  },
  { variables: ['HOST'], meaning: 'the address the listener binds' },
  { variables: ['LOG_LEVEL'], meaning: 'pino level' },
  {
    variables: ['DRAIN_MS'],
    meaning:
      'how long a process told to stop (SIGTERM) goes on finishing open replies, socket turns and takes before it closes what is left with the surface\'s going-away code ("Stopping and rolling updates"); a deployment\'s grace period before it kills a process must exceed it (the chart gives `drain.seconds` + `drain.marginSeconds`)',
  },
  {
    variables: ['V8_HEAP_GROWING_PERCENT'],
    meaning:
      "how far a process's old generation may grow past what survived its last full collection before the next one, in percent (0: V8's own policy, ≈10 % under load). The default trades memory for CPU: with V8's policy a worker at 50 concurrent requests ran a full mark-compact of its ≈32 MB heap every few hundred ms (docs/performance.md); at 300 the largest heaps seen were 50–100 MB per process, and V8 keeps the limit at most halfway to the heap's maximum. Lower it where memory is tighter than CPU",
  },
  { variables: ['NATS_URL'], meaning: '`nats://host:4222` (several, comma-separated, for a cluster)' },
  {
    variables: ['NATS_SUBJECT_PREFIX'],
    meaning:
      'keeps several routers on one NATS apart: every subject starts with it (lower-case letters and digits); the synthesis workers of one prefix share their shard leases',
  },
  {
    variables: ['NATS_STREAM_LIVENESS_MS'],
    meaning:
      "a streamed reply whose other end's process has been silent this long is given up (a killed worker is noticed within it); each process heartbeats its peers every quarter of it",
  },
  { variables: ['NATS_RECONNECT_DELAY_MS'], meaning: 'the wait between attempts to reach NATS again' },
  { variables: ['DATABASE_URL'], meaning: '`postgresql://…` (standalone: unset, PGlite in `DATA_DIR/pg`)' },
  {
    variables: ['DATABASE_CONNECT_TIMEOUT_MS'],
    meaning:
      'opening a PostgreSQL connection, or waiting for a free one of the pool, fails past this: a server that accepts connections and never answers is treated as down (docs/operations.md, "A PostgreSQL outage"); unused with PGlite',
  },
  {
    variables: ['DATABASE_QUERY_TIMEOUT_MS'],
    meaning:
      "the server cancels a statement running past this (`statement_timeout`), and the client gives up on an answer 1 s after it (a server that hangs): either fails as the database being down, and the outage's fallbacks answer; unused with PGlite",
  },
  { variables: ['S3_ENDPOINT'], meaning: 'the S3 store holding the audio' },
  { variables: ['S3_ACCESS_KEY', 'S3_SECRET_KEY'], meaning: "the S3 store's credentials" },
  { variables: ['S3_BUCKET'], meaning: 'the audio bucket (created if absent)' },
  { variables: ['S3_REGION'], meaning: "the S3 store's region" },
  {
    variables: ['S3_IDLE_TIMEOUT_MS'],
    meaning:
      'an S3 request that moves no byte either way for this long is given up as the store being out of reach (a store that hangs); a slow transfer that keeps moving is not cut',
  },
  {
    variables: ['INTERNAL_SIGNING_SECRET'],
    meaning:
      '≥ 32 chars, the same in the gateway (signs the identity header) and every app behind it (verifies); standalone: generated into `DATA_DIR`',
  },
  {
    variables: ['IDENTITY_MAX_AGE_MS', 'IDENTITY_MAX_FUTURE_SKEW_MS'],
    meaning:
      "how old the gateway's identity header may be, and how far ahead of the app's clock (at most 1000); keep the hosts' clocks in sync (NTP)",
  },
  {
    variables: ['PROVIDER_KEY_MASTER_KEYS'],
    meaning:
      '`1:<base64 32 bytes>[,2:…]`: the highest version seals stored vendor keys, every listed one opens them (docs/operations.md, "Master-key rotation"); standalone: generated',
  },
  {
    variables: ['CACHE_KEY_SECRET'],
    meaning: '≥ 32 chars, the key of the cache keys; changing it orphans the cache. Standalone: generated',
  },
  { variables: ['NATIVE_API_URL'], meaning: 'native-api, e.g. `http://native-api:3001`' },
  {
    variables: /^MIRROR_VENDOR_[A-Z]_URL$/,
    meaning:
      'one per vendor whose registry entry has a mirror: that mirror app, e.g. `http://mirror-vendor-c:3013`; the gateway routes `/<vendor token>` and below to it. Unset, the vendor has no mirror route: its paths answer 404 `not_found`',
  },
  { variables: ['AUTH_CACHE_TTL_MS'], meaning: 'how long the gateway trusts its memory of a key or org' },
  {
    variables: ['DATABASE_OUTAGE_STALE_MS'],
    meaning:
      'the staleness bound of a PostgreSQL outage: keys, org state and credit, retention and vendor keys a process already holds keep answering while the database cannot be read, for at most this long after they were last read (docs/operations.md, "A PostgreSQL outage")',
  },
  {
    variables: ['INTERNAL_PORT'],
    default: '`PORT`+1',
    meaning:
      "the gateway's `/readyz` and `/metrics` (and `/healthz`); keep it off the load balancer and the public network (the public `PORT` answers `/healthz` only). Unset, it follows `PORT` (`PORT` 0: any free port), so a second router on one machine needs only another `PORT` (and, standalone, another `DATA_DIR`)",
  },
  { variables: ['INTERNAL_HOST'], meaning: 'the address of the internal port (standalone: loopback)' },
  {
    variables: ['TLS_CERT_FILE', 'TLS_KEY_FILE'],
    meaning:
      'the gateway\'s own TLS ("TLS at the gateway"): with both PEM files named (both or neither), HTTPS and wss:// on `TLS_PORT`, serving what `PORT` serves. Standalone: unset, a self-signed certificate made at the first start in `DATA_DIR/tls`',
  },
  { variables: ['TLS_PORT'], default: '`PORT`+3', meaning: 'the TLS listener (on `HOST`)' },
  {
    variables: ['TLS_RELOAD_MS'],
    meaning: 'how often both TLS files are read again (a changed pair is served)',
  },
  {
    variables: ['TLS_SELF_SIGNED'],
    meaning: '`false`: no TLS port unless `TLS_CERT_FILE` and `TLS_KEY_FILE` are named',
  },
  {
    variables: ['MAX_REQUEST_BODY_BYTES'],
    meaning:
      "largest request body the gateway forwards (each is read whole to sign its digest; larger: 413) and a mirror takes; keep it at least the apps' JSON body limit (1 MiB)",
  },
  {
    variables: ['CLIENT_STALL_TIMEOUT_MS'],
    meaning:
      'a client that takes nothing of an HTTP answer for this long is cut, and its reply stops at the app behind as when it leaves (0: held for as long as it stays connected); one that pauses for less, or reads at any pace, gets its whole answer (docs/reliability.md, "Slow readers")',
  },
  {
    variables: ['UPSTREAM_CONNECTIONS'],
    meaning:
      'connections the gateway keeps to each app behind it (native-api, each mirror, the dashboard); an HTTP answer holds one for as long as its client reads it, so slow readers beyond it wait for one: raise it with the number of concurrent slow readers expected (docs/performance.md, "Slow readers")',
  },
  {
    variables: ['MAX_SOCKET_MESSAGE_BYTES'],
    meaning:
      "one WebSocket message's limit on a mirror, and on the gateway for the sockets it relays message by message; a larger one closes the socket with 1009",
  },
  {
    variables: ['MIRROR_SOCKET_IDLE_CAP_MS'],
    meaning:
      "when set (not 0), no mirror socket waits longer than this many ms for its client (a vendor's shorter limit is kept; its idle frames and close code are the vendor's); the e2e stack sets 10000",
  },
  {
    variables: ['ADMIN_HOST', 'ADMIN_TOKEN'],
    meaning: 'the admin API (`npm run admin`); a token is required off loopback',
  },
  {
    variables: ['ADMIN_PORT'],
    meaning: "the admin API's port; standalone: unset, `PORT`+2, and the router prints its address",
  },
  {
    variables: /^VENDOR_[A-Z]_BASE_URL$/,
    meaning:
      "one per vendor: its API base (the simulator's in tests and demos; unset, the vendor's own). The worker synthesizes there; native-api and the mirrors read voice lists and stored settings",
  },
  {
    variables: ['SYNTH_FIRST_AUDIO_TIMEOUT_MS'],
    meaning: 'no audio from the vendor for this long → `provider_timeout`',
  },
  {
    variables: ['SYNTH_TAKE_TIMEOUT_MS'],
    meaning:
      'a take not over after this long → `provider_timeout`, however its audio trickles in (each chunk restarts the first-audio timer); keep it below `SYNTH_CLAIM_STALE_MS`',
  },
  { variables: ['SYNTH_HEARTBEAT_MS'], meaning: 'how often a worker says it is alive on the bus' },
  {
    variables: ['SYNTH_CLAIM_STALE_MS'],
    meaning:
      "a claim on a key's take older than this no longer holds (its worker died unnoticed; longer than any take runs)",
  },
  {
    variables: ['SYNTH_LEASE_MS'],
    meaning:
      "the length of a worker's lease on shards of the cache keys (renewed every fifth of it, trusted for half of it): the lessee claims their keys with no database round trip; 0 leases none (every claim is a statement)",
  },
  {
    variables: ['CACHE_READ_TIMEOUT_MS'],
    meaning:
      "an index or blob read not answered within this is a miss (counted in `router_cache_unreadable_total`) and the piece is synthesized; for the worker, a committed take's blob not read in time is synthesized afresh, uncached",
  },
  { variables: ['PROVIDER_KEY_CACHE_TTL_MS'], meaning: 'how long an opened vendor key is remembered' },
  {
    variables: ['VOICE_LIST_TIMEOUT_MS'],
    meaning: 'a voice list not read whole in time is `provider_timeout`',
  },
  {
    variables: ['STORED_SETTINGS_REFRESH_MS', 'STORED_SETTINGS_READ_TIMEOUT_MS'],
    meaning:
      "settings stored at the vendor (vendor_c voice settings, unversioned dictionaries) are re-read within this; one read's limit",
  },
  {
    variables: ['HOT_TIER_BYTES', 'HOT_TIER_TTL_MS'],
    meaning: "the in-memory tier of recent takes: its size and an entry's life",
  },
  {
    variables: ['LOOK_AHEAD', 'STREAM_WINDOW'],
    meaning:
      'how many sentences a reply starts ahead of the one playing; the chunks a stream sends before it is acknowledged',
  },
  {
    variables: ['WORKER_EXPIRY_MS', 'WORKER_WAIT_MS'],
    meaning:
      'a worker not heard for this long is dropped from the directory; how long a piece waits for the bus and a worker before it fails (retryable)',
  },
  { variables: ['ORG_SETTINGS_TTL_MS'], meaning: "how long an org's settings are remembered" },
  {
    variables: ['CACHE_KEYS_RELOAD_MS'],
    meaning:
      "each org's filter of cached keys (lets a miss skip the index lookup) is rebuilt from the index this often; a lost `cache.committed.v2` event sends repeats of that entry through a worker (which replays it) until then",
  },
  {
    variables: ['STREAM_IDLE_TIMEOUT_MS'],
    meaning: 'a `/v1/stream` connection with no message either way for this long is closed with 4008',
  },
  {
    variables: ['CACHE_SWEEP_INTERVAL_MS'],
    meaning:
      'how often retention and orphan sweeps run (under a day: audio goes within retention plus a day)',
  },
  {
    variables: ['CACHE_ORPHAN_GRACE_MS'],
    meaning:
      "also the longest a take may wait between its blob write and its commit (an older one is refused, since the orphan sweep may have removed it), by the time in its take id: keep the workers' and cache-service's clocks in sync (NTP)",
  },
  { variables: ['CACHE_USAGE_FLUSH_MS'], meaning: 'how often usage counts are written in one batch' },
  {
    variables: ['REQUEST_LOG_RETENTION_DAYS'],
    meaning: "the request log's rows older than this are removed by cache-service's sweep",
  },
  {
    variables: ['REQUEST_LOG_ENABLED'],
    meaning:
      "false: the apps that play replies keep no request log row at all (nothing queued or written; the dashboard's log and breakdowns stay empty); `npm run bench -- --only=request-log` compares the hot hit with it on and off",
  },
  {
    variables: ['REQUEST_LOG_MAX_QUEUED', 'REQUEST_LOG_FLUSH_MS'],
    meaning:
      'request log rows an app holds before dropping more (counted in router_request_log_dropped_total); how often it writes them, in batches',
  },
  { variables: ['DASHBOARD_URL'], meaning: 'the dashboard app (unset: no `/dashboard` or `/api/...`)' },
  { variables: ['API_KEY_LAST_USED_FLUSH_MS'], meaning: "how often API keys' last use is written" },
  {
    variables: ['DASHBOARD_SESSION_TTL_MS', 'SIGN_IN_CODE_TTL_MS'],
    meaning:
      'how long a dashboard session lasts from its sign-in; how long a printed sign-in code works (once)',
  },
  {
    variables: ['SIGN_IN_LIMIT_PER_ADDRESS', 'SIGN_IN_LIMIT_PER_CLIENT', 'SIGN_IN_LIMIT_WINDOW_MS'],
    meaning:
      "sign-in attempts allowed per email address and per client address (the gateway's peer: behind a proxy, every client is the proxy) in each window, per dashboard replica; past either, `429 rate_limited` with `Retry-After`",
  },
  {
    variables: ['ORG_LIMIT_CONCURRENT_SYNTHESES', 'ORG_LIMIT_OPEN_SOCKETS', 'ORG_LIMIT_REQUESTS_PER_SECOND'],
    meaning:
      'each org\'s limits where the org has none of its own (`PATCH /admin/orgs/{id}`): requests in flight that may synthesize (every method but GET and HEAD), open WebSockets, requests and handshakes per second; kept by each gateway replica on its own (docs/operations.md, "Per-org limits"); 0: no limit; past one, `429 rate_limited` with `Retry-After` in the surface\'s shape',
  },
  {
    variables: ['VENDOR_PRICES', 'PRICE_CURRENCY'],
    meaning:
      "`vendor_a=15,vendor_c=180`: each vendor's price per million characters, for the dashboard's estimate of what the cache saved; its currency",
  },
  { variables: ['DASHBOARD_WEB_ROOT'], default: 'beside the app in dist/', meaning: "the front end's build" },
  {
    variables: ['DATA_DIR'],
    meaning:
      "PGlite data, blobs, generated secrets (`secrets.json`, mode 600), the self-signed certificate (`tls/`), and `router.lock`: one router per data directory (a second one started on it refuses to start, naming the holder's pid; a lock whose process is gone is taken over)",
  },
  {
    variables: ['SIM_TTFA_MS', 'SIM_PACING', 'SIM_CHUNK_MS', 'SIM_MS_PER_CHAR'],
    meaning:
      'the simulated vendors: time to first audio, real-time factor (0: as fast as possible), chunk length, audio per character',
  },
];

/** The entry that documents `variable`, or undefined. */
export function envDocOf(variable: string, docs: readonly EnvDoc[] = ENV_DOCS): EnvDoc | undefined {
  return docs.find((doc) =>
    doc.variables instanceof RegExp ? doc.variables.test(variable) : doc.variables.includes(variable),
  );
}
