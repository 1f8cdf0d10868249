// The committed deployment files are what tools/deploy-gen writes from the registry's mirrors: a mirror added
// to (or removed from) the registry fails here until `npm run deploy:gen` is run. Reads repo files only.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MIRRORS, VENDOR_IDS, type VendorId } from '@router/vendors';
import { deployFiles, fillBlock, FILES_WITH_BLOCKS, mirrorApps, strayMirrorApps } from './deploy-files';

const repoRoot = join(__dirname, '..', '..', '..');
const read = (path: string): string => readFileSync(join(repoRoot, path), 'utf8');
const apps = mirrorApps(MIRRORS);

describe('the files that follow the registry mirrors', () => {
  it('knows at least vendor_c mirror', () => {
    expect(apps.map((app) => app.name)).toContain('mirror-vendor-c');
  });

  it.each(deployFiles(apps, VENDOR_IDS, read).map((file) => [file.path, file] as const))(
    '%s is as `npm run deploy:gen` writes it',
    (path, file) => {
      expect(existsSync(join(repoRoot, path))).toBe(true);
      expect(read(path)).toBe(file.text);
    },
  );

  it('has an app folder for every registry mirror and none for a vendor without one', () => {
    const folders = readdirSync(join(repoRoot, 'apps'));
    for (const app of apps) expect(folders).toContain(app.name);
    expect(strayMirrorApps(folders, apps)).toEqual([]);
  });

  it.each(apps.map((app) => [app.name, app] as const))(
    '%s imports its registry mirror from its vendor folder',
    async (_name, app) => {
      const folder = (await import(app.importPath)) as Record<string, unknown>;
      expect(folder[app.exportName]).toBe(MIRRORS.find((mirror) => mirror.vendor === app.vendor));
    },
  );
});

describe('deployFiles', () => {
  const template = (path: string): string => read(path);

  it('gives each mirror its app, its compose service, its health-check port and its Helm entry', () => {
    const two = mirrorApps([
      { ...MIRRORS[0], vendor: 'vendor_b' },
      { ...MIRRORS[0], vendor: 'vendor_j' },
    ]);
    const files = Object.fromEntries(
      deployFiles(two, VENDOR_IDS, template).map((file) => [file.path, file.text]),
    );
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining([
        'apps/mirror-vendor-b/src/main.ts',
        'apps/mirror-vendor-b/project.json',
        'apps/mirror-vendor-j/src/main.ts',
        ...FILES_WITH_BLOCKS,
      ]),
    );
    expect(files['apps/mirror-vendor-j/src/main.ts']).toContain(
      "import { vendorJMirror } from '@router/vendor-j';\n\nrunMirrorApp(vendorJMirror, process.env);",
    );
    expect(JSON.parse(files['apps/mirror-vendor-b/project.json'])).toMatchObject({
      name: 'mirror-vendor-b',
      sourceRoot: 'apps/mirror-vendor-b/src',
      tags: ['type:app', 'scope:mirror'],
    });
    const compose = files['docker/compose.yaml'];
    expect(compose).toContain('  MIRROR_VENDOR_B_URL: http://mirror-vendor-b:3012\n');
    expect(compose).toContain('  MIRROR_VENDOR_J_URL: http://mirror-vendor-j:3020\n');
    expect(compose).toContain(
      '      args: { APP: mirror-vendor-j }\n    image: router-mirror-vendor-j:${ROUTER_TAG:-local}',
    );
    expect(compose).not.toContain('mirror-vendor-c');
    expect(files['docker/healthcheck.js']).toContain(
      "  'mirror-vendor-b': 3012,\n  'mirror-vendor-j': 3020,\n",
    );
    expect(files['deploy/helm/router/values.yaml']).toContain(
      '  mirror-vendor-j:\n    enabled: true\n    port: 3020\n    image:\n      repository: router-mirror-vendor-j\n',
    );
  });

  it('keeps the first mirror on in the one-mirror example and turns the others off', () => {
    const two = mirrorApps([
      { ...MIRRORS[0], vendor: 'vendor_b' },
      { ...MIRRORS[0], vendor: 'vendor_j' },
    ]);
    const example = deployFiles(two, VENDOR_IDS, template).find((file) =>
      file.path.endsWith('examples/one-mirror.yaml'),
    );
    expect(example?.text).toContain(
      '# mirror-vendor-b stays on; every other mirror is off.\nmirrors:\n  mirror-vendor-j:\n    enabled: false\n',
    );
    expect(example?.text).not.toContain('  mirror-vendor-b:');
  });

  it("gives the compose file every vendor's base URL, a vendor added to the registry included", () => {
    const vendors = [...VENDOR_IDS, 'vendor_l' as VendorId];
    const compose = deployFiles(apps, vendors, template).find((file) => file.path === 'docker/compose.yaml');
    for (const vendor of vendors) {
      const variable = `VENDOR_${vendor.slice(-1).toUpperCase()}_BASE_URL`;
      expect(compose?.text).toContain(`  ${variable}: \${${variable}:-http://vendor-sim:4010/${vendor}}\n`);
    }
  });

  it('writes empty maps where no vendor has a mirror', () => {
    const files = Object.fromEntries(deployFiles([], [], template).map((file) => [file.path, file.text]));
    expect(Object.keys(files).sort()).toEqual([...FILES_WITH_BLOCKS].sort());
    expect(files['docker/compose.yaml']).toContain('x-mirror-urls: &mirror-urls {}');
    expect(files['deploy/helm/router/values.yaml']).toContain('\nmirrors: {}\n');
  });
});

describe('fillBlock', () => {
  const text = ['a', '# ---- generated: x (tool) ----', 'old', '# ---- end generated: x ----', 'b'].join(
    '\n',
  );

  it('replaces what is between the markers and keeps them', () => {
    expect(fillBlock(text, 'x', ['new 1', 'new 2'], 'f')).toBe(
      ['a', '# ---- generated: x (tool) ----', 'new 1', 'new 2', '# ---- end generated: x ----', 'b'].join(
        '\n',
      ),
    );
  });

  it('refuses a file without the block, naming it', () => {
    expect(() => fillBlock(text, 'y', [], 'docker/compose.yaml')).toThrow(
      'docker/compose.yaml has no "generated: y" block',
    );
  });
});
