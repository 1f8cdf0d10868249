import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MIRRORS, VENDOR_IDS } from '@router/vendors';
import { deployFiles, mirrorApps, strayMirrorApps } from './deploy-files';

/**
 * `npm run deploy:gen`: writes what the registry's mirrors decide (each mirror app's main.ts and project.json,
 * the generated blocks of the compose file, the health check and the Helm values) and names any mirror app
 * folder the registry no longer has. Its spec fails while a committed file differs from what it writes.
 */
function main(): void {
  const root = repoRoot(__dirname);
  const apps = mirrorApps(MIRRORS);
  const read = (path: string): string => readFileSync(join(root, path), 'utf8');
  for (const file of deployFiles(apps, VENDOR_IDS, read)) {
    const target = join(root, file.path);
    if (existsSync(target) && read(file.path) === file.text) continue;
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, file.text);
    process.stdout.write(`wrote ${file.path}\n`);
  }
  const strays = strayMirrorApps(readdirSync(join(root, 'apps')), apps);
  if (strays.length > 0) {
    process.stderr.write(
      `no mirror in the registry for ${strays.map((app) => `apps/${app}`).join(', ')}: remove the folder(s)\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`deploy files follow the registry's ${apps.length} mirror(s)\n`);
}

function repoRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'nx.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`No nx.json above ${from}`);
  }
}

main();
