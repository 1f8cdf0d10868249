// Checks docker/ without a Docker engine (none on the development machines): the compose file's wiring against
// the apps table and the Dockerfile's stages. Reads repo files only; builds and runs nothing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import {
  ALWAYS_SET,
  appSpec,
  DEPLOYED_APP_NAMES,
  MIRROR_APP_NAMES,
  MIRROR_URL_VARIABLES,
  SECRET_VARIABLES,
} from './apps-table';
import { parseDockerfile, type DockerStage } from './dockerfile-stages';
import { composeEnvNames } from './env-names';

const repoRoot = join(__dirname, '..', '..', '..');
const read = (...parts: string[]): string => readFileSync(join(repoRoot, ...parts), 'utf8');

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  command?: string[] | string;
  environment?: unknown;
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test?: string[]; disable?: boolean };
}

// merge: the file shares environment blocks through YAML merge keys (<<), which Compose resolves too. Every app
// merges the blocks that list each mirror, so the aliases grow with apps times mirrors: past the parser's guard
// against alias bombs (100) from the seventh mirror on. The file is the repository's own, so no limit.
const compose = parse(read('docker', 'compose.yaml'), { merge: true, maxAliasCount: -1 }) as {
  services: Record<string, ComposeService>;
};
const services = compose.services;

function serviceOf(name: string): ComposeService {
  const service = services[name];
  if (!service) throw new Error(`docker/compose.yaml has no service ${name}`);
  return service;
}

describe('docker/compose.yaml', () => {
  it('has a service per app, a mirror app per registry mirror, plus postgres, nats, minio and migrate', () => {
    expect(Object.keys(services)).toEqual(
      expect.arrayContaining([...DEPLOYED_APP_NAMES, 'postgres', 'nats', 'minio', 'migrate']),
    );
    expect(Object.keys(services).filter((name) => name.startsWith('mirror-'))).toEqual(MIRROR_APP_NAMES);
  });

  it('runs NATS with JetStream', () => {
    expect(serviceOf('nats').command).toContain('-js');
  });

  it('creates the bucket the apps use before the S3 apps start', () => {
    const init = serviceOf('minio-init');
    expect(String(init.command)).toContain('mc mb --ignore-existing');
    for (const name of ['native-api', 'synthesis-worker', 'cache-service', ...MIRROR_APP_NAMES]) {
      expect(serviceOf(name).depends_on?.['minio-init']).toEqual({
        condition: 'service_completed_successfully',
      });
    }
  });

  it.each(DEPLOYED_APP_NAMES)('builds %s from docker/Dockerfile with its own APP', (name) => {
    const service = serviceOf(name);
    expect(service.build).toEqual({ context: '..', dockerfile: 'docker/Dockerfile', args: { APP: name } });
  });

  it.each(DEPLOYED_APP_NAMES)(
    'gives %s its PORT and every variable it requires, and nothing it does not read',
    (name) => {
      const spec = appSpec(name);
      const env = serviceOf(name).environment as Record<string, unknown>;
      expect(String(env.PORT)).toBe(String(spec.port));
      const received = composeEnvNames(env);
      expect(spec.required.filter((variable) => !received.has(variable))).toEqual([]);
      const readable = new Set<string>([...spec.required, ...spec.optional, ...ALWAYS_SET]);
      expect([...received].filter((variable) => !readable.has(variable))).toEqual([]);
    },
  );

  it('publishes only the gateway port, 8080', () => {
    const published = Object.entries(services).filter(
      ([, service]) => service.ports && service.ports.length > 0,
    );
    expect(published.map(([name]) => name)).toEqual(['edge-gateway']);
    expect(serviceOf('edge-gateway').ports).toEqual(['${GATEWAY_PORT:-8080}:8080']);
  });

  it('points the gateway at native-api', () => {
    const env = serviceOf('edge-gateway').environment as Record<string, unknown>;
    expect(env.NATIVE_API_URL).toBe(`http://native-api:${appSpec('native-api').port}`);
  });

  it('points the gateway at each mirror app, and starts it after them', () => {
    const gateway = serviceOf('edge-gateway');
    const env = gateway.environment as Record<string, unknown>;
    expect(Object.keys(env).filter((name) => name.startsWith('MIRROR_'))).toEqual(MIRROR_URL_VARIABLES);
    MIRROR_APP_NAMES.forEach((name, i) => {
      expect(env[MIRROR_URL_VARIABLES[i]]).toBe(`http://${name}:${appSpec(name).port}`);
      expect(gateway.depends_on?.[name]).toEqual({ condition: 'service_started' });
    });
  });

  it('starts the bus and database apps only after the migration succeeded', () => {
    for (const name of DEPLOYED_APP_NAMES.filter((app) => appSpec(app).required.includes('DATABASE_URL'))) {
      expect(serviceOf(name).depends_on).toMatchObject({
        migrate: { condition: 'service_completed_successfully' },
        postgres: { condition: 'service_healthy' },
        nats: { condition: 'service_healthy' },
      });
    }
  });

  it('migrates with the migrate tool from an image another service builds (so compose never pulls it)', () => {
    const migrate = serviceOf('migrate');
    expect(migrate.command).toEqual(['node', 'dist/tools/migrate/main.js']);
    expect(composeEnvNames(migrate.environment).has('DATABASE_URL')).toBe(true);
    expect(migrate.depends_on?.postgres).toEqual({ condition: 'service_healthy' });
    const builders = Object.values(services).filter((s) => s.build && s.image === migrate.image);
    expect(builders).toHaveLength(1);
  });

  it('uses the same database URL in the migration and in every app', () => {
    const urls = new Set(
      ['migrate', ...DEPLOYED_APP_NAMES.filter((app) => appSpec(app).required.includes('DATABASE_URL'))].map(
        (name) => (serviceOf(name).environment as Record<string, unknown>).DATABASE_URL,
      ),
    );
    expect(urls.size).toBe(1);
  });

  it('lets every secret be overridden from the environment (.env) instead of the demo default', () => {
    for (const name of DEPLOYED_APP_NAMES) {
      const env = serviceOf(name).environment as Record<string, unknown>;
      for (const secret of SECRET_VARIABLES.filter(
        (variable) => variable in env && variable !== 'DATABASE_URL',
      )) {
        expect(String(env[secret])).toMatch(new RegExp(`^\\$\\{${secret}:-`));
      }
    }
  });
});

