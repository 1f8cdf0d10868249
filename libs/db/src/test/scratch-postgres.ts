import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { withDatabase } from '../pg-adapter';

// tools/services/ensure.sh exports DATABASE_URL_BASE (server only); trust auth as postgres is the fallback.
const serverUrl = process.env['DATABASE_URL_BASE'] ?? 'postgresql://postgres@127.0.0.1:5432';
const adminUrl = withDatabase(serverUrl, 'postgres');

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A uniquely named, empty database on the local server; drop() removes it even if connections linger. */
export async function createScratchDatabase(): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `router_db_test_${randomUUID().replaceAll('-', '')}`;
  await admin(`CREATE DATABASE "${name}"`);
  return {
    name,
    url: withDatabase(serverUrl, name),
    drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}
