import { applyMigrations, type Migration, type MigrationTarget, type SqlSession } from './migrator';

interface Row {
  migration_name: string;
  checksum: string;
  finished_at: string | null;
  rolled_back_at: string | null;
}

/** Records statements and keeps `_prisma_migrations` rows in memory, with transactional rollback. */
class FakeTarget implements MigrationTarget {
  rows: Row[] = [];
  log: string[] = [];
  constructor(private readonly failingScript?: string) {}

  query<T extends object>(sql: string, params: unknown[] = []): Promise<T[]> {
    const verb = sql.trim().split(/\s+/)[0];
    this.log.push(sql.includes('advisory') ? sql.replace(/\(\$1\)/, `(${String(params[0])})`) : verb);
    if (verb === 'INSERT') {
      const [, checksum, name] = params as string[];
      this.rows.push({
        migration_name: name,
        checksum: checksum,
        finished_at: 'now',
        rolled_back_at: null,
      });
    }
    return Promise.resolve(
      (verb === 'SELECT' && sql.includes('_prisma_migrations') ? [...this.rows] : []) as T[],
    );
  }

  exec(script: string): Promise<void> {
    this.log.push(
      script.startsWith('CREATE TABLE IF NOT EXISTS "_prisma_migrations"') ? 'CREATE TABLE' : script,
    );
    return script === this.failingScript ? Promise.reject(new Error('syntax error')) : Promise.resolve();
  }

  async transaction<T>(work: (tx: SqlSession) => Promise<T>): Promise<T> {
    const before = [...this.rows];
    this.log.push('BEGIN');
    try {
      const result = await work(this);
      this.log.push('COMMIT');
      return result;
    } catch (error) {
      this.rows = before;
      this.log.push('ROLLBACK');
      throw error;
    }
  }
}

const migration = (name: string, sql = `-- ${name}`): Migration => ({ name, sql, checksum: `sum-${name}` });
const LOCK = 'SELECT pg_advisory_lock(72707369)';
const UNLOCK = 'SELECT pg_advisory_unlock(72707369)';

describe('applyMigrations', () => {
  it('applies each pending migration in order, in its own transaction with its row, under the lock', async () => {
    const target = new FakeTarget();
    const report = await applyMigrations(target, [migration('001_a'), migration('002_b')]);
    expect(report).toEqual({ applied: ['001_a', '002_b'], total: 2 });
    expect(target.log).toEqual([
      LOCK,
      'CREATE TABLE',
      'SELECT',
      ...['BEGIN', '-- 001_a', 'INSERT', 'COMMIT'],
      ...['BEGIN', '-- 002_b', 'INSERT', 'COMMIT'],
      UNLOCK,
    ]);
    expect(target.rows.map((r) => [r.migration_name, r.checksum])).toEqual([
      ['001_a', 'sum-001_a'],
      ['002_b', 'sum-002_b'],
    ]);
  });

  it('skips what is recorded and applies a migration Prisma marked as rolled back', async () => {
    const target = new FakeTarget();
    target.rows = [
      { migration_name: '001_a', checksum: 'sum-001_a', finished_at: 'then', rolled_back_at: null },
      { migration_name: '002_b', checksum: 'old', finished_at: null, rolled_back_at: 'then' },
    ];
    await expect(applyMigrations(target, [migration('001_a'), migration('002_b')])).resolves.toEqual({
      applied: ['002_b'],
      total: 2,
    });
    await expect(applyMigrations(target, [migration('001_a'), migration('002_b')])).resolves.toEqual({
      applied: [],
      total: 2,
    });
  });

  it('rolls back a failing migration, stops there and still releases the lock', async () => {
    const target = new FakeTarget('-- 002_b');
    await expect(
      applyMigrations(target, [migration('001_a'), migration('002_b'), migration('003_c')]),
    ).rejects.toThrow('syntax error');
    expect(target.rows.map((r) => r.migration_name)).toEqual(['001_a']);
    expect(target.log.slice(-3)).toEqual(['-- 002_b', 'ROLLBACK', UNLOCK]);
  });

  it('refuses an unresolved failure left by `prisma migrate deploy`', async () => {
    const target = new FakeTarget();
    target.rows = [
      { migration_name: '001_a', checksum: 'sum-001_a', finished_at: null, rolled_back_at: null },
    ];
    await expect(applyMigrations(target, [migration('001_a')])).rejects.toThrow(
      /001_a failed earlier.*migrate resolve/,
    );
    expect(target.log.at(-1)).toBe(UNLOCK);
  });

  it('refuses a migration edited after it was applied', async () => {
    const target = new FakeTarget();
    target.rows = [{ migration_name: '001_a', checksum: 'other', finished_at: 'then', rolled_back_at: null }];
    await expect(applyMigrations(target, [migration('001_a')])).rejects.toThrow(
      'migration 001_a was edited after it was applied (checksum differs)',
    );
  });
});
