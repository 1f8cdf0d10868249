import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { mirrorAppName, mirrorUrlVariable } from '@router/config';
import { REPO_ROOT } from './processes';
import { STACK_APPS, STACK_MIRRORS, type StackApp, stackEnv } from './stack';

describe('the stack a test runs', () => {
  const mirrorApps = STACK_MIRRORS.map(mirrorAppName);

  it('finds a mirror app folder for vendor_c at least, each with its main.ts', () => {
    expect(STACK_MIRRORS).toContain('vendor_c');
    for (const app of mirrorApps) expect(existsSync(join(REPO_ROOT, 'apps', app, 'src/main.ts'))).toBe(true);
  });

  it('runs every mirror app, after native-api and before the gateway', () => {
    const members: readonly string[] = STACK_APPS;
    const at = (app: string): number => members.indexOf(app);
    for (const app of mirrorApps) {
      expect(at(app)).toBeGreaterThan(at('native-api'));
      expect(at(app)).toBeLessThan(at('edge-gateway'));
    }
    expect(members.filter((app) => app.startsWith('mirror-'))).toEqual(mirrorApps);
  });

  it("points the gateway's MIRROR_VENDOR_X_URL at each mirror app's port", () => {
    const ports = Object.fromEntries(STACK_APPS.map((app, i) => [app, 20_000 + i])) as Record<
      StackApp,
      number
    >;
    const env = stackEnv(
      {
        databaseUrl: 'postgresql://router@127.0.0.1/router',
        natsUrl: 'nats://127.0.0.1:4222',
        s3: { endpoint: 'http://127.0.0.1:4569', accessKey: 'a', secretKey: 'b', bucket: 'c' },
        logDir: '/tmp',
      },
      { apps: ports, admin: 1, gatewayInternal: 2 },
    );
    expect(Object.keys(env).filter((name) => name.startsWith('MIRROR_VENDOR_'))).toEqual(
      STACK_MIRRORS.map(mirrorUrlVariable),
    );
    for (const vendor of STACK_MIRRORS) {
      expect(env[mirrorUrlVariable(vendor)]).toBe(`http://127.0.0.1:${ports[mirrorAppName(vendor)]}`);
    }
  });
});
