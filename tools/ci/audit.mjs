// CI's dependency audit: fails on a known high or critical advisory in the production dependency tree, read
// from package-lock.json alone (`npm audit --omit=dev --package-lock-only`: nothing installed is consulted).
// The advisories live at the registry: where it cannot be reached, or answers no audit (a mirror or proxy
// without the bulk advisory endpoint), the audit says that it did not run and why, and does not fail the build.
// The registry is npm's own setting (`npm_config_registry` or .npmrc). Exit 0: no advisory, or not reached;
// 1: advisories found, or an answer it could not read.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const FAILING = ['high', 'critical'];
/** npm's codes for a registry it could not reach or that timed out. */
const UNREACHABLE = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET|EHOSTUNREACH|ENETUNREACH|timeout/i;

const run = spawnSync(
  'npm',
  [
    'audit',
    '--omit=dev',
    '--package-lock-only',
    '--json',
    '--audit-level=high',
    '--fetch-retries=0',
    '--fetch-timeout=20000',
  ],
  { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
);

let report;
try {
  report = JSON.parse(run.stdout);
} catch {
  console.error(`dependency audit: npm audit gave no readable answer (exit ${run.status}):`);
  console.error((run.stderr || run.stdout || '').slice(0, 2000));
  process.exit(1);
}

const counts = report?.metadata?.vulnerabilities;
if (!counts) {
  // No report: npm could not get the advisories. Either the registry was not reached, or it answered the bulk
  // advisory request with an error status (a registry without an audit endpoint); anything else is npm's own
  // failure (no lockfile, say) and fails the build.
  const message = String(report?.message ?? report?.error?.summary ?? '');
  const code = String(report?.error?.code ?? report?.code ?? '');
  const status = Number(report?.statusCode);
  const advisoryRequest = message.includes('/-/npm/v1/security/');
  if (UNREACHABLE.test(`${code} ${message}`) || (advisoryRequest && Number.isFinite(status))) {
    console.log(
      "dependency audit NOT RUN: the registry's advisory service could not be reached, so the production " +
        `tree was not checked (${message || code}).`,
    );
    process.exit(0);
  }
  console.error(`dependency audit: npm audit failed: ${code} ${message}`.trim());
  console.error((run.stderr || '').slice(0, 2000));
  process.exit(1);
}

const found = Object.values(report.vulnerabilities ?? {}).filter((v) => FAILING.includes(v.severity));
const production = report.metadata.dependencies?.prod ?? '?';
if (found.length === 0) {
  console.log(
    `dependency audit: no high or critical advisory in the ${production} production dependencies ` +
      `(${counts.total} of lower severity).`,
  );
  process.exit(0);
}
console.error(`dependency audit: ${found.length} production dependencies with a high or critical advisory:`);
for (const v of found) {
  const advisories = v.via.filter((via) => typeof via === 'object');
  const through = v.via.filter((via) => typeof via === 'string');
  console.error(`- ${v.name} (${v.severity}${v.isDirect ? ', direct' : ''}) ${v.nodes.join(' ')}`);
  for (const a of advisories) console.error(`    ${a.severity}: ${a.title} ${a.url} (affects ${a.range})`);
  if (through.length > 0) console.error(`    through ${through.join(', ')}`);
}
process.exit(1);
