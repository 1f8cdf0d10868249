// Checks the Helm chart without helm (none on the development machines): the values against the chart's own
// JSON schema, the schema's strictness one rule at a time, and the templates' structure. Reads repo files only.
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import {
  APP_NAMES,
  APPS,
  appSpec,
  DEPLOYED_APP_NAMES,
  MIRROR_APP_NAMES,
  MIRROR_URL_VARIABLES,
  SECRET_VARIABLES,
  secretsOf,
} from './apps-table';
import { chartApps } from './chart-apps';
import { chartEnvNames, configMapDataKeys, type ChartAppEnv } from './env-names';

const repoRoot = join(__dirname, '..', '..', '..');
const chartDir = join(repoRoot, 'deploy', 'helm', 'router');
const read = (...parts: string[]): string => readFileSync(join(chartDir, ...parts), 'utf8');

interface ChartApp extends ChartAppEnv {
  enabled: boolean;
  replicas: number;
  port: number;
  internalPort?: number;
  image: { repository?: string; tag?: string };
  service?: { type?: string; nodePort?: number };
  resources: { requests?: Record<string, string | number>; limits?: Record<string, string | number> };
  env: Record<string, unknown>;
  secretEnv: string[];
  extraEnv?: { name: string; value?: string; valueFrom?: object }[];
  mirrorUrls?: boolean;
}

/** One entry of `mirrors`: its own enabled, port and image, and any key of mirrorDefaults it overrides. */
interface ChartMirror {
  [key: string]: unknown;
  enabled: boolean;
  port: number;
  image: { repository?: string; tag?: string };
}

interface ChartValues {
  [key: string]: unknown;
  global: { [key: string]: unknown; logLevel: string; image: { registry: string; pullSecrets?: string[] } };
  secrets: { existingSecret: string; keys: Record<string, string> };
  nats: { url: string };
  s3: { endpoint: string; region: string; bucket: string };
  probes: Record<'startup' | 'liveness' | 'readiness', { failureThreshold: number }>;
  migration: { enabled: boolean; backoffLimit: number; image: { repository: string } };
  apps: Record<string, ChartApp | undefined>;
  mirrorDefaults: Record<string, unknown>;
  mirrors: Record<string, ChartMirror | undefined>;
}

const schema = JSON.parse(read('values.schema.json')) as Record<string, unknown>;
const shippedValues = parse(read('values.yaml')) as ChartValues;
const templateFiles = readdirSync(join(chartDir, 'templates'));
const templates = Object.fromEntries(templateFiles.map((file) => [file, read('templates', file)]));

// strict: unknown keywords or misplaced ones in the schema are errors, so a typo cannot quietly loosen it.
const ajv = new Ajv({ strict: true, allowUnionTypes: true, allErrors: true });
const validate: ValidateFunction<ChartValues> = ajv.compile<ChartValues>(schema);

function appOf(values: ChartValues, name: string): ChartApp {
  const app = values.apps[name];
  if (!app) throw new Error(`values.yaml has no apps.${name}`);
  return app;
}

function mirrorOf(values: ChartValues, name: string): ChartMirror {
  const mirror = values.mirrors[name];
  if (!mirror) throw new Error(`values.yaml has no mirrors.${name}`);
  return mirror;
}

/** Every app the chart renders, mirrors merged over mirrorDefaults as the templates do. */
function renderedApp(values: ChartValues, name: string): ChartApp {
  const app = chartApps<ChartApp>(values)[name];
  if (!app) throw new Error(`the chart renders no app ${name}`);
  return app;
}

/** The URL variables the gateway gets: one per enabled mirror. */
function enabledMirrorUrls(values: ChartValues): string[] {
  return Object.entries(values.mirrors)
    .filter(([, mirror]) => mirror?.enabled)
    .map(([name]) => `${name.toUpperCase().replace(/-/g, '_')}_URL`);
}

const FIRST_MIRROR = MIRROR_APP_NAMES[0];
/** A mirror app name no registry mirror has (any letter may name a vendor's mirror). */
const ABSENT_MIRROR = Array.from(
  { length: 26 },
  (_, i) => `mirror-vendor-${String.fromCharCode(97 + i)}`,
).find((name) => !MIRROR_APP_NAMES.includes(name));
/** The chart's network policy values, for the rows that break them. */
const policyOf = (values: ChartValues) =>
  values.networkPolicy as {
    gatewayFrom: unknown[];
    egress: Record<string, { cidrs: string[]; ports: number[] }>;
  };

