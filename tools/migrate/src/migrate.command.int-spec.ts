import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { runMigrate } from './migrate.command';

// tools/services/ensure.sh exports DATABASE_URL_BASE (server only); trust auth as postgres is the fallback.
const serverUrl = process.env['DATABASE_URL_BASE'] ?? 'postgresql://postgres@127.0.0.1:5432';

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${serverUrl}/postgres` });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function capture() {
  const lines: { log: string[]; error: string[] } = { log: [], error: [] };
  return { lines, out: { log: (l: string) => lines.log.push(l), error: (l: string) => lines.error.push(l) } };
}

describe('migrate tool', () => {
  it('names DATABASE_URL when it is missing', async () => {
    const { lines, out } = capture();
    await expect(runMigrate({}, out)).resolves.toBe(1);
    expect(lines.error).toEqual([expect.stringContaining('DATABASE_URL is not set')]);
  });

  it('names DATABASE_URL and the host, never the password, when the server is unreachable', async () => {
    const { lines, out } = capture();
    await expect(
      runMigrate({ DATABASE_URL: 'postgresql://router:s3cret@127.0.0.1:1/router' }, out),
    ).resolves.toBe(1);
    expect(lines.error).toHaveLength(1);
    expect(lines.error[0]).toMatch(/DATABASE_URL \(127\.0\.0\.1:1\/router\).*ECONNREFUSED/);
    expect(lines.error[0]).not.toContain('s3cret');
  });

  it('migrates a fresh database, then reports nothing to apply', async () => {
    const name = `router_migrate_test_${randomUUID().replaceAll('-', '')}`;
    await admin(`CREATE DATABASE "${name}"`);
    try {
      const env = { DATABASE_URL: `${serverUrl}/${name}` };
      const first = capture();
      await expect(runMigrate(env, first.out)).resolves.toBe(0);
      expect(first.lines.log).toEqual([
        expect.stringMatching(/: applied \d+_init(, \d+_\w+)* \((\d+) migrations, all applied\)$/),
      ]);
      const second = capture();
      await expect(runMigrate(env, second.out)).resolves.toBe(0);
      expect(second.lines.log).toEqual([expect.stringContaining(': nothing to apply (')]);
    } finally {
      await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
  });
});
