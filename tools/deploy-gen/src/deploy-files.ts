import { parse } from 'yaml';
import {
  appEnvSchemas,
  type EnvSchema,
  mirrorAppName,
  mirrorAppPort,
  mirrorAppVendor,
  mirrorUrlVariable,
  vendorBaseUrlVariable,
} from '@router/config';
import type { VendorId, VendorMirror } from '@router/vendors-core';
import { envReference, envReferenceTable, valuesEnvComment } from './env-reference';

/** One mirror app as the deployment files spell it, from its vendor's token alone. */
export interface MirrorApp {
  readonly vendor: VendorId;
  /** `mirror-vendor-x`: the app folder, the Nx project, the image, the compose service, the Helm entry. */
  readonly name: string;
  readonly port: number;
  /** The gateway's variable for its URL. */
  readonly urlVariable: string;
  /** Where its main.ts imports the mirror from (the vendor folder's package) and under which name. */
  readonly importPath: string;
  readonly exportName: string;
}

export function mirrorApps(mirrors: readonly VendorMirror[]): MirrorApp[] {
  return mirrors.map(({ vendor }) => {
    const letter = vendor.slice('vendor_'.length);
    return {
      vendor,
      name: mirrorAppName(vendor),
      port: mirrorAppPort(vendor),
      urlVariable: mirrorUrlVariable(vendor),
      importPath: `@router/vendor-${letter}`,
      exportName: `vendor${letter.toUpperCase()}Mirror`,
    };
  });
}

export interface DeployFile {
  /** From the repo root. */
  readonly path: string;
  readonly text: string;
}

/** The files whose generated blocks follow the mirrors; the rest of each file is written by hand. */
export const FILES_WITH_BLOCKS = [
  'docs/operations.md',
  'docker/compose.yaml',
  'docker/healthcheck.js',
  'deploy/helm/router/values.yaml',
  'deploy/helm/router/examples/one-mirror.yaml',
];

/**
 * Every file the registry decides, as it must read: each mirror app's `src/main.ts` and `project.json` whole,
 * and the blocks of `FILES_WITH_BLOCKS` between their `generated:` markers (from the mirrors, and from `vendors`,
 * every vendor token, for the compose file's vendor base URLs). `read` gives a committed file's text (the
 * hand-written rest is kept as it is). The output is already in Prettier's style.
 */
export function deployFiles(
  apps: readonly MirrorApp[],
  vendors: readonly VendorId[],
  read: (path: string) => string,
): DeployFile[] {
  const schemas = appEnvSchemas(apps.map((app) => app.vendor));
  const withBlocks = (path: string, blocks: Record<string, string[]>): DeployFile => ({
    path,
    text: Object.entries(blocks).reduce((text, [id, lines]) => fillBlock(text, id, lines, path), read(path)),
  });
  return [
    ...apps.flatMap((app) => [
      { path: `apps/${app.name}/src/main.ts`, text: mainTs(app) },
      { path: `apps/${app.name}/project.json`, text: projectJson(app) },
    ]),
    withBlocks('docker/compose.yaml', {
      'vendor-urls': composeVendorUrls(vendors),
      'mirror-urls': composeMirrorUrls(apps),
      'mirror-services': composeMirrorServices(apps),
    }),
    withBlocks('docker/healthcheck.js', {
      'mirror-ports': apps.map((app) => `  '${app.name}': ${app.port},`),
    }),
    withBlocks('docs/operations.md', {
      // Blank lines around the table, as Prettier writes a Markdown table between two comments.
      'env-reference': ['', ...envReferenceTable(envReference(schemas)), ''],
    }),
    withBlocks('deploy/helm/router/values.yaml', {
      mirrors: helmMirrors(apps),
      ...valuesEnvBlocks(read('deploy/helm/router/values.yaml'), schemas, apps),
    }),
    withBlocks('deploy/helm/router/examples/one-mirror.yaml', { 'one-mirror': helmOneMirror(apps) }),
  ];
}

/** App folders that look like a mirror app but have no mirror in the registry (to be removed by hand). */
export function strayMirrorApps(appFolders: readonly string[], apps: readonly MirrorApp[]): string[] {
  const known = new Set(apps.map((app) => app.name));
  return appFolders.filter((folder) => mirrorAppVendor(folder) !== undefined && !known.has(folder));
}

/**
 * Replaces the lines between `generated: <id>` and `end generated: <id>` marker lines (comments in the file's
 * own syntax) with `lines`, keeping the markers. A file without both markers is an error, not a guess.
 */
export function fillBlock(text: string, id: string, lines: readonly string[], path: string): string {
  const all = text.split('\n');
  const start = all.findIndex((line) => line.includes(`---- generated: ${id} `));
  const end = all.findIndex((line) => line.includes(`---- end generated: ${id} ----`));
  if (start < 0 || end < start) {
    throw new Error(`${path} has no "generated: ${id}" block (its start and end marker lines)`);
  }
  return [...all.slice(0, start + 1), ...lines, ...all.slice(end)].join('\n');
}

