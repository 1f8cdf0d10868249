import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/**
 * The local services the integration and e2e tests use, as `tools/services/ensure.sh` left them
 * (its env file is loaded by `npm test`), with this machine's defaults otherwise.
 */
export function servicesEnv(): {
  databaseUrlBase: string;
  natsUrl: string;
  s3: { endpoint: string; accessKey: string; secretKey: string };
} {
  const env = process.env;
  return {
    databaseUrlBase: env.DATABASE_URL_BASE ?? 'postgresql://postgres@127.0.0.1:5432',
    natsUrl: env.NATS_URL ?? 'nats://127.0.0.1:4222',
    s3: {
      endpoint: env.S3_ENDPOINT ?? 'http://127.0.0.1:4569',
      accessKey: env.S3_ACCESS_KEY ?? 'S3RVER',
      secretKey: env.S3_SECRET_KEY ?? 'S3RVER',
    },
  };
}

export interface ScratchDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A new, empty database on the local PostgreSQL, dropped afterwards. */
export async function createScratchDatabase(label: string): Promise<ScratchDatabase> {
  const base = servicesEnv().databaseUrlBase;
  const name = `router_${label}_${randomBytes(4).toString('hex')}`.toLowerCase();
  await withAdmin(base, (client) => client.query(`CREATE DATABASE "${name}"`));
  return {
    url: `${base}/${name}`,
    name,
    drop: () =>
      withAdmin(base, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}

async function withAdmin<T>(base: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: `${base}/postgres` });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
