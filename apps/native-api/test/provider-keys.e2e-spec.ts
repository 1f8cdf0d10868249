import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { type ProviderId, RouterApiError } from '@router/client';
import { call, createOrgClient, readE2eStack, SPEC_VENDOR_TOKENS } from '@router/testing';

const stack = readE2eStack();
const gw = stack.gatewayUrl;
const VENDORS = SPEC_VENDOR_TOKENS as readonly ProviderId[];

describe('provider keys (e2e)', () => {
  const orgA = createOrgClient(stack, 'pk-a');
  const orgB = createOrgClient(stack, 'pk-b');
  const vendorKey = `vc-secret-${Date.now()}-Zq9X`;

  it('stores a vendor_c key, lists it, hides it from another org, deletes it once', async () => {
    const put = await orgA.client.providerKeys.put('vendor_c', vendorKey);
    expect(put).toEqual({ provider: 'vendor_c', last4: 'Zq9X', updated_at: expect.any(String) });
    expect(new Date(put.updated_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(JSON.stringify(put)).not.toContain(vendorKey);

    expect(await orgA.client.providerKeys.list()).toEqual([put]);

    expect(await orgB.client.providerKeys.list()).toEqual([]);
    await expect(orgB.client.providerKeys.delete('vendor_c')).rejects.toMatchObject({
      code: 'not_found',
      httpStatus: 404,
    });

    // 204 with no body: the client resolves with nothing.
    expect(await orgA.client.providerKeys.delete('vendor_c')).toBeUndefined();
    const again = await orgA.client.providerKeys.delete('vendor_c').catch((e: unknown) => e);
    expect(again).toBeInstanceOf(RouterApiError);
    expect(again).toMatchObject({ code: 'not_found', httpStatus: 404, retryable: false });
    expect(await orgA.client.providerKeys.list()).toEqual([]);
  });

  it('answers DELETE with 204 and an empty body', async () => {
    await orgB.client.providerKeys.put('vendor_e', 'to-be-deleted');
    const del = await call(gw, 'DELETE', '/v1/provider-keys/vendor_e', { key: orgB.key });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
  });

  it('replaces a stored key with a new one', async () => {
    await orgA.client.providerKeys.put('vendor_a', 'first-key-AAAA');
    const second = await orgA.client.providerKeys.put('vendor_a', 'second-key-BBBB');
    expect(second.last4).toBe('BBBB');
    const list = await orgA.client.providerKeys.list();
    expect(list.map((k) => [k.provider, k.last4])).toEqual([['vendor_a', 'BBBB']]);
  });

  it('accepts every one of the ten vendor tokens', async () => {
    const { client } = createOrgClient(stack, 'pk-all');
    for (const vendor of VENDORS) {
      const stored = await client.providerKeys.put(vendor, `key-for-${vendor}`);
      expect(stored.provider).toBe(vendor);
    }
    expect((await client.providerKeys.list()).map((k) => k.provider)).toEqual(VENDORS);
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

  const hostile = createOrgClient(stack, 'pk-hostile');
  const HEADER_RULE = 'api_key must contain only printable ASCII characters other than space (! to ~)';
  it.each([
    ['a key holding a NUL', JSON.stringify({ api_key: 'a\u0000b' }), HEADER_RULE],
    ['a key holding a lone surrogate', '{"api_key":"key\\ud800x"}', HEADER_RULE],
    ['a key holding a CR LF', JSON.stringify({ api_key: 'key\r\nX-Other: 1' }), HEADER_RULE],
    ['a key holding a tab', JSON.stringify({ api_key: 'key\tkey' }), HEADER_RULE],
    ['a key holding a space', JSON.stringify({ api_key: 'key key' }), HEADER_RULE],
    ['a key holding a DEL', JSON.stringify({ api_key: 'key\u007f' }), HEADER_RULE],
    ['a key holding a character past ASCII', JSON.stringify({ api_key: 'clé-1234' }), HEADER_RULE],
    [
      'an api_key nested 20,000 arrays deep',
      `{"api_key":${'['.repeat(20_000)}${']'.repeat(20_000)}}`,
      'api_key nests arrays and objects deeper than the limit of 32 levels',
    ],
    ['a body of null', 'null', 'the body must be a JSON object'],
    ['a body that is an array', '[{"api_key":"k"}]', 'the body must be a JSON object'],
  ])('refuses %s with 422 naming the rule, and stores nothing', async (_what, rawBody, message) => {
    const res = await call(gw, 'PUT', '/v1/provider-keys/vendor_c', { key: hostile.key, rawBody });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      error: { code: 'bad_request', message: expect.stringContaining(message), retryable: false },
    });
    expect(await hostile.client.providerKeys.list()).toEqual([]);
  });

  it('shows at most half of a short key in last4, four characters of a longer one', async () => {
    const { client } = createOrgClient(stack, 'pk-short');
    const shown = async (key: string) => (await client.providerKeys.put('vendor_c', key)).last4;
    expect(await shown('k')).toBe('');
    expect(await shown('abc')).toBe('c');
    expect(await shown('abcd')).toBe('cd');
    expect(await shown('abcdefg')).toBe('efg');
    expect(await shown('abcdefgh')).toBe('efgh');
    expect((await client.providerKeys.list()).map((k) => k.last4)).toEqual(['efgh']);
  });

  it('accepts a key of exactly 512 characters', async () => {
    const stored = await orgB.client.providerKeys.put('vendor_b', 'k'.repeat(508) + 'LAST');
    expect(stored.last4).toBe('LAST');
  });

  it('refuses DELETE of an unknown provider with 422', async () => {
    await expect(orgA.client.providerKeys.delete('openvoice' as ProviderId)).rejects.toMatchObject({
      code: 'bad_request',
      httpStatus: 422,
      message: expect.stringContaining('provider'),
    });
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
    expect((await orgA.client.providerKeys.put('vendor_d', marker)).provider).toBe('vendor_d');
    const secrets = [marker, orgA.key, orgB.key, vendorKey];

    const client = new Client({ connectionString: stack.databaseUrl });
    await client.connect();
    try {
      const columns = await client.query<{ table_name: string; column_name: string }>(
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'",
      );
      expect(columns.rows.length).toBeGreaterThan(20);
      // Plain loops collecting the columns that leak, one expectation at the end: the stack's rows are the
      // whole shard's, too many for an expectation per cell.
      let cells = 0;
      const leaking = new Set<string>();
      for (const { table_name, column_name } of columns.rows) {
        const rows = await client.query(
          `SELECT "${column_name}"::text AS v, "${column_name}" AS raw FROM "${table_name}"`,
        );
        for (const row of rows.rows as Array<{ v: string | null; raw: unknown }>) {
          cells += 1;
          const texts = [row.v ?? ''];
          if (Buffer.isBuffer(row.raw)) texts.push(row.raw.toString('utf8'), row.raw.toString('latin1'));
          if (secrets.some((secret) => texts.some((t) => t.includes(secret)))) {
            leaking.add(`${table_name}.${column_name}`);
          }
        }
      }
      expect(cells).toBeGreaterThan(50);
      expect([...leaking]).toEqual([]);
    } finally {
      await client.end();
    }

    for (const file of readdirSync(stack.logDir)) {
      const text = readFileSync(join(stack.logDir, file), 'utf8');
      for (const secret of secrets) expect(text.includes(secret) ? file : 'clean').toBe('clean');
    }
  });
});