function mainTs(app: MirrorApp): string {
  return [
    "// Generated from the registry's mirrors by tools/deploy-gen (npm run deploy:gen); do not edit.",
    `import { runMirrorApp } from '@router/mirror';`,
    `import { ${app.exportName} } from '${app.importPath}';`,
    '',
    `runMirrorApp(${app.exportName}, process.env);`,
    '',
  ].join('\n');
}

function projectJson(app: MirrorApp): string {
  return `${JSON.stringify(
    {
      name: app.name,
      $schema: '../../node_modules/nx/schemas/project-schema.json',
      sourceRoot: `apps/${app.name}/src`,
      projectType: 'application',
      tags: ['type:app', 'scope:mirror'],
    },
    null,
    2,
  ).replace(/\[\n\s+("type:app"),\n\s+("scope:mirror")\n\s+\]/, '[$1, $2]')}\n`;
}

function composeVendorUrls(vendors: readonly VendorId[]): string[] {
  return vendors.length === 0
    ? ['x-vendor-urls: &vendor-urls {}']
    : [
        'x-vendor-urls: &vendor-urls',
        ...vendors.map((vendor) => {
          const variable = vendorBaseUrlVariable(vendor);
          return `  ${variable}: \${${variable}:-http://vendor-sim:4010/${vendor}}`;
        }),
      ];
}

function composeMirrorUrls(apps: readonly MirrorApp[]): string[] {
  return [
    "# The gateway's URL for each mirror app, and the mirror apps it starts after.",
    ...(apps.length === 0
      ? ['x-mirror-urls: &mirror-urls {}', '', 'x-mirror-apps: &mirror-apps {}']
      : [
          'x-mirror-urls: &mirror-urls',
          ...apps.map((app) => `  ${app.urlVariable}: http://${app.name}:${app.port}`),
          '',
          'x-mirror-apps: &mirror-apps',
          ...apps.flatMap((app) => [`  ${app.name}:`, '    condition: service_started']),
        ]),
  ];
}

function composeMirrorServices(apps: readonly MirrorApp[]): string[] {
  return apps.flatMap((app, i) => [
    ...(i > 0 ? [''] : []),
    `  ${app.name}:`,
    '    <<: *mirror-app',
    '    build:',
    '      context: ..',
    '      dockerfile: docker/Dockerfile',
    `      args: { APP: ${app.name} }`,
    `    image: router-${app.name}:\${ROUTER_TAG:-local}`,
    '    environment:',
    '      <<: *mirror-env',
    `      PORT: '${app.port}'`,
  ]);
}

function helmMirrors(apps: readonly MirrorApp[]): string[] {
  return [
    "# One entry per vendor with a mirror; each enabled one becomes a Deployment and a Service. Override an entry's",
    '# keys in your values (e.g. mirrors.mirror-vendor-c.replicas), or turn a mirror off with enabled: false.',
    ...(apps.length === 0
      ? ['mirrors: {}']
      : [
          'mirrors:',
          ...apps.flatMap((app) => [
            `  ${app.name}:`,
            '    enabled: true',
            `    port: ${app.port}`,
            '    image:',
            `      repository: router-${app.name}`,
          ]),
        ]),
  ];
}

/** Every mirror but the registry's first turned off: the chart's example of a router with one mirror. */
function helmOneMirror(apps: readonly MirrorApp[]): string[] {
  const [kept, ...others] = apps;
  return [
    kept ? `# ${kept.name} stays on; every other mirror is off.` : '# The registry has no mirror.',
    ...(others.length === 0
      ? ['mirrors: {}']
      : ['mirrors:', ...others.flatMap((app) => [`  ${app.name}:`, '    enabled: false'])]),
  ];
}

/**
 * The comment above each app's `env` in the chart's values: every variable it reads, with its default. One
 * block per entry of `apps` (read from the file) and one for `mirrorDefaults` (a mirror app's variables).
 */
function valuesEnvBlocks(
  valuesYaml: string,
  schemas: Readonly<Record<string, EnvSchema>>,
  apps: readonly MirrorApp[],
): Record<string, string[]> {
  const chartApps = Object.keys((parse(valuesYaml) as { apps: Record<string, unknown> }).apps);
  const blocks: Record<string, string[]> = {};
  for (const app of chartApps) {
    const schema = schemas[app];
    if (!schema) throw new Error(`values.yaml has apps.${app}, for which libs/config has no env schema`);
    blocks[`env-${app}`] = valuesEnvComment(schema, '    ');
  }
  const mirror = apps[0];
  blocks['env-mirror'] = mirror
    ? valuesEnvComment(schemas[mirror.name], '  ')
    : ['  # The registry has no mirror.'];
  return blocks;
}
