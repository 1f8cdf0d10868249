// Prisma CLI configuration (`prisma <cmd> --config libs/db/prisma.config.ts`). The engines host is not
// reachable from our machines, so the CLI runs its JS/wasm schema engine over @prisma/adapter-pg instead of
// downloaded binaries. Callers set CHECKPOINT_DISABLE=1 and a postgresql:// DATABASE_URL: without a URL the
// CLI tries to download a query engine even for `generate`, which never connects.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { defineConfig } from 'prisma/config';
import { createPgPool, pgAdapterFactory, withDatabase, type PgDriverAdapter } from './src/pg-adapter';

async function runOnServer(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * adapter-pg's own shadow database keeps the main URL's database (the connection string wins over the
 * `database` it adds) and drops the shadow database while its pool is still connected. This one points a
 * fresh URL at the shadow database and closes its pool before dropping it (FORCE: a backend may outlive its
 * closed connection for a moment).
 */
class SchemaEngineAdapterFactory {
  readonly provider = 'postgres' as const;
  readonly adapterName = '@prisma/adapter-pg';

  constructor(private readonly url: string) {}

  connect(): Promise<PgDriverAdapter> {
    return pgAdapterFactory(createPgPool(this.url), { disposePool: true }).connect();
  }

  async connectToShadowDb(): Promise<PgDriverAdapter> {
    const name = `prisma_shadow_${randomUUID().replaceAll('-', '')}`;
    await runOnServer(this.url, `CREATE DATABASE "${name}"`);
    const shadowPool = createPgPool(withDatabase(this.url, name));
    const adapter = await pgAdapterFactory(shadowPool, { disposePool: true }).connect();
    const dispose = adapter.dispose.bind(adapter);
    adapter.dispose = async () => {
      await dispose();
      await runOnServer(this.url, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    };
    return adapter;
  }
}

const databaseUrl = process.env['DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: path.join(__dirname, 'prisma', 'schema.prisma'),
  migrations: { path: path.join(__dirname, 'prisma', 'migrations') },
  adapter: () => Promise.resolve(new SchemaEngineAdapterFactory(databaseUrl)),
});
