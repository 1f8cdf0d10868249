import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { REPO_ROOT } from '@router/testing';

/**
 * CI's dependency audit (tools/ci/audit.mjs) against registries of the test's own on loopback: one that
 * cannot be reached, and one whose bulk advisory endpoint answers what the test says (the lockfile's
 * production packages are read by npm itself, from package-lock.json alone).
 */
function audit(registry: string): Promise<{ code: number; out: string }> {
  // A cache of its own each time: npm caches the advisory answers too.
  const cache = mkdtempSync(join(tmpdir(), 'audit-cache-'));
  return new Promise((resolve) => {
    execFile(
      'node',
      [join(REPO_ROOT, 'tools/ci/audit.mjs')],
      {
        env: { ...process.env, npm_config_registry: registry, npm_config_cache: cache },
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        rmSync(cache, { recursive: true, force: true });
        resolve({ code: error ? Number(error.code ?? 1) : 0, out: `${stdout}${stderr}` });
      },
    );
  });
}

let server: Server;
let registry: string;
/** What the fake registry's bulk advisory endpoint answers, by package name. */
let advisories: Record<string, unknown[]> = {};
const asked: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.method === 'POST' && req.url?.startsWith('/-/npm/v1/security/advisories/bulk')) {
        asked.push(req.url);
        res.end(JSON.stringify(advisories));
        return;
      }
      res.statusCode = 404; // packuments: npm audit asks for them to suggest fixes, and does without
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  registry = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('dependency audit (tools/ci/audit.mjs)', () => {
  it('says it did not run, and does not fail, when the registry cannot be reached', async () => {
    const { port } = server.address() as AddressInfo;
    // A port nothing listens on: the one just closed by a server of its own.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const unused = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(unused).not.toBe(port);
    const result = await audit(`http://127.0.0.1:${unused}/`);
    expect(result.out).toContain('dependency audit NOT RUN');
    expect(result.out).toContain('ECONNREFUSED');
    expect(result.code).toBe(0);
  }, 60_000);

  it('fails on a high advisory in the production tree, naming the package and the advisory', async () => {
    advisories = {
      ws: [
        {
          id: 1,
          url: 'https://advisories.test/1',
          title: 'A test advisory',
          severity: 'high',
          vulnerable_versions: '<99.0.0',
          cwe: [],
          cvss: { score: 7.5, vectorString: null },
        },
      ],
    };
    const result = await audit(registry);
    expect(asked.length).toBeGreaterThan(0);
    expect(result.out).toMatch(/- ws \(high, direct\)/);
    expect(result.out).toContain('A test advisory https://advisories.test/1');
    expect(result.code).toBe(1);
  }, 60_000);

  it('passes when the production tree has no advisory of high severity, counting the lower ones', async () => {
    advisories = {
      ws: [
        {
          id: 2,
          url: 'https://advisories.test/2',
          title: 'A moderate one',
          severity: 'moderate',
          vulnerable_versions: '<99.0.0',
          cwe: [],
          cvss: { score: 5, vectorString: null },
        },
      ],
    };
    const result = await audit(registry);
    expect(result.out).toMatch(
      /no high or critical advisory in the \d+ production dependencies \(1 of lower/,
    );
    expect(result.code).toBe(0);
  }, 60_000);
});
