import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { call, createOrgWithKey, readE2eStack, SPEC_VENDOR_TOKENS } from '@router/testing';

const stack = readE2eStack();
const gw = stack.gatewayUrl;

describe('provider keys (e2e)', () => {
  const orgA = createOrgWithKey(stack.adminUrl, 'pk-a');
  const orgB = createOrgWithKey(stack.adminUrl, 'pk-b');
  const vendorKey = `vc-secret-${Date.now()}-Zq9X`;

  it('stores a vendor_c key, lists it, hides it from another org, deletes it once', async () => {
    const put = await call(gw, 'PUT', '/v1/provider-keys/vendor_c', {
      key: orgA.key,
      body: { api_key: vendorKey },
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ provider: 'vendor_c', last4: 'Zq9X', updated_at: expect.any(String) });
    expect(new Date(put.body.updated_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(put.text).not.toContain(vendorKey);

    const list = await call(gw, 'GET', '/v1/provider-keys', { key: orgA.key });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([put.body]);

    expect((await call(gw, 'GET', '/v1/provider-keys', { key: orgB.key })).body).toEqual([]);
    expect((await call(gw, 'DELETE', '/v1/provider-keys/vendor_c', { key: orgB.key })).status).toBe(404);

    const del = await call(gw, 'DELETE', '/v1/provider-keys/vendor_c', { key: orgA.key });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    const again = await call(gw, 'DELETE', '/v1/provider-keys/vendor_c', { key: orgA.key });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('not_found');
    expect((await call(gw, 'GET', '/v1/provider-keys', { key: orgA.key })).body).toEqual([]);
  });

  it('replaces a stored key with a new one', async () => {
    await call(gw, 'PUT', '/v1/provider-keys/vendor_a', {
      key: orgA.key,
      body: { api_key: 'first-key-AAAA' },
    });
    const second = await call(gw, 'PUT', '/v1/provider-keys/vendor_a', {
      key: orgA.key,
      body: { api_key: 'second-key-BBBB' },
    });
    expect(second.body.last4).toBe('BBBB');
    const list = await call(gw, 'GET', '/v1/provider-keys', { key: orgA.key });
    expect(list.body.map((k: { provider: string; last4: string }) => [k.provider, k.last4])).toEqual([
      ['vendor_a', 'BBBB'],
    ]);
  });

  it('accepts every one of the ten vendor tokens', async () => {
    const org = createOrgWithKey(stack.adminUrl, 'pk-all');
    for (const vendor of SPEC_VENDOR_TOKENS) {
      const res = await call(gw, 'PUT', `/v1/provider-keys/${vendor}`, {
        key: org.key,
        body: { api_key: `key-for-${vendor}` },
      });
      expect([vendor, res.status]).toEqual([vendor, 200]);
    }
    const list = await call(gw, 'GET', '/v1/provider-keys', { key: org.key });
    expect(list.body.map((k: { provider: string }) => k.provider)).toEqual(SPEC_VENDOR_TOKENS);
  });

  it.each([
    [
      'an unknown provider',
      '/v1/provider-keys/vendor_z',
      { api_key: 'k' },
      'provider must be one of vendor_a',
    ],
    [
      'an empty key',
      '/v1/provider-keys/vendor_c',
      { api_key: '' },
      'api_key must be a string of 1 to 512 characters',
    ],
    [
      'an oversized key',
      '/v1/provider-keys/vendor_c',
      { api_key: 'k'.repeat(513) },
      'api_key must be a string of 1 to 512 characters',
    ],
    ['a missing key', '/v1/provider-keys/vendor_c', {}, 'api_key must be a string of 1 to 512 characters'],
    [
      'a key of the wrong type',
      '/v1/provider-keys/vendor_c',
      { api_key: 42 },
      'api_key must be a string of 1 to 512 characters',
    ],
    ['an unknown field', '/v1/provider-keys/vendor_c', { api_key: 'k', extra: 1 }, 'extra'],
  ])('refuses %s with 422 naming the field', async (_what, path, body, message) => {
    const res = await call(gw, 'PUT', path, { key: orgA.key, body });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      error: { code: 'bad_request', message: expect.stringContaining(message), retryable: false },
    });
  });

  it('accepts a key of exactly 512 characters', async () => {
    const res = await call(gw, 'PUT', '/v1/provider-keys/vendor_b', {
      key: orgB.key,
      body: { api_key: 'k'.repeat(508) + 'LAST' },
    });
    expect(res.status).toBe(200);
    expect(res.body.last4).toBe('LAST');
  });

  it('refuses DELETE of an unknown provider with 422', async () => {
    const res = await call(gw, 'DELETE', '/v1/provider-keys/openvoice', { key: orgA.key });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toContain('provider');
  });

  it('refuses a body that is not JSON with bad_request', async () => {
    const res = await call(gw, 'PUT', '/v1/provider-keys/vendor_c', {
      key: orgA.key,
      rawBody: '{"api_key":',
    });
    expect(res.body.error.code).toBe('bad_request');
    expect([400, 422]).toContain(res.status);
  });

  it('keeps no router key and no vendor key in plain text in any database row or log line', async () => {
    const marker = `plain-vendor-key-${Date.now()}-QWERTY`;
    expect(
      (await call(gw, 'PUT', '/v1/provider-keys/vendor_d', { key: orgA.key, body: { api_key: marker } }))
        .status,
    ).toBe(200);
    const secrets = [marker, orgA.key, orgB.key, vendorKey];

    const client = new Client({ connectionString: stack.databaseUrl });
    await client.connect();
    try {
      const columns = await client.query<{ table_name: string; column_name: string }>(
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'",
      );
      expect(columns.rows.length).toBeGreaterThan(20);
      let cells = 0;
      for (const { table_name, column_name } of columns.rows) {
        const rows = await client.query(
          `SELECT "${column_name}"::text AS v, "${column_name}" AS raw FROM "${table_name}"`,
        );
        for (const row of rows.rows as Array<{ v: string | null; raw: unknown }>) {
          cells += 1;
          const texts = [row.v ?? ''];
          if (Buffer.isBuffer(row.raw)) texts.push(row.raw.toString('utf8'), row.raw.toString('latin1'));
          for (const secret of secrets) {
            expect(texts.some((t) => t.includes(secret)) ? `${table_name}.${column_name}` : 'clean').toBe(
              'clean',
            );
          }
        }
      }
      expect(cells).toBeGreaterThan(50);
    } finally {
      await client.end();
    }

    for (const file of readdirSync(stack.logDir)) {
      const text = readFileSync(join(stack.logDir, file), 'utf8');
      for (const secret of secrets) expect(text.includes(secret) ? file : 'clean').toBe('clean');
    }
  });
});