describe('docker/Dockerfile', () => {
  const dockerfile = parseDockerfile(read('docker', 'Dockerfile'));
  const stages = dockerfile.stages;
  const runtime = stages[stages.length - 1];
  const argsOf = (stage: DockerStage, keyword: string): string[] =>
    stage.instructions.filter((i) => i.keyword === keyword).map((i) => i.args);
  const stageNamed = (name: string): DockerStage => {
    const stage = stages.find((s) => s.name === name);
    if (!stage) throw new Error(`no stage ${name}`);
    return stage;
  };

  it('is multi-stage on node:20-bookworm-slim', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(dockerfile.preamble).toContainEqual({ keyword: 'ARG', args: 'NODE_IMAGE=node:20-bookworm-slim' });
    for (const stage of stages) expect(stage.from).toBe('${NODE_IMAGE}');
    expect(runtime.name).toBe('runtime');
  });

  it('declares the APP build arg in the final stage and runs that app', () => {
    expect(argsOf(runtime, 'ARG')).toContain('APP');
    expect(argsOf(runtime, 'CMD')).toEqual(['["/bin/sh", "-c", "exec node dist/apps/${APP}/main.js"]']);
    expect(argsOf(runtime, 'ENV').join(' ')).toMatch(/APP=\$\{APP\}/);
  });

  it('builds with the full dependency tree, the Prisma client and the repo build', () => {
    const runs = argsOf(stageNamed('build'), 'RUN').join('\n');
    expect(runs).toMatch(/\bnpm install\b(?! --omit)/);
    expect(runs).toContain('bash libs/db/scripts/generate.sh');
    expect(runs).toContain('node tools/build/build.mjs');
    expect(runs.indexOf('generate.sh')).toBeLessThan(runs.indexOf('build.mjs'));
  });

  it('ships only production dependencies plus the generated Prisma client and dist/', () => {
    const prod = stageNamed('prod-deps');
    expect(argsOf(prod, 'RUN').join('\n')).toContain('npm install --omit=dev');
    const copies = argsOf(runtime, 'COPY');
    expect(copies).toContain('--from=prod-deps /src/node_modules ./node_modules');
    expect(copies).toContain('--from=build /src/node_modules/.prisma ./node_modules/.prisma');
    expect(copies).toContain('--from=build /src/dist ./dist');
    // Nothing from the build stage's full node_modules other than the generated client.
    expect(copies.filter((c) => c.startsWith('--from=build /src/node_modules ')).length).toBe(0);
  });

  it('runs as a non-root user', () => {
    const users = argsOf(runtime, 'USER');
    expect(users).toHaveLength(1);
    expect(users[0]).not.toMatch(/^(root|0)(:|$)/);
  });

  it('health-checks /healthz with node fetch on each app default port', () => {
    expect(argsOf(runtime, 'HEALTHCHECK').join(' ')).toMatch(/CMD \["node", "docker\/healthcheck\.js"\]/);
    const script = read('docker', 'healthcheck.js');
    expect(script).toMatch(/fetch\(`http:\/\/127\.0\.0\.1:\$\{port\}\/healthz`/);
    const ports = Object.fromEntries(
      [...script.matchAll(/'?([a-z-]+)'?: (\d+),/g)].map((m) => [m[1], Number(m[2])]),
    );
    expect(ports).toEqual(Object.fromEntries(DEPLOYED_APP_NAMES.map((name) => [name, appSpec(name).port])));
  });

  it('keeps local node_modules and dist out of the build context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'));
    expect(ignored).toEqual(expect.arrayContaining(['**/node_modules', 'dist', '.git', '**/.env']));
  });
});
