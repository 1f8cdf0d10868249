// Issue 35's acceptance: a vendor added to the registry needs no other hand-written list. The test writes a
// temporary copy of the one hand-written letter list (libs/config common-env.ts) and of the registry with two
// throwaway vendors, vendor_k and the twelfth, vendor_l (vendor_d's entry under other tokens), loads the
// workspace's own modules against them, and runs every derivation and drift check: the registry's lists, the
// apps' settings, deploy:gen's files, the chart's schema, the apps table, the compose wiring, a real helm
// render validated against the Kubernetes schemas, and the voices query. Nothing written by hand refuses the
// new vendors; the published client's restated token list is the one that must be told (the vendor generator
// adds to it), and its drift check names them.
import Ajv from 'ajv';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { parse } from 'yaml';
import { lintChart, renderChart, validateAgainstKubernetes, type K8sObject } from './helm';

const REPO = join(__dirname, '..', '..', '..');
const COMMON_ENV = join(REPO, 'libs/config/src/common-env.ts');
const REGISTRY = join(REPO, 'libs/vendors/registry/src/vendors.registry.ts');
const ADDED = 'vendor_l';
const APP = 'mirror-vendor-l';

mkdirSync(join(REPO, 'tmp'), { recursive: true });
const COPY = mkdtempSync(join(REPO, 'tmp', 'added-vendor-'));
afterAll(() => rmSync(COPY, { recursive: true, force: true }));

/** `source` with `from` replaced once by `to`; throws when `from` is not there (the original moved on). */
function replaced(source: string, from: string | RegExp, to: string, file: string): string {
  const next = source.replace(from, to);
  if (next === source) throw new Error(`${file} no longer has ${String(from)}: update this test`);
  return next;
}

/** A copy of a source file in COPY, its relative imports pointed back at the original's folder. */
function copyOf(original: string, edit: (source: string) => string): string {
  const source = readFileSync(original, 'utf8').replace(
    /from '(\.{1,2}\/[^']+)'/g,
    (_all, path: string) => `from '${join(dirname(original), path)}'`,
  );
  const target = join(COPY, relative(REPO, original));
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, edit(source));
  return target;
}

const commonEnvCopy = copyOf(COMMON_ENV, (source) =>
  replaced(source, /'j'\] as const/, "'j', 'k', 'l'] as const", 'common-env.ts'),
);
const entryCopy = join(COPY, 'vendor-l.entry.ts');
writeFileSync(
  entryCopy,
  `import type { MirrorAccess, VendorEntry, VendorId } from '@router/vendors-core';
import { vendorDEntry } from '@router/vendor-d';

function entry(id: string, name: string): VendorEntry {
  const access = { ...vendorDEntry.access, vendor: id } as MirrorAccess;
  const mirror = vendorDEntry.mirror;
  return {
    definition: { ...vendorDEntry.definition, id: id as VendorId, catalogue: { ...vendorDEntry.definition.catalogue, id, name } },
    createAdapter: vendorDEntry.createAdapter,
    access,
    mirror: mirror && { ...mirror, vendor: id as VendorId, access },
  };
}
export const vendorKEntry = entry('vendor_k', 'Vendor K');
export const vendorLEntry = entry('${ADDED}', 'Vendor L');
`,
);
const registryCopy = copyOf(REGISTRY, (source) =>
  replaced(
    replaced(
      source,
      /\n\} from '@router\/vendors-core';\n/,
      `$&import { vendorKEntry, vendorLEntry } from '${entryCopy}';\n`,
      'vendors.registry.ts',
    ),
    /\n {2}vendor_j: vendorJEntry,\n/,
    '$&  vendor_k: vendorKEntry,\n  vendor_l: vendorLEntry,\n',
    'vendors.registry.ts',
  ),
);

// Every later require of the originals (through the path aliases or relative imports alike) gets the copies.
jest.doMock(COMMON_ENV, () => jest.requireActual(commonEnvCopy));
jest.doMock(REGISTRY, () => jest.requireActual(registryCopy));

/** A workspace module, loaded against the copies (required here, after the mocks, never imported above). */
const load = <T extends object>(path: string): T => jest.requireActual<T>(join(REPO, path));

const vendors = load<typeof import('@router/vendors')>('libs/vendors/registry/src/index.ts');
const config = load<typeof import('@router/config')>('libs/config/src/index.ts');
const client = load<typeof import('@router/client')>('libs/client/src/index.ts');
const deployGen = load<typeof import('../../deploy-gen/src/deploy-files')>(
  'tools/deploy-gen/src/deploy-files.ts',
);
const appsTable = load<typeof import('./apps-table')>('tools/deploy-check/src/apps-table.ts');
const envNames = load<typeof import('./env-names')>('tools/deploy-check/src/env-names.ts');
const chartApps = load<typeof import('./chart-apps')>('tools/deploy-check/src/chart-apps.ts');
const voices = load<typeof import('../../../libs/native/src/voices/voices.query')>(
  'libs/native/src/voices/voices.query.ts',
);

const readRepo = (path: string): string => readFileSync(join(REPO, path), 'utf8');
const files = Object.fromEntries(
  deployGen
    .deployFiles(deployGen.mirrorApps(vendors.MIRRORS), vendors.VENDOR_IDS, readRepo)
    .map((file) => [file.path, file.text]),
);
const generated = (path: string): string => {
  const text = files[path];
  if (text === undefined) throw new Error(`deploy:gen wrote no ${path}`);
  return text;
};

