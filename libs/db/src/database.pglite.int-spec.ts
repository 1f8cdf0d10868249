import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase, type Database } from './database';
import { readMigrations } from './migrator';
import {
  expectForeignKeyViolation,
  expectPlainSql,
  expectRetentionCheck,
  expectRoundTrip,
  expectUniqueViolation,
} from './test/round-trip';

// PGlite runs initdb on every fresh start: seconds on a loaded two-core machine, hence the hook timeouts.
const START_TIMEOUT_MS = 90_000;

describe('createDatabase without a URL (PGlite, memory://)', () => {
  let db: Database;

  beforeAll(async () => {
    db = await createDatabase({ pgliteDataDir: 'memory://' });
  }, START_TIMEOUT_MS);
  afterAll(() => db?.close());

  it('applies every migration once, then nothing', async () => {
    expect(db.kind).toBe('pglite');
    const names = readMigrations().map((m) => m.name);
    const [first, second] = await Promise.all([db.migrate(), db.migrate()]);
    expect(first).toEqual({ applied: names, total: names.length });
    expect(second).toBe(first); // the concurrent call shared the running one
    await expect(db.migrate()).resolves.toEqual({ applied: [], total: names.length });
    const rows = await db.prisma.$queryRaw<{ migration_name: string; checksum: string }[]>`
      SELECT migration_name, checksum FROM "_prisma_migrations" ORDER BY migration_name`;
    expect(rows).toEqual(readMigrations().map((m) => ({ migration_name: m.name, checksum: m.checksum })));
  });

  it('round-trips every model, Bytes included', () => expectRoundTrip(db.prisma));

  it('runs plain SQL on the same database', () => expectPlainSql(db));

  it('reports a unique violation as P2002 and a missing parent as P2003', async () => {
    await expectUniqueViolation(db.prisma);
    await expectForeignKeyViolation(db.prisma);
  });

  it('enforces the retention CHECK', () => expectRetentionCheck(db.prisma));

  it('runs interactive transactions and rolls them back on error', async () => {
    await expect(
      db.prisma.$transaction(async (tx) => {
        await tx.org.create({ data: { name: 'rolled back' } });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    await expect(db.prisma.org.count({ where: { name: 'rolled back' } })).resolves.toBe(0);
  });
});

describe('createDatabase with a PGlite data directory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'router-db-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(
    'keeps migrations and rows across close and reopen',
    async () => {
      const first = await createDatabase({ pgliteDataDir: dir });
      try {
        expect((await first.migrate()).applied.length).toBeGreaterThan(0);
        await first.prisma.org.create({ data: { name: 'survivor', retentionDays: 7 } });
      } finally {
        await first.close();
      }
      await first.close(); // idempotent

      const second = await createDatabase({ pgliteDataDir: dir });
      try {
        await expect(second.migrate()).resolves.toMatchObject({ applied: [] });
        await expect(
          second.prisma.org.findMany({ select: { name: true, retentionDays: true } }),
        ).resolves.toEqual([{ name: 'survivor', retentionDays: 7 }]);
      } finally {
        await second.close();
      }
    },
    2 * START_TIMEOUT_MS,
  );
});
