import {
  mirrorAppEnv,
  mirrorAppName,
  mirrorAppPort,
  mirrorUrlVariable,
  requiredVariables,
} from '@router/config';
import { MIRRORS } from '@router/vendors';

/**
 * The deployable apps and what each must be given. The chart, the compose file and the image are checked against
 * this one table, so a variable added to an app is added here once. The six below are the chart's `apps` (the
 * deployment brief's five and the dashboard); the mirror apps follow from the registry and their settings schema.
 */
export const APP_NAMES = [
  'edge-gateway',
  'native-api',
  'synthesis-worker',
  'cache-service',
  'vendor-sim',
  'dashboard',
] as const;
export type AppName = (typeof APP_NAMES)[number];

/** Variables that only ever come from the Kubernetes Secret (chart) or the operator's .env (compose). */
export const SECRET_VARIABLES = [
  'DATABASE_URL',
  'S3_ACCESS_KEY',
  'S3_SECRET_KEY',
  'INTERNAL_SIGNING_SECRET',
  'PROVIDER_KEY_MASTER_KEYS',
  'CACHE_KEY_SECRET',
  'ADMIN_TOKEN',
] as const;

/** Every app reads these; the deployment sets them from its own port and log level. */
export const ALWAYS_SET = ['PORT', 'LOG_LEVEL'] as const;

export interface AppSpec {
  /** Default PORT, serving /healthz, /readyz and /metrics (and the API where the app has one). */
  readonly port: number;
  /** Variables the app cannot start without. */
  readonly required: readonly string[];
  /** Variables it reads when present. */
  readonly optional: readonly string[];
  /** Whether the chart turns it on by default (the simulator is for demos and tests only). */
  readonly enabledInChart: boolean;
}

/** One mirror app per mirror in the registry (`mirror-vendor-x`): the chart's `mirrors`, compose services. */
export const MIRROR_APP_NAMES: readonly string[] = MIRRORS.map((mirror) => mirrorAppName(mirror.vendor));

/** Every app a deployment runs: the six and the mirror apps. */
export const DEPLOYED_APP_NAMES: readonly string[] = [...APP_NAMES, ...MIRROR_APP_NAMES];

const S3 = ['S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY', 'S3_BUCKET', 'S3_REGION'];
const VENDOR_BASE_URLS = 'ABCDEFGHIJ'.split('').map((letter) => `VENDOR_${letter}_BASE_URL`);

/** The gateway's URL of each mirror app. */
export const MIRROR_URL_VARIABLES: readonly string[] = MIRRORS.map((mirror) =>
  mirrorUrlVariable(mirror.vendor),
);

/** A mirror app's needs, read from the schema it validates at start (libs/config `mirrorAppEnv`). */
function mirrorAppSpec(vendor: (typeof MIRRORS)[number]['vendor']): AppSpec {
  const schema = mirrorAppEnv(vendor);
  const required = requiredVariables(schema);
  return {
    port: mirrorAppPort(vendor),
    required,
    optional: Object.keys(schema).filter((name) => !required.includes(name) && name !== 'PORT'),
    enabledInChart: true,
  };
}

export const APPS: Readonly<Record<string, AppSpec>> = {
  'edge-gateway': {
    port: 8080,
    required: ['NATS_URL', 'DATABASE_URL', 'INTERNAL_SIGNING_SECRET', 'NATIVE_API_URL', 'AUTH_CACHE_TTL_MS'],
    optional: [
      'INTERNAL_PORT',
      'INTERNAL_HOST',
      'MAX_REQUEST_BODY_BYTES',
      'DASHBOARD_URL',
      'API_KEY_LAST_USED_FLUSH_MS',
      ...MIRROR_URL_VARIABLES,
    ],
    enabledInChart: true,
  },
  'native-api': {
    port: 3001,
    required: [
      'NATS_URL',
      'DATABASE_URL',
      ...S3,
      'INTERNAL_SIGNING_SECRET',
      'PROVIDER_KEY_MASTER_KEYS',
      'CACHE_KEY_SECRET',
    ],
    optional: [
      'ADMIN_HOST',
      'ADMIN_PORT',
      'ADMIN_TOKEN',
      'IDENTITY_MAX_AGE_MS',
      'IDENTITY_MAX_FUTURE_SKEW_MS',
      'HOT_TIER_BYTES',
      'HOT_TIER_TTL_MS',
      'CACHE_KEYS_RELOAD_MS',
      'CACHE_READ_TIMEOUT_MS',
      'WORKER_EXPIRY_MS',
      'WORKER_WAIT_MS',
      'STREAM_WINDOW',
      'LOOK_AHEAD',
      'ORG_SETTINGS_TTL_MS',
      'STREAM_IDLE_TIMEOUT_MS',
      // Voice lists and stored-settings reads call the vendors from the native API.
      ...VENDOR_BASE_URLS,
      'PROVIDER_KEY_CACHE_TTL_MS',
      'VOICE_LIST_TIMEOUT_MS',
      'STORED_SETTINGS_REFRESH_MS',
      'STORED_SETTINGS_READ_TIMEOUT_MS',
    ],
    enabledInChart: true,
  },
  'synthesis-worker': {
    port: 3002,
    required: ['NATS_URL', 'DATABASE_URL', ...S3, 'PROVIDER_KEY_MASTER_KEYS'],
    optional: [
      ...VENDOR_BASE_URLS,
      'SYNTH_FIRST_AUDIO_TIMEOUT_MS',
      'SYNTH_HEARTBEAT_MS',
      'SYNTH_CLAIM_STALE_MS',
      'SYNTH_LEASE_MS',
      'CACHE_READ_TIMEOUT_MS',
      'PROVIDER_KEY_CACHE_TTL_MS',
    ],
    enabledInChart: true,
  },
  'cache-service': {
    port: 3003,
    required: ['NATS_URL', 'DATABASE_URL', ...S3],
    optional: [],
    enabledInChart: true,
  },
  'vendor-sim': { port: 4010, required: [], optional: [], enabledInChart: false },
  dashboard: {
    port: 3004,
    required: ['NATS_URL', 'DATABASE_URL', 'INTERNAL_SIGNING_SECRET'],
    optional: [
      'IDENTITY_MAX_AGE_MS',
      'IDENTITY_MAX_FUTURE_SKEW_MS',
      'DASHBOARD_SESSION_TTL_MS',
      'SIGN_IN_CODE_TTL_MS',
      'VENDOR_PRICES',
      'PRICE_CURRENCY',
    ],
    enabledInChart: true,
  },
  ...Object.fromEntries(
    MIRRORS.map((mirror) => [mirrorAppName(mirror.vendor), mirrorAppSpec(mirror.vendor)]),
  ),
};

/** An app of the table by name; throws for a name it does not have. */
export function appSpec(name: string): AppSpec {
  const spec = APPS[name];
  if (!spec) throw new Error(`No app ${name} in the apps table`);
  return spec;
}

/** The secret variables an app reads, required or optional. */
export function secretsOf(app: AppSpec): string[] {
  const secrets: readonly string[] = SECRET_VARIABLES;
  return [...app.required, ...app.optional].filter((name) => secrets.includes(name));
}
