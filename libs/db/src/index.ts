// The router's database: the Prisma client and its types, one way to open PostgreSQL or the embedded
// PGlite, the migrator both use, and the Nest module that provides it.
export { createDatabase, type Database, type DatabaseOptions } from './database';
export { DATABASE, DbModule, PRISMA, type DbModuleAsyncOptions, type DbModuleOptions } from './db.module';
export { defaultMigrationsDir, readMigrations, type Migration, type MigrationReport } from './migrator';
export { describeUrl, QUERY_TIMEOUT_MARGIN_MS, type PgTimeouts } from './pg-adapter';
export type { Sql } from './sql';
export { CreditState, Prisma, PrismaClient } from '@prisma/client';
export type {
  ApiKey,
  CacheEntry,
  DashboardSession,
  Member,
  Org,
  ProviderKey,
  UsageCounter,
} from '@prisma/client';
