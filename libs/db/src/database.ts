import { PrismaClient } from '@prisma/client';
import {
  applyMigrations,
  migratePostgres,
  pgliteTarget,
  readMigrations,
  type MigrationReport,
} from './migrator';
import { createGuardedPgPool } from './guarded-pool';
import { assertPostgresUrl, createPgPool, pgAdapterFactory, type PgTimeouts } from './pg-adapter';
import { pgliteAdapterFactory } from './pglite-adapter';
import { loadPglite } from './pglite-loader';
import { pgliteSql, poolSql, type Sql } from './sql';

export interface DatabaseOptions {
  /** A postgresql:// URL. Without it the database is an embedded PGlite. */
  url?: string;
  /** PGlite only: 'memory://' (the default) or a folder that keeps the data across restarts. */
  pgliteDataDir?: string;
  /** Pool size for `url` (pg's default is 10). */
  poolSize?: number;
  /** Bounds on the waits for `url`'s server (none unless given: the services pass their configuration's). */
  timeouts?: PgTimeouts;
  /** Where the migration folders are; defaults to libs/db/prisma/migrations (or its copy in dist/). */
  migrationsDir?: string;
}

export interface Database {
  readonly kind: 'postgres' | 'pglite';
  readonly prisma: PrismaClient;
  /** Plain SQL over the same pool or PGlite, for hot paths where Prisma's per-query compilation costs too much. */
  readonly sql: Sql;
  /** Applies pending migrations. Safe to call again, and from several processes at once. */
  migrate(): Promise<MigrationReport>;
  /** Disconnects Prisma and closes the pool or PGlite (which otherwise keeps the process alive). Idempotent. */
  close(): Promise<void>;
}

function once<T>(work: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => (running ??= work());
}

/** Runs `work` at most once at a time; a call while one is running shares its result. */
function serialised<T>(work: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => (running ??= work().finally(() => (running = undefined)));
}

export async function createDatabase(options: DatabaseOptions = {}): Promise<Database> {
  const migrations = () => readMigrations(options.migrationsDir);

  if (options.url !== undefined) {
    const url = options.url;
    assertPostgresUrl(url);
    // With timeouts (the services), the pool refuses queries at once while its server is out of reach.
    const pool = options.timeouts
      ? createGuardedPgPool(url, options.poolSize, options.timeouts)
      : createPgPool(url, options.poolSize);
    const prisma = new PrismaClient({ adapter: pgAdapterFactory(pool) });
    return {
      kind: 'postgres',
      prisma,
      sql: poolSql(pool),
      migrate: serialised(() => migratePostgres(url, migrations())),
      close: once(async () => {
        await prisma.$disconnect();
        await pool.end();
      }),
    };
  }

  const pglite = await loadPglite().PGlite.create(options.pgliteDataDir ?? 'memory://');
  try {
    // PGlite takes the process's TZ; the adapter reads timestamptz text assuming +00 offsets.
    await pglite.exec("SET TIME ZONE 'UTC'");
  } catch (error) {
    await pglite.close();
    throw error;
  }
  const prisma = new PrismaClient({ adapter: pgliteAdapterFactory(pglite) });
  return {
    kind: 'pglite',
    prisma,
    sql: pgliteSql(pglite),
    migrate: serialised(() => applyMigrations(pgliteTarget(pglite), migrations())),
    close: once(async () => {
      await prisma.$disconnect();
      await pglite.close();
    }),
  };
}
