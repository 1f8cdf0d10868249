import { Client } from 'pg';
import { adminCli, call, createOrgWithKey, createOrgWithMember, readE2eStack, signIn } from '@router/testing';

const stack = readE2eStack();
const gw = stack.gatewayUrl;

/** The session rules, through the gateway: cookie flags, CSRF, expiry, one org per member. */
describe('dashboard sessions (e2e)', () => {
  const a = createOrgWithMember(stack.adminUrl, 'sess-a');
  const b = createOrgWithMember(stack.adminUrl, 'sess-b');
  let sessionA: Awaited<ReturnType<typeof signIn>>;
  const as = (session: { cookie: string; csrf?: string }, csrf = true) => ({
    cookie: session.cookie,
    ...(csrf && session.csrf ? { 'x-csrf-token': session.csrf } : {}),
  });

  beforeAll(async () => {
    sessionA = await signIn(gw, a.email, a.code);
  });

  it('sets an HTTP-only, SameSite=Strict cookie for the session, Secure when the page came over TLS', async () => {
    expect(sessionA.setCookie).toMatch(
      /^rtr_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/,
    );
    const code = adminCli(stack.adminUrl, ['member', 'code', b.email, '--json']);
    const res = await fetch(`${gw}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
      body: JSON.stringify({ email: b.email, code: code.json.code }),
    });
    expect(res.headers.get('set-cookie')).toMatch(/; HttpOnly; SameSite=Strict; Max-Age=\d+; Secure$/);
    // The sign-in code works once.
    const again = await call(gw, 'POST', '/api/session', { body: { email: b.email, code: code.json.code } });
    expect(again.status).toBe(401);
  });

  it('refuses /api/... and /v1/provider-keys without a session (401), and /api/... with only an API key', async () => {
    expect((await call(gw, 'GET', '/api/keys')).status).toBe(401);
    expect(
      (await call(gw, 'GET', '/api/org', { headers: { cookie: `rtr_session=${'x'.repeat(43)}` } })).status,
    ).toBe(401);
    const { key } = createOrgWithKey(stack.adminUrl, 'sess-key');
    const withKey = await call(gw, 'GET', '/api/keys', { key });
    expect(withKey.status).toBe(401);
    expect(withKey.body.error.code).toBe('unauthorized');
    const noSession = await call(gw, 'GET', '/v1/provider-keys', {
      headers: { cookie: `rtr_session=${'y'.repeat(43)}` },
    });
    expect(noSession.status).toBe(401);
  });

  it('takes the session on /v1/provider-keys, and refuses a change without its CSRF token (403)', async () => {
    const put = await call(gw, 'PUT', '/v1/provider-keys/vendor_b', {
      headers: as(sessionA),
      body: { api_key: 'session-stored-key-QQQQ' },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ provider: 'vendor_b', last4: 'QQQQ' });
    expect((await call(gw, 'GET', '/v1/provider-keys', { headers: as(sessionA, false) })).body).toEqual([
      put.body,
    ]);

    for (const headers of [as(sessionA, false), { ...as(sessionA, false), 'x-csrf-token': 'forged' }]) {
      const forged = await call(gw, 'DELETE', '/v1/provider-keys/vendor_b', { headers });
      expect(forged.status).toBe(403);
      expect(forged.body.error.code).toBe('forbidden');
      const issue = await call(gw, 'POST', '/api/keys', { headers });
      expect(issue.status).toBe(403);
    }
    expect((await call(gw, 'GET', '/v1/provider-keys', { headers: as(sessionA, false) })).body).toHaveLength(
      1,
    );
  });

  it("shows a member only their own org: another org's key cannot be revoked, its vendor keys are not seen", async () => {
    const other = createOrgWithKey(stack.adminUrl, 'sess-other');
    const revoke = await call(gw, 'DELETE', `/api/keys/${other.keyId}`, { headers: as(sessionA) });
    expect(revoke.status).toBe(404);
    expect((await call(gw, 'GET', '/v1/voices?provider=vendor_a', { key: other.key })).status).not.toBe(401);
    const org = await call(gw, 'GET', '/api/org', { headers: as(sessionA) });
    expect(org.body).toMatchObject({ id: a.orgId, retention_days: 365, credit: 'in' });
    const keys = await call(gw, 'GET', '/api/keys', { headers: as(sessionA) });
    expect(keys.body).toEqual([]);
    await call(gw, 'PUT', '/v1/provider-keys/vendor_c', {
      key: other.key,
      body: { api_key: 'other-org-key' },
    });
    const seen = await call(gw, 'GET', '/v1/provider-keys', { headers: as(sessionA) });
    expect(seen.body.map((k: { provider: string }) => k.provider)).not.toContain('vendor_c');
  });

  it('ends a session at its expiry and at sign-out', async () => {
    const c = createOrgWithMember(stack.adminUrl, 'sess-c');
    const expiring = await signIn(gw, c.email, c.code);
    expect((await call(gw, 'GET', '/api/session', { headers: as(expiring) })).status).toBe(200);
    const db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      await db.query(
        "UPDATE dashboard_sessions SET expires_at = now() - interval '1 second' WHERE member_id = (SELECT id FROM members WHERE email = $1)",
        [c.email.toLowerCase()],
      );
    } finally {
      await db.end();
    }
    expect((await call(gw, 'GET', '/api/session', { headers: as(expiring) })).status).toBe(401);
    expect((await call(gw, 'GET', '/v1/provider-keys', { headers: as(expiring) })).status).toBe(401);

    const code = adminCli(stack.adminUrl, ['member', 'code', c.email, '--json']);
    const fresh = await signIn(gw, c.email, code.json.code);
    const out = await call(gw, 'DELETE', '/api/session', { headers: as(fresh) });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^rtr_session=; .*Max-Age=0/);
    expect((await call(gw, 'GET', '/api/keys', { headers: as(fresh) })).status).toBe(401);
  });

  it('describes the /api/... endpoints in /openapi.json, with the session cookie as their security', async () => {
    const doc = await call(gw, 'GET', '/openapi.json');
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/session',
        '/api/keys',
        '/api/keys/{keyId}',
        '/api/org',
        '/api/org/retention',
        '/api/usage',
        '/api/vendors',
        '/v1/provider-keys',
      ]),
    );
    expect(doc.body.components.securitySchemes.session).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'rtr_session',
    });
    expect(doc.body.paths['/api/keys'].get.security).toEqual([{ session: [] }]);
  });
});
