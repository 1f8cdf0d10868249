import {
  appEnvSchemas,
  mirrorAppName,
  mirrorUrlVariable,
  requiredVariables,
  variableDefaults,
} from '@router/config';
import { MIRRORS } from '@router/vendors';

/**
 * The deployable apps and what each must be given, read from the apps' own env schemas (libs/config): the chart,
 * the compose file and the image are checked against this one table. The six below are the chart's `apps`; the
 * mirror apps follow from the registry.
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

/** The gateway's URL of each mirror app. */
export const MIRROR_URL_VARIABLES: readonly string[] = MIRRORS.map((mirror) =>
  mirrorUrlVariable(mirror.vendor),
);

/** Every app's env schema, the very ones the apps validate at start (libs/config `appEnvSchemas`). */
const SCHEMAS = appEnvSchemas(MIRRORS.map((mirror) => mirror.vendor));

/** An app's needs, read from its schema: what it cannot start without, what it reads when present. */
function specFromSchema(name: string, enabledInChart: boolean): AppSpec {
  const schema = SCHEMAS[name];
  if (!schema) throw new Error(`libs/config has no env schema for ${name}`);
  const required = requiredVariables(schema);
  const unsetPort = variableDefaults(schema).PORT;
  if (unsetPort?.required !== false || typeof unsetPort.value !== 'number') {
    throw new Error(`${name}'s schema has no default PORT`);
  }
  return {
    port: unsetPort.value,
    required,
    optional: Object.keys(schema).filter((variable) => !required.includes(variable) && variable !== 'PORT'),
    enabledInChart,
  };
}

/** The simulator is for demos and tests: the chart leaves it off. */
export const APPS: Readonly<Record<string, AppSpec>> = Object.fromEntries(
  DEPLOYED_APP_NAMES.map((name) => [name, specFromSchema(name, name !== 'vendor-sim')]),
);

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
