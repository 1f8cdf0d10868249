import {
  adminCli,
  call,
  createOrgWithKey,
  eventually,
  readE2eStack,
  streamHandshakeStatus,
} from '@router/testing';

const stack = readE2eStack();
const gw = stack.gatewayUrl;

describe('gateway authentication (e2e)', () => {
  it('lets a key made with the admin CLI in, and refuses missing and wrong keys with the envelope', async () => {
    const { key } = createOrgWithKey(stack.adminUrl, 'auth-basic');
    expect((await call(gw, 'GET', '/v1/provider-keys', { key })).status).toBe(200);

    for (const badKey of [undefined, 'rtr_' + 'x'.repeat(43), 'not-a-key']) {
      const res = await call(gw, 'GET', '/v1/provider-keys', badKey === undefined ? {} : { key: badKey });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        error: { code: 'unauthorized', message: expect.any(String), retryable: false },
      });
    }
  });

  it('refuses a revoked key within seconds', async () => {
    const { key, keyId } = createOrgWithKey(stack.adminUrl, 'auth-revoke');
    expect((await call(gw, 'GET', '/v1/provider-keys', { key })).status).toBe(200);
    const revoked = adminCli(stack.adminUrl, ['key', 'revoke', keyId]);
    expect(revoked.code).toBe(0);
    expect(revoked.out).toContain(`revoked key ${keyId}`);
    await eventually(
      'revoked key refused',
      async () => (await call(gw, 'GET', '/v1/provider-keys', { key })).status === 401,
    );
  });

  it('refuses every key of a disabled org, and lets them in again once enabled', async () => {
    const { orgId, key } = createOrgWithKey(stack.adminUrl, 'auth-disable');
    const second = adminCli(stack.adminUrl, ['key', 'issue', orgId, '--json']).json.key as string;
    expect((await call(gw, 'GET', '/v1/provider-keys', { key })).status).toBe(200);
    expect(adminCli(stack.adminUrl, ['org', 'disable', orgId]).code).toBe(0);
    await eventually(
      'disabled org refused',
      async () => (await call(gw, 'GET', '/v1/provider-keys', { key })).status === 401,
    );
    expect((await call(gw, 'GET', '/v1/provider-keys', { key: second })).status).toBe(401);
    expect(await streamHandshakeStatus(gw, key)).toBe(401);
    expect(adminCli(stack.adminUrl, ['org', 'enable', orgId]).code).toBe(0);
    await eventually(
      'enabled org accepted',
      async () => (await call(gw, 'GET', '/v1/provider-keys', { key })).status === 200,
    );
  });

  it('refuses requests and handshakes of an org out of credit with 402, until credit is back', async () => {
    const { orgId, key } = createOrgWithKey(stack.adminUrl, 'auth-credit');
    expect(adminCli(stack.adminUrl, ['org', 'credit', orgId, 'out']).code).toBe(0);
    await eventually(
      'out of credit refused',
      async () => (await call(gw, 'GET', '/v1/provider-keys', { key })).status === 402,
    );
    const res = await call(gw, 'PUT', '/v1/provider-keys/vendor_a', { key, body: { api_key: 'k-12345678' } });
    expect(res.status).toBe(402);
    expect(res.body).toEqual({
      error: { code: 'insufficient_credits', message: expect.any(String), retryable: false },
    });
    expect(await streamHandshakeStatus(gw, key)).toBe(402);
    expect(adminCli(stack.adminUrl, ['org', 'credit', orgId, 'in']).code).toBe(0);
    await eventually(
      'credit restored',
      async () => (await call(gw, 'GET', '/v1/provider-keys', { key })).status === 200,
    );
  });

  it('refuses a handshake without a key with 401', async () => {
    expect(await streamHandshakeStatus(gw, undefined)).toBe(401);
  });

  it('serves the catalogue and the OpenAPI document without a key', async () => {
    expect((await call(gw, 'GET', '/v1/models')).status).toBe(200);
    const openapi = await call(gw, 'GET', '/openapi.json');
    expect(openapi.status).toBe(200);
    expect(openapi.body.openapi).toBe('3.1.0');
    expect(Object.keys(openapi.body.paths)).toEqual(
      expect.arrayContaining(['/v1/models', '/v1/provider-keys', '/v1/provider-keys/{provider}']),
    );
  });

  it('answers an unknown path with a 404 envelope', async () => {
    const res = await call(gw, 'GET', '/nowhere');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  it('has the admin API refuse out-of-range retention and unknown fields, naming them', async () => {
    const { orgId } = createOrgWithKey(stack.adminUrl, 'auth-admin-api');
    for (const body of [{ retention_days: -1 }, { retention_days: 2.5 }, { retention_days: 3651 }]) {
      const res = await call(stack.adminUrl, 'PATCH', `/admin/orgs/${orgId}`, { body });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('retention_days must be 0 (off) or 1 to 3650');
    }
    const unknown = await call(stack.adminUrl, 'PATCH', `/admin/orgs/${orgId}`, { body: { colour: 'red' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain('colour: unknown field');
    const created = await call(stack.adminUrl, 'POST', '/admin/orgs', {
      body: { name: 'r1', retention_days: 1 },
    });
    expect(created.body.retention_days).toBe(1);
  });

  it('reports clear admin CLI errors for unknown orgs and bad values', () => {
    const unknown = adminCli(stack.adminUrl, ['org', 'show', '00000000-0000-4000-8000-000000000000']);
    expect(unknown.code).toBe(1);
    expect(unknown.out).toContain('No org with id 00000000-0000-4000-8000-000000000000');
    const { orgId } = createOrgWithKey(stack.adminUrl, 'auth-cli');
    const bad = adminCli(stack.adminUrl, ['org', 'retention', orgId, '3651']);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('retention_days must be 0 (off) or 1 to 3650');
    const notNumber = adminCli(stack.adminUrl, ['org', 'retention', orgId, 'ten']);
    expect(notNumber.code).toBe(2);
    expect(notNumber.out).toContain('DAYS must be a whole number of days');
    const ok = adminCli(stack.adminUrl, ['org', 'retention', orgId, '0', '--json']);
    expect(ok.json.retention_days).toBe(0);
    const listed = adminCli(stack.adminUrl, ['org', 'list', '--json']).json as Array<{ id: string }>;
    expect(listed.map((o) => o.id)).toContain(orgId);
  });
});
