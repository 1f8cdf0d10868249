import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { REPO_ROOT } from './processes';

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

/**
 * Migrates a scratch database with the migrate command (built in dist/), as a deployment would; a failed
 * migration drops the database and throws with the command's output.
 */
export async function migrateScratchDatabase(db: ScratchDatabase): Promise<void> {
  const migrate = spawnSync(process.execPath, [join(REPO_ROOT, 'dist/tools/migrate/main.js')], {
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: db.url },
    encoding: 'utf8',
  });
  if (migrate.status !== 0) {
    await db.drop();
    throw new Error(`migrate failed: ${migrate.stderr || migrate.stdout}`);
  }
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

/**
 * `npm test` sources tmp/services.env; a tool run plainly (`node dist/tools/bench/main.js`) reads it here
 * instead, without overriding what its environment already sets.
 */
export function loadServicesEnv(): void {
  const file = join(REPO_ROOT, 'tmp', 'services.env');
  if (!existsSync(file)) return;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (match && process.env[match[1]] === undefined) process.env[match[1]] = match[2];
  }
}
