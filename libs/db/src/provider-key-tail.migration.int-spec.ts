import { randomUUID } from 'node:crypto';
import { migratePostgres, readMigrations } from './migrator';
import { createScratchDatabase } from './test/scratch-postgres';
import pg from 'pg';

const MIGRATION = '20261125180000_provider_key_tail';

describe(`migration ${MIGRATION}: last4 never shows more than half of a stored key`, () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let client: pg.Client;

  beforeAll(async () => {
    scratch = await createScratchDatabase();
    const before = readMigrations().filter((m) => m.name < MIGRATION);
    await migratePostgres(scratch.url, before);
    client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await scratch?.drop();
  });

  it('cuts the tail of a key shorter than eight characters to half of it, and blanks one that is not ASCII', async () => {
    const orgId = randomUUID();
    await client.query(`INSERT INTO "orgs" (id, name, updated_at) VALUES ($1, 'tail test', now())`, [orgId]);
    // Each key as the router stored it before: its ciphertext as long as its UTF-8 bytes, last4 its last four.
    const keys: Record<string, { key: string; shown: string }> = {
      vendor_a: { key: 'k', shown: '' },
      vendor_b: { key: 'abc', shown: 'c' },
      vendor_c: { key: 'abcd', shown: 'cd' },
      vendor_d: { key: 'abcdefg', shown: 'efg' },
      vendor_e: { key: 'abcdefgh', shown: 'efgh' },
      vendor_f: { key: 'sk-0123456789-WXYZ', shown: 'WXYZ' },
      vendor_g: { key: 'key-with-ümläut-é', shown: '' },
    };
    for (const [provider, { key }] of Object.entries(keys)) {
      await client.query(
        `INSERT INTO "provider_keys" (id, org_id, provider, ciphertext, nonce, auth_tag, key_version, last4, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, 1, $7, now())`,
        [
          randomUUID(),
          orgId,
          provider,
          Buffer.from(key, 'utf8'),
          Buffer.alloc(12),
          Buffer.alloc(16),
          key.slice(-4),
        ],
      );
    }

    // This migration and any later one.
    const { applied } = await migratePostgres(scratch.url);
    expect(applied[0]).toBe(MIGRATION);

    const rows = await client.query<{ provider: string; last4: string }>(
      `SELECT provider, last4 FROM "provider_keys" ORDER BY provider`,
    );
    expect(Object.fromEntries(rows.rows.map((row) => [row.provider, row.last4]))).toEqual(
      Object.fromEntries(Object.entries(keys).map(([provider, { shown }]) => [provider, shown])),
    );
  });
});
