import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import pg from 'pg';

// Applies Prisma's migration folders without the Prisma CLI (whose schema engine needs a driver adapter
// and is slow to start), on PostgreSQL and PGlite alike, and records them exactly as `prisma migrate
// deploy` would, so either tool sees the other's work as done.

/** The key `prisma migrate` itself locks, so this migrator and the CLI never run at the same time. */
const PRISMA_ADVISORY_LOCK = 72707369;

// Prisma's own DDL for the table (schema engine, PostgreSQL flavour).
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface SqlSession {
  query<T extends object>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Several statements, no parameters. */
  exec(script: string): Promise<void>;
}

export interface MigrationTarget extends SqlSession {
  transaction<T>(work: (tx: SqlSession) => Promise<T>): Promise<T>;
}

export interface Migration {
  name: string;
  sql: string;
  /** sha256 of migration.sql, hex: what Prisma stores in `_prisma_migrations.checksum`. */
  checksum: string;
}

export interface MigrationReport {
  /** Names of the migrations this call applied, in order; empty when the database was up to date. */
  applied: string[];
  /** Migrations found on disk. */
  total: number;
}

/** libs/db/prisma/migrations, from the sources (Jest) and from dist/ (the build copies the folder). */
export function defaultMigrationsDir(): string {
  return join(__dirname, '..', 'prisma', 'migrations');
}

export function readMigrations(dir: string = defaultMigrationsDir()): Migration[] {
  if (!existsSync(dir)) throw new Error(`no migrations folder at ${dir}`);
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'migration.sql')))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: unknown;
  rolled_back_at: unknown;
}

/**
 * Applies every migration not yet recorded, in name order, each in its own transaction together with its
 * `_prisma_migrations` row. Holds Prisma's advisory lock throughout, so concurrent starts apply nothing twice.
 */
export async function applyMigrations(
  target: MigrationTarget,
  migrations: Migration[],
): Promise<MigrationReport> {
  await target.query('SELECT pg_advisory_lock($1)', [PRISMA_ADVISORY_LOCK]);
  try {
    await target.exec(CREATE_MIGRATIONS_TABLE);
    const rows = await target.query<AppliedRow>(
      'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"',
    );
    const done = new Map<string, AppliedRow>();
    for (const row of rows) {
      if (row.rolled_back_at != null) continue;
      if (row.finished_at == null) {
        throw new Error(
          `migration ${row.migration_name} failed earlier and was never resolved; fix the database, then mark it with \`prisma migrate resolve\``,
        );
      }
      done.set(row.migration_name, row);
    }
    const applied: string[] = [];
    for (const migration of migrations) {
      const previous = done.get(migration.name);
      if (previous) {
        if (previous.checksum !== migration.checksum) {
          throw new Error(`migration ${migration.name} was edited after it was applied (checksum differs)`);
        }
        continue;
      }
      await target.transaction(async (tx) => {
        const startedAt = new Date().toISOString();
        await tx.exec(migration.sql);
        await tx.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
           VALUES ($1, $2, now(), $3, $4, 1)`,
          [randomUUID(), migration.checksum, migration.name, startedAt],
        );
      });
      applied.push(migration.name);
    }
    return { applied, total: migrations.length };
  } finally {
    await target.query('SELECT pg_advisory_unlock($1)', [PRISMA_ADVISORY_LOCK]);
  }
}

/** A migration target on one dedicated pg connection (advisory locks belong to a session). */
export function pgTarget(client: pg.Client): MigrationTarget {
  const session: SqlSession = {
    query: async <T extends object>(sql: string, params?: unknown[]) =>
      (await client.query<T>(sql, params)).rows,
    exec: async (script) => {
      await client.query(script);
    },
  };
  return {
    ...session,
    transaction: async (work) => {
      await client.query('BEGIN');
      try {
        const result = await work(session);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    },
  };
}

function pgliteSession(db: PGlite | Transaction): SqlSession {
  return {
    query: async <T extends object>(sql: string, params?: unknown[]) => (await db.query<T>(sql, params)).rows,
    exec: async (script) => {
      await db.exec(script);
    },
  };
}

/** PGlite's own transaction() holds its lock, so the Prisma client's queries cannot interleave. */
export function pgliteTarget(pglite: PGlite): MigrationTarget {
  return {
    ...pgliteSession(pglite),
    transaction: (work) => pglite.transaction((tx) => work(pgliteSession(tx))),
  };
}

/** Connects to `url` on a connection of its own, migrates, disconnects. */
export async function migratePostgres(
  url: string,
  migrations: Migration[] = readMigrations(),
  connectTimeoutMs = 10_000,
): Promise<MigrationReport> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs });
  await client.connect();
  try {
    return await applyMigrations(pgTarget(client), migrations);
  } finally {
    await client.end();
  }
}