describe('a twelfth vendor added to a copy of the registry', () => {
  it('is in the registry lists, the catalogue and the voice vendors, after the ten in token order', () => {
    expect(vendors.VENDOR_IDS.at(-1)).toBe(ADDED);
    expect(vendors.VENDOR_IDS).toHaveLength(12);
    expect(vendors.VENDORS.map((vendor) => vendor.id)).toEqual(vendors.VENDOR_IDS);
    expect(vendors.MIRRORS.at(-1)?.vendor).toBe(ADDED);
    expect(vendors.VOICE_VENDORS).toContain(ADDED);
    expect(vendors.catalogueResponse().providers.map((provider) => provider.id)).toContain(ADDED);
    expect(vendors.isVendorId(ADDED)).toBe(true);
    expect(vendors.mirrorAccess(ADDED as never).vendor).toBe(ADDED);
  });

  it("gets its settings' names, its mirror app's name, port and URL variable", () => {
    expect(config.vendorBaseUrls({ VENDOR_L_BASE_URL: 'http://l.test' })).toEqual({
      [ADDED]: 'http://l.test',
    });
    expect(Object.keys(config.vendorUpstreamEnv)).toContain('VENDOR_L_BASE_URL');
    expect(config.mirrorAppName(ADDED as never)).toBe(APP);
    expect(config.mirrorAppVendor(APP)).toBe(ADDED);
    expect(config.mirrorAppPort(ADDED as never)).toBe(3022);
    expect(Object.keys(config.mirrorUpstreamEnv(vendors.VENDOR_IDS))).toContain('MIRROR_VENDOR_L_URL');
    expect(Object.keys(config.appEnvSchemas(vendors.MIRRORS.map((mirror) => mirror.vendor)))).toContain(APP);
  });

  it('gets its mirror app and its deployment entries from deploy:gen', () => {
    expect(generated(`apps/${APP}/src/main.ts`)).toContain(
      "import { vendorLMirror } from '@router/vendor-l';",
    );
    expect(JSON.parse(generated(`apps/${APP}/project.json`))).toMatchObject({ name: APP });
    expect(generated('docker/compose.yaml')).toContain('VENDOR_L_BASE_URL');
  });

  describe("the chart's values deploy:gen writes", () => {
    const values = parse(generated('deploy/helm/router/values.yaml')) as chartAppsValues;
    type chartAppsValues = Parameters<typeof chartApps.chartApps>[0] & { mirrors: Record<string, unknown> };

    it('pass the chart schema, with the mirror enabled on its port', () => {
      const schema = JSON.parse(readRepo('deploy/helm/router/values.schema.json')) as object;
      const validate = new Ajv({ strict: true, allowUnionTypes: true, allErrors: true }).compile(schema);
      expect(validate(values) ? [] : validate.errors).toEqual([]);
      expect(values.mirrors[APP]).toMatchObject({ enabled: true, port: 3022 });
    });

    it('give the mirror app every variable the apps table says it requires', () => {
      expect(appsTable.DEPLOYED_APP_NAMES).toContain(APP);
      const spec = appsTable.appSpec(APP);
      expect(spec.port).toBe(3022);
      const configMap = envNames.configMapDataKeys(readRepo('deploy/helm/router/templates/configmap.yaml'));
      const app = chartApps.chartApps(values)[APP] as Parameters<typeof envNames.chartEnvNames>[0];
      const received = envNames.chartEnvNames(app, configMap, appsTable.MIRROR_URL_VARIABLES);
      expect(spec.required.filter((variable) => !received.has(variable))).toEqual([]);
      expect(appsTable.MIRROR_URL_VARIABLES).toContain('MIRROR_VENDOR_L_URL');
    });

    it('render with a real helm to objects valid against the Kubernetes schemas', () => {
      const file = join(COPY, 'values.yaml');
      writeFileSync(file, generated('deploy/helm/router/values.yaml'));
      const input = { valuesFiles: [relative(REPO, file)] };
      expect(lintChart(input).status).toBe(0);
      const { yaml, objects } = renderChart(input);
      const named = (kind: string): K8sObject[] =>
        objects.filter((object) => object.kind === kind && object.metadata.name.endsWith(APP));
      expect(named('Deployment')).toHaveLength(1);
      expect(named('Service')).toHaveLength(1);
      expect(named('NetworkPolicy')).toHaveLength(1);
      expect(validateAgainstKubernetes(yaml).filter((verdict) => verdict.errors.length > 0)).toEqual([]);
      expect(yaml).toContain('MIRROR_VENDOR_L_URL');
    });
  });

  it('runs in compose with every variable it requires, and the gateway reaches it', () => {
    const compose = parse(generated('docker/compose.yaml'), { merge: true, maxAliasCount: -1 }) as {
      services: Record<string, { environment?: Record<string, unknown> } | undefined>;
    };
    const environment = compose.services[APP]?.environment ?? {};
    const received = envNames.composeEnvNames(environment);
    expect(appsTable.appSpec(APP).required.filter((variable) => !received.has(variable))).toEqual([]);
    expect(String(environment.PORT)).toBe('3022');
    expect(compose.services['edge-gateway']?.environment).toHaveProperty('MIRROR_VENDOR_L_URL');
  });

  it('is a provider GET /v1/voices takes', () => {
    expect(voices.parseVoicesQuery({ provider: ADDED })).toEqual({ provider: ADDED });
  });

  it("is named by the published client's drift check, the one restated list it must be added to", () => {
    const missing = vendors.VENDOR_IDS.filter(
      (id) => !(client.PROVIDER_IDS as readonly string[]).includes(id),
    );
    expect(missing).toEqual(['vendor_k', ADDED]);
  });
});
