import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { VENDORS } from '@router/vendors';
import { VENDOR_TYPES_PATH, vendorTypesFile } from './vendor-types';

/**
 * `npm run client:gen`: writes the published client's per-vendor types from the vendor definitions. Its spec
 * fails while the committed file differs from what it writes.
 */
function main(): void {
  const target = join(repoRoot(__dirname), VENDOR_TYPES_PATH);
  const text = vendorTypesFile(VENDORS);
  if (existsSync(target) && readFileSync(target, 'utf8') === text) {
    process.stdout.write(`${VENDOR_TYPES_PATH} is up to date\n`);
    return;
  }
  writeFileSync(target, text);
  process.stdout.write(`wrote ${VENDOR_TYPES_PATH}\n`);
}

function repoRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'nx.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`No nx.json above ${from}`);
  }
}

main();