function errorsFor(values: unknown): ErrorObject[] {
  return validate(values) ? [] : (validate.errors ?? []);
}

describe('values.schema.json', () => {
  it('is a draft-07 schema that compiles in strict mode', () => {
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(ajv.validateSchema(schema)).toBe(true);
  });

  it('accepts values.yaml as shipped', () => {
    expect(errorsFor(shippedValues)).toEqual([]);
  });

  it('accepts the entry deploy:gen writes for a vendor added to the registry, whatever its letter', () => {
    const values = structuredClone(shippedValues);
    values.mirrors['mirror-vendor-l'] = {
      enabled: true,
      port: 3022,
      image: { repository: 'router-mirror-vendor-l' },
    };
    expect(errorsFor(values)).toEqual([]);
  });

  it('accepts a realistic production override', () => {
    const values = structuredClone(shippedValues);
    values.global.image.registry = 'registry.example.com/router';
    values.global.image.pullSecrets = ['regcred'];
    // A parent chart's globals flow into `global`; the chart must not refuse them.
    values.global.parentChartSetting = { anything: true };
    const sim = appOf(values, 'vendor-sim');
    sim.enabled = true;
    const gateway = appOf(values, 'edge-gateway');
    gateway.replicas = 6;
    gateway.service = { type: 'LoadBalancer', nodePort: 30080 };
    gateway.image.tag = '1.4.2';
    appOf(values, 'synthesis-worker').env.VENDOR_A_BASE_URL = 'http://router-vendor-sim:4010/vendor_a';
    appOf(values, 'native-api').extraEnv = [
      { name: 'NODE_OPTIONS', value: '--max-old-space-size=384' },
      { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
    ];
    values.s3 = {
      endpoint: 'https://s3.eu-west-1.amazonaws.example',
      region: 'eu-west-1',
      bucket: 'router.audio-prod',
    };
    values.nats.url = 'tls://nats-0.nats:4222,tls://nats-1.nats:4222';
    // Every mirror a little larger, one of them larger still and pinned to a tag of its own.
    values.mirrorDefaults.resources = { requests: { cpu: '500m' }, limits: { memory: '1Gi' } };
    Object.assign(mirrorOf(values, FIRST_MIRROR), {
      replicas: 4,
      image: { repository: `router-${FIRST_MIRROR}`, tag: '1.4.3' },
      env: { VENDOR_C_BASE_URL: 'http://router-vendor-sim:4010/vendor_c' },
    });
    expect(errorsFor(values)).toEqual([]);
  });

  // Each row breaks exactly one rule; the expected error location proves the rejection is for that rule and not
  // for something incidental, so a loosened rule fails its own row.
  type Rejection = [string, (values: ChartValues) => void, string, string];
  const rejections: Rejection[] = [
    ['replicas 0', (v) => (appOf(v, 'native-api').replicas = 0), '/apps/native-api/replicas', 'minimum'],
    [
      'negative replicas',
      (v) => (appOf(v, 'edge-gateway').replicas = -2),
      '/apps/edge-gateway/replicas',
      'minimum',
    ],
    [
      'fractional replicas',
      (v) => (appOf(v, 'cache-service').replicas = 1.5),
      '/apps/cache-service/replicas',
      'type',
    ],
    [
      'port above 65535',
      (v) => (appOf(v, 'edge-gateway').port = 70000),
      '/apps/edge-gateway/port',
      'maximum',
    ],
    [
      'privileged port (the image runs as non-root)',
      (v) => (appOf(v, 'native-api').port = 80),
      '/apps/native-api/port',
      'minimum',
    ],
    ['port 0', (v) => (appOf(v, 'vendor-sim').port = 0), '/apps/vendor-sim/port', 'minimum'],
    [
      'port as a string',
      (v) => ((appOf(v, 'native-api') as unknown as { port: string }).port = '3001'),
      '/apps/native-api/port',
      'type',
    ],
    ['unknown top-level key', (v) => (v.replicaCount = 2), '', 'additionalProperties'],
    [
      'unknown key inside an app',
      (v) => ((appOf(v, 'native-api') as unknown as Record<string, unknown>).replica = 2),
      '/apps/native-api',
      'additionalProperties',
    ],
    [
      'misspelt app name',
      (v) => (v.apps['edge-gatway'] = structuredClone(appOf(v, 'edge-gateway'))),
      '/apps',
      'additionalProperties',
    ],
    [
      'unknown key in a resource list',
      (v) => (appOf(v, 'cache-service').resources.requests = { memroy: '1Gi' }),
      '/apps/cache-service/resources/requests',
      'additionalProperties',
    ],
    [
      'unknown key in the S3 settings',
      (v) => ((v.s3 as Record<string, unknown>).accessKey = 'AKIA'),
      '/s3',
      'additionalProperties',
    ],
    [
      'missing image repository',
      (v) => delete appOf(v, 'cache-service').image.repository,
      '/apps/cache-service/image',
      'required',
    ],
    [
      'empty image repository',
      (v) => (appOf(v, 'native-api').image.repository = ''),
      '/apps/native-api/image/repository',
      'minLength',
    ],
    [
      'an image repository with a space in it',
      (v) => (appOf(v, 'native-api').image.repository = 'router native-api'),
      '/apps/native-api/image/repository',
      'pattern',
    ],
    ['a missing app', (v) => delete v.apps['synthesis-worker'], '/apps', 'required'],
    [
      'enabled as a string',
      (v) => ((appOf(v, 'vendor-sim') as unknown as { enabled: string }).enabled = 'yes'),
      '/apps/vendor-sim/enabled',
      'type',
    ],
    [
      'a secret in plain env',
      (v) => (appOf(v, 'native-api').env.DATABASE_URL = 'postgresql://u:p@db/router'),
      '/apps/native-api/env',
      'propertyNames',
    ],
    [
      'PORT in env (it comes from port)',
      (v) => (appOf(v, 'edge-gateway').env.PORT = '9999'),
      '/apps/edge-gateway/env',
      'propertyNames',
    ],
    [
      'an env name that is not a variable name',
      (v) => (appOf(v, 'edge-gateway').env['MY-VAR'] = 'x'),
      '/apps/edge-gateway/env',
      'propertyNames',
    ],
    [
      'an unknown secret variable',
      (v) => appOf(v, 'native-api').secretEnv.push('AWS_SECRET'),
      '/apps/native-api/secretEnv/6',
      'enum',
    ],
    [
      'a secret listed twice',
      (v) => appOf(v, 'cache-service').secretEnv.push('DATABASE_URL'),
      '/apps/cache-service/secretEnv',
      'uniqueItems',
    ],
    [
      'extraEnv with neither value nor valueFrom',
      (v) => (appOf(v, 'native-api').extraEnv = [{ name: 'X' }]),
      '/apps/native-api/extraEnv/0',
      'oneOf',
    ],
    [
      'service type that is not a Service type',
      (v) => (appOf(v, 'edge-gateway').service = { type: 'Ingress' }),
      '/apps/edge-gateway/service/type',
      'enum',
    ],
    [
      'nodePort outside the node-port range',
      (v) => (appOf(v, 'edge-gateway').service = { type: 'NodePort', nodePort: 8080 }),
      '/apps/edge-gateway/service/nodePort',
      'minimum',
    ],
    ['a NATS URL with the wrong scheme', (v) => (v.nats.url = 'http://nats:4222'), '/nats/url', 'pattern'],
    ['an invalid bucket name', (v) => (v.s3.bucket = 'Router_Audio'), '/s3/bucket', 'pattern'],
    ['an S3 endpoint without a scheme', (v) => (v.s3.endpoint = 'minio:9000'), '/s3/endpoint', 'pattern'],
    ['an unknown log level', (v) => (v.global.logLevel = 'verbose'), '/global/logLevel', 'enum'],
    ['an empty Secret name', (v) => (v.secrets.existingSecret = ''), '/secrets/existingSecret', 'pattern'],
    [
      'a secret key map entry for an unknown variable',
      (v) => (v.secrets.keys.AWS_SECRET = 'aws'),
      '/secrets/keys',
      'additionalProperties',
    ],
    [
      'a missing secret key map entry',
      (v) => delete v.secrets.keys.DATABASE_URL,
      '/secrets/keys',
      'required',
    ],
    [
      'negative migration retries',
      (v) => (v.migration.backoffLimit = -1),
      '/migration/backoffLimit',
      'minimum',
    ],
    [
      'a probe that can never fail',
      (v) => (v.probes.liveness.failureThreshold = 0),
      '/probes/liveness/failureThreshold',
      'minimum',
    ],
    [
      'a mirror name that is not a mirror app',
      (v) => (v.mirrors['vendor-c'] = structuredClone(mirrorOf(v, FIRST_MIRROR))),
      '/mirrors',
      'propertyNames',
    ],
    ...(ABSENT_MIRROR === undefined
      ? []
      : [
          [
            'an override of a mirror the registry does not have',
            (v: ChartValues) => {
              v.mirrors[ABSENT_MIRROR] = { replicas: 2 } as unknown as ChartMirror;
            },
            `/mirrors/${ABSENT_MIRROR}`,
            'required',
          ] satisfies Rejection,
        ]),
    [
      'a mirror on a privileged port',
      (v) => (mirrorOf(v, FIRST_MIRROR).port = 443),
      `/mirrors/${FIRST_MIRROR}/port`,
      'minimum',
    ],
    [
      'sharedConfig on a mirror (a mirror always reads the ConfigMap)',
      (v) => (mirrorOf(v, FIRST_MIRROR).sharedConfig = false),
      `/mirrors/${FIRST_MIRROR}`,
      'additionalProperties',
    ],
    [
      'an image repository in mirrorDefaults (each mirror has its own)',
      (v) => ((v.mirrorDefaults.image as Record<string, unknown>).repository = 'router-mirror'),
      '/mirrorDefaults/image',
      'additionalProperties',
    ],
    [
      'enabled in mirrorDefaults',
      (v) => (v.mirrorDefaults.enabled = true),
      '/mirrorDefaults',
      'additionalProperties',
    ],
    [
      'a secret in the mirrors plain env',
      (v) => ((v.mirrorDefaults.env as Record<string, unknown>).CACHE_KEY_SECRET = 'x'),
      '/mirrorDefaults/env',
      'propertyNames',
    ],
    [
      'a NetworkPolicy CIDR that is not one',
      (v) => (policyOf(v).egress.nats.cidrs = ['10.0.0.300/8']),
      '/networkPolicy/egress/nats/cidrs/0',
      'anyOf',
    ],
    [
      'a CIDR without its prefix length',
      (v) => (policyOf(v).egress.postgresql.cidrs = ['10.0.0.0']),
      '/networkPolicy/egress/postgresql/cidrs/0',
      'anyOf',
    ],
    [
      'a peer ipBlock whose cidr is not one',
      (v) => (policyOf(v).gatewayFrom = [{ ipBlock: { cidr: 'fd00::/129' } }]),
      '/networkPolicy/gatewayFrom/0/ipBlock/cidr',
      'anyOf',
    ],
    [
      'a misspelt egress target',
      (v) => (policyOf(v).egress.natss = { cidrs: [], ports: [4222] }),
      '/networkPolicy/egress',
      'additionalProperties',
    ],
    [
      'an egress no policy knows',
      (v) => ((appOf(v, 'native-api') as unknown as { egress: string[] }).egress = ['redis']),
      '/apps/native-api/egress/0',
      'enum',
    ],
    [
      'a reach that is not one',
      (v) => ((appOf(v, 'dashboard') as unknown as { reach: string }).reach = 'everyone'),
      '/apps/dashboard/reach',
      'enum',
    ],
    [
      'a negative autoscaler minimum',
      (v) => ((v.autoscaling as { minReplicas: number }).minReplicas = -1),
      '/autoscaling/minReplicas',
      'minimum',
    ],
    [
      'a misspelt key in an app autoscaler',
      (v) =>
        ((appOf(v, 'edge-gateway') as unknown as Record<string, unknown>).autoscaling = { maxReplica: 4 }),
      '/apps/edge-gateway/autoscaling',
      'additionalProperties',
    ],
    [
      'mirrorUrls as a string',
      (v) => ((appOf(v, 'edge-gateway') as unknown as { mirrorUrls: string }).mirrorUrls = 'yes'),
      '/apps/edge-gateway/mirrorUrls',
      'type',
    ],
  ];

  it.each(rejections)('rejects %s', (_label, mutate, instancePath, keyword) => {
    const values = structuredClone(shippedValues);
    mutate(values);
    const errors = errorsFor(values);
    expect(errors.map((e) => ({ instancePath: e.instancePath, keyword: e.keyword }))).toContainEqual({
      instancePath,
      keyword,
    });
  });
});

describe('values.yaml apps', () => {
  const configMapKeys = configMapDataKeys(templates['configmap.yaml']);

  it('has exactly the six apps, each on its default port and enabled as intended', () => {
    expect(Object.keys(shippedValues.apps).sort()).toEqual([...APP_NAMES].sort());
    for (const name of APP_NAMES) {
      const app = appOf(shippedValues, name);
      expect({ name, port: app.port, enabled: app.enabled }).toEqual({
        name,
        port: APPS[name].port,
        enabled: APPS[name].enabledInChart,
      });
      expect(app.image.repository).toBe(`router-${name}`);
    }
  });

  it('puts the external services in the ConfigMap, not the secrets', () => {
    expect(configMapKeys.sort()).toEqual(['NATS_URL', 'S3_BUCKET', 'S3_ENDPOINT', 'S3_REGION']);
    for (const key of configMapKeys) expect(SECRET_VARIABLES).not.toContain(key);
  });

  it('has a mirror entry for each mirror in the registry and no other, each enabled on its port', () => {
    expect(Object.keys(shippedValues.mirrors)).toEqual(MIRROR_APP_NAMES);
    for (const name of MIRROR_APP_NAMES) {
      const mirror = mirrorOf(shippedValues, name);
      expect({ name, port: mirror.port, enabled: mirror.enabled }).toEqual({
        name,
        port: appSpec(name).port,
        enabled: true,
      });
      expect(mirror.image.repository).toBe(`router-${name}`);
    }
  });

  it('renders every deployed app: the six and a mirror app per registry mirror', () => {
    expect(Object.keys(chartApps(shippedValues)).sort()).toEqual([...DEPLOYED_APP_NAMES].sort());
  });

  it.each(MIRROR_APP_NAMES)('runs %s with the replicas, resources and probes native-api has', (name) => {
    const mirror = renderedApp(shippedValues, name);
    const api = appOf(shippedValues, 'native-api');
    expect({ replicas: mirror.replicas, resources: mirror.resources }).toEqual({
      replicas: api.replicas,
      resources: api.resources,
    });
    expect(mirror.sharedConfig).toBe(true);
    // Probes are chart-wide (values.probes): the one Deployment template gives every app the same ones.
    expect(Object.keys(shippedValues.mirrorDefaults)).not.toContain('probes');
  });

  it.each(DEPLOYED_APP_NAMES)('gives %s every variable it requires', (name) => {
    const received = chartEnvNames(
      renderedApp(shippedValues, name),
      configMapKeys,
      enabledMirrorUrls(shippedValues),
    );
    const missing = appSpec(name).required.filter((variable) => !received.has(variable));
    expect(missing).toEqual([]);
  });

  it.each(DEPLOYED_APP_NAMES)(
    'gives %s exactly its own secrets and no plain variable it does not read',
    (name) => {
      const app = renderedApp(shippedValues, name);
      const spec = appSpec(name);
      expect([...app.secretEnv, ...(app.optionalSecretEnv ?? [])].sort()).toEqual(secretsOf(spec).sort());
      const readable = new Set([...spec.required, ...spec.optional]);
      expect(Object.keys(app.env).filter((variable) => !readable.has(variable))).toEqual([]);
    },
  );

  it('marks only optional secrets as optional', () => {
    for (const name of DEPLOYED_APP_NAMES) {
      const app = renderedApp(shippedValues, name);
      for (const secret of app.optionalSecretEnv ?? []) expect(appSpec(name).optional).toContain(secret);
    }
  });

  it("gives the gateway, and only the gateway, each mirror's URL", () => {
    expect(enabledMirrorUrls(shippedValues)).toEqual(MIRROR_URL_VARIABLES);
    const withUrls = Object.entries(chartApps(shippedValues)).filter(([, app]) => app.mirrorUrls);
    expect(withUrls.map(([name]) => name)).toEqual(['edge-gateway']);
    const received = chartEnvNames(
      renderedApp(shippedValues, 'edge-gateway'),
      configMapKeys,
      MIRROR_URL_VARIABLES,
    );
    for (const variable of MIRROR_URL_VARIABLES) expect(received.has(variable)).toBe(true);
  });

  it('leaves a disabled mirror URL out', () => {
    const values = structuredClone(shippedValues);
    mirrorOf(values, FIRST_MIRROR).enabled = false;
    expect(enabledMirrorUrls(values)).not.toContain(`${FIRST_MIRROR.toUpperCase().replace(/-/g, '_')}_URL`);
  });

  it('points the gateway at the release own native-api service and port', () => {
    expect(appOf(shippedValues, 'edge-gateway').env.NATIVE_API_URL).toBe(
      'http://{{ include "router.appFullname" (dict "root" . "name" "native-api") }}:{{ (index .Values.apps "native-api").port }}',
    );
  });

  it('keeps the admin API on loopback by default', () => {
    expect(appOf(shippedValues, 'native-api').env.ADMIN_HOST).toBe('127.0.0.1');
  });

  it('maps every secret variable to a key of the existing Secret', () => {
    expect(Object.keys(shippedValues.secrets.keys).sort()).toEqual([...SECRET_VARIABLES].sort());
    expect(shippedValues.secrets.existingSecret).not.toBe('');
  });
});

// helm renders the chart in chart-render.int-spec.ts; these read the templates as text for what a render
// cannot show (a misspelt `.Values` path or app field renders as empty, not as an error).
describe('chart templates, read as text', () => {
  it('references only .Values paths that exist in values.yaml', () => {
    const sources = [...Object.values(templates), read('values.yaml')];
    const paths = new Set(
      sources.flatMap((text) =>
        [...text.matchAll(/\.Values((?:\.[A-Za-z_][A-Za-z0-9_]*)+)/g)].map((m) => m[1]),
      ),
    );
    expect(paths.size).toBeGreaterThan(10);
    const unresolved = [...paths].filter((path) => {
      let node: unknown = shippedValues;
      for (const key of path.slice(1).split('.')) {
        if (node === null || typeof node !== 'object' || !(key in node)) return true;
        node = (node as Record<string, unknown>)[key];
      }
      return false;
    });
    expect(unresolved).toEqual([]);
  });

  it('indexes only apps that exist', () => {
    const sources = [...Object.values(templates), read('values.yaml')];
    const indexed = sources.flatMap((text) =>
      [...text.matchAll(/index \$?\.Values\.apps "([^"]+)"/g)].map((m) => m[1]),
    );
    expect(indexed.length).toBeGreaterThan(0);
    for (const name of indexed) expect(APP_NAMES).toContain(name);
  });

  it('reads only app and mirror fields the schema defines', () => {
    const definitions = schema.definitions as Record<string, { properties: Record<string, object> }>;
    const appFields = Object.keys(definitions.app.properties);
    const mirrorFields = Object.keys(definitions.mirror.properties);
    const serviceFields = Object.keys(definitions.service.properties);
    // A mirror is rendered as an app: mirrorDefaults and a mirror's own keys give nothing an app does not have.
    for (const field of [...Object.keys(definitions.mirrorDefaults.properties), ...mirrorFields]) {
      expect(appFields).toContain(field);
    }
    const used = (pattern: RegExp): string[] => [
      ...new Set(Object.values(templates).flatMap((text) => [...text.matchAll(pattern)].map((m) => m[1]))),
    ];
    const appUsed = used(/\$app\.([A-Za-z_][A-Za-z0-9_]*)/g);
    expect(appUsed).toEqual(
      expect.arrayContaining(['enabled', 'replicas', 'port', 'image', 'env', 'secretEnv']),
    );
    // What router.collectApps works out for every app (from replicas and autoscaling), not a value.
    const resolved = ['minReplicas'];
    expect(appUsed.filter((field) => !appFields.includes(field) && !resolved.includes(field))).toEqual([]);
    expect(
      used(/\$service\.([A-Za-z_][A-Za-z0-9_]*)/g).filter((field) => !serviceFields.includes(field)),
    ).toEqual([]);
    const mirrorUsed = used(/\$mirror\.([A-Za-z_][A-Za-z0-9_]*)/g);
    expect(mirrorUsed).toEqual(expect.arrayContaining(['enabled', 'port']));
    expect(mirrorUsed.filter((field) => !mirrorFields.includes(field))).toEqual([]);
  });
});
