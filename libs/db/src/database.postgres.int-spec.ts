import pg from 'pg';
import { createDatabase, type Database } from './database';
import { readMigrations } from './migrator';
import { createScratchDatabase } from './test/scratch-postgres';
import {
  expectForeignKeyViolation,
  expectPlainSql,
  expectRetentionCheck,
  expectRoundTrip,
  expectUniqueViolation,
} from './test/round-trip';

describe('createDatabase with a PostgreSQL URL (a fresh database)', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let db: Database;
  let other: Database;

  beforeAll(async () => {
    scratch = await createScratchDatabase();
    db = await createDatabase({ url: scratch.url });
    other = await createDatabase({ url: scratch.url });
  });
  afterAll(async () => {
    await db?.close();
    await other?.close();
    await scratch?.drop();
  });

  it('migrates from zero exactly once when two processes start together', async () => {
    expect(db.kind).toBe('postgres');
    const names = readMigrations().map((m) => m.name);
    const reports = await Promise.all([db.migrate(), other.migrate()]);
    // The advisory lock makes one of them apply everything and the other find nothing to do.
    expect(reports.flatMap((r) => r.applied)).toEqual(names);
    await expect(db.migrate()).resolves.toEqual({ applied: [], total: names.length });

    const rows = await db.prisma.$queryRaw<{ migration_name: string; checksum: string; steps: number }[]>`
      SELECT migration_name, checksum, applied_steps_count AS steps FROM "_prisma_migrations"
      WHERE finished_at IS NOT NULL ORDER BY migration_name`;
    expect(rows).toEqual(
      readMigrations().map((m) => ({ migration_name: m.name, checksum: m.checksum, steps: 1 })),
    );
  });

  it('creates every table and the retention CHECK', async () => {
    const tables = await db.prisma.$queryRaw<{ table_name: string }[]>`
      SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`;
    expect(tables.map((t) => t.table_name)).toEqual([
      '_prisma_migrations',
      'api_keys',
      'audit_events',
      'cache_entries',
      'dashboard_sessions',
      'members',
      'orgs',
      'provider_keys',
      'request_log',
      'synthesis_workers',
      'take_claims',
      'take_leases',
      'usage_counters',
    ]);
    // Also proves the adapter reads the catalog's `name` and `"char"` columns (upstream prisma/orm#27403).
    const checks = await db.prisma.$queryRaw<{ conname: string; contype: string; definition: string }[]>`
      SELECT conname, contype, pg_get_constraintdef(oid) AS definition FROM pg_constraint
      WHERE conrelid = 'orgs'::regclass AND contype = 'c'`;
    expect(checks).toEqual([
      {
        conname: 'orgs_retention_days_check',
        contype: 'c',
        definition: expect.stringMatching(
          /retention_days = 0\b.*retention_days >= 1.*retention_days <= 3650/,
        ),
      },
    ]);
  });

  it('round-trips every model, Bytes included', () => expectRoundTrip(db.prisma));

  it('runs plain SQL on the same database', () => expectPlainSql(db));

  it('reports a unique violation as P2002 and a missing parent as P2003', async () => {
    await expectUniqueViolation(db.prisma);
    await expectForeignKeyViolation(db.prisma);
  });

  it('enforces the retention CHECK', () => expectRetentionCheck(db.prisma));

  it('refuses to run when an applied migration was edited afterwards', async () => {
    const [first] = readMigrations();
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    try {
      await client.query(`UPDATE "_prisma_migrations" SET checksum = 'edited' WHERE migration_name = $1`, [
        first.name,
      ]);
      await expect(db.migrate()).rejects.toThrow(`migration ${first.name} was edited after it was applied`);
      await client.query(`UPDATE "_prisma_migrations" SET checksum = $1 WHERE migration_name = $2`, [
        first.checksum,
        first.name,
      ]);
      // The lock was released despite the failure: a later run gets it at once.
      await expect(db.migrate()).resolves.toMatchObject({ applied: [] });
    } finally {
      await client.end();
    }
  });

  it('survives the server ending its idle connections, and answers on new ones', async () => {
    // Plain SQL only, as the request paths use it: Prisma, which listens to its pool once it connects, never does.
    const sqlOnly = await createDatabase({ url: scratch.url });
    const admin = new pg.Client({ connectionString: scratch.url });
    await admin.connect();
    try {
      await Promise.all([sqlOnly.sql.query('SELECT 1'), sqlOnly.sql.query('SELECT 1')]);
      const ended = await admin.query<{ n: number }>(
        `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
      // Without a listener, the pool's error events would reach Jest as an unhandled error (and end a service).
      expect(ended.rows[0]?.n).toBeGreaterThanOrEqual(2);
      await new Promise((resolve) => setTimeout(resolve, 100));
      await expect(sqlOnly.sql.query<{ one: number }>('SELECT 1 AS one')).resolves.toEqual([{ one: 1 }]);
      await expect(db.prisma.org.count()).resolves.toBeGreaterThanOrEqual(0);
    } finally {
      await admin.end();
      await sqlOnly.close();
    }
  });
});

describe('createDatabase with an unreachable URL', () => {
  it('fails migrate() with the connection error, and close() still works', async () => {
    const db = await createDatabase({ url: 'postgresql://postgres@127.0.0.1:1/nowhere' });
    await expect(db.migrate()).rejects.toThrow(/ECONNREFUSED/);
    await db.close();
  });

  it('rejects a URL that is not postgresql://', async () => {
    await expect(createDatabase({ url: 'mysql://x@y/z' })).rejects.toThrow(/postgresql:\/\//);
  });
});
