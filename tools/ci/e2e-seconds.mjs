// Reads Jest `--json` result files and prints, per e2e spec (path from the repo root), the seconds it took:
// the record that tools/ci/e2e-seconds.json keeps for splitting the e2e specs into shards.
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');
const seconds = {};
for (const file of process.argv.slice(2)) {
  for (const suite of JSON.parse(readFileSync(file, 'utf8')).testResults) {
    seconds[relative(root, suite.name)] = Math.round((suite.endTime - suite.startTime) / 1000);
  }
}
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => (a < b ? -1 : 1)));
process.stdout.write(`${JSON.stringify(sorted, null, 2)}\n`);
