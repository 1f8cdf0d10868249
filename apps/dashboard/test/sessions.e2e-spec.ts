import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { Client } from 'pg';
import {
  adminCli,
  call,
  createOrgWithKey,
  createOrgWithMember,
  eventually,
  readE2eStack,
  signIn,
} from '@router/testing';

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

  it('takes sign-in as JSON only, and refuses a change whose Origin or Sec-Fetch-Site shows another site', async () => {
    const c = createOrgWithMember(stack.adminUrl, 'sess-csrf');
    const form = await call(gw, 'POST', '/api/session', {
      rawBody: new URLSearchParams({ email: c.email, code: c.code }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    expect(form.body.error).toMatchObject({ code: 'bad_request' });
    expect(form.body.error.message).toContain('Content-Type: application/json');
    expect(form.headers.get('set-cookie')).toBeNull();
    const crossSite: Array<Record<string, string>> = [
      { origin: 'https://elsewhere.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of crossSite) {
      const posted = await call(gw, 'POST', '/api/session', {
        headers,
        body: { email: c.email, code: c.code },
      });
      expect({ headers, status: posted.status, code: posted.body.error?.code }).toEqual({
        headers,
        status: 403,
        code: 'forbidden',
      });
      expect(posted.headers.get('set-cookie')).toBeNull();
      // A signed-in change from another site is refused the same way, CSRF token or not.
      const issued = await call(gw, 'POST', '/api/keys', {
        headers: { ...as(sessionA), ...headers },
        body: { name: 'elsewhere' },
      });
      expect(issued.status).toBe(403);
    }
    // The code was never used: the dashboard's own page (its origin, the gateway's host) signs in with it.
    const own = await call(gw, 'POST', '/api/session', {
      headers: { origin: gw, 'sec-fetch-site': 'same-origin' },
      body: { email: c.email, code: c.code },
    });
    expect(own.status).toBe(200);
  });

  it('limits sign-ins per address: a 429 in the envelope with Retry-After, even for the right code', async () => {
    const c = createOrgWithMember(stack.adminUrl, 'sess-limit');
    const wrong = () =>
      call(gw, 'POST', '/api/session', { body: { email: c.email, code: 'ABCDE-FGHJK-MNPQR' } });
    // The stack allows 5 a minute per address (SIGN_IN_LIMIT_PER_ADDRESS).
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await wrong()).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    const limited = await wrong();
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      error: {
        code: 'rate_limited',
        message: expect.stringMatching(/^Too many sign-in attempts: try again in \d+ seconds?\.$/),
        retryable: true,
      },
    });
    const wait = Number(limited.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    // Typed differently, the address is the same one; the right code waits too.
    const right = await call(gw, 'POST', '/api/session', {
      body: { email: ` ${c.email.toUpperCase()} `, code: c.code },
    });
    expect(right.status).toBe(429);
  });

  it('limits sign-ins per client address, whatever addresses it tries', async () => {
    // From 127.0.0.2, so the other tests' sign-ins (from 127.0.0.1) are not counted with these.
    const statuses: number[] = [];
    for (let i = 0; i < 101; i++) {
      const answer = await postFrom('127.0.0.2', '/api/session', {
        email: `nobody${i}@example.com`,
        code: 'ABCDE-FGHJK-MNPQR',
      });
      statuses.push(answer.status);
      if (answer.status === 429) {
        expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        break;
      }
    }
    // SIGN_IN_LIMIT_PER_CLIENT is 100 in the stack.
    expect(statuses).toEqual([...Array<number>(100).fill(401), 429]);
    const elsewhere = await call(gw, 'POST', '/api/session', {
      body: { email: 'nobody0@example.com', code: 'ABCDE-FGHJK-MNPQR' },
    });
    expect(elsewhere.status).toBe(401);
  });

  it('issues a named key with an expiry, refused with 401 from that moment on', async () => {
    const named = await call(gw, 'POST', '/api/keys', { headers: as(sessionA), body: { name: '  ' } });
    expect(named.status).toBe(400);
    expect(named.body.error.message).toBe('name must not be blank');
    const past = await call(gw, 'POST', '/api/keys', {
      headers: as(sessionA),
      body: { name: 'past', expires_at: '2020-01-01T00:00:00Z' },
    });
    expect(past.status).toBe(400);
    expect(past.body.error.message).toContain('expires_at must be ahead of now');
    const notADate = await call(gw, 'POST', '/api/keys', {
      headers: as(sessionA),
      body: { name: 'x', expires_at: 'tomorrow' },
    });
    expect(notADate.body.error.message).toContain('expires_at must be a date and time');

    const expiresAt = new Date(Date.now() + 8000).toISOString();
    const issued = await call(gw, 'POST', '/api/keys', {
      headers: as(sessionA),
      body: { name: 'short-lived', expires_at: expiresAt },
    });
    expect(issued.status).toBe(201);
    expect(issued.body).toMatchObject({ name: 'short-lived', expires_at: expiresAt, revoked_at: null });
    expect((await call(gw, 'GET', '/v1/provider-keys', { key: issued.body.key })).status).toBe(200);
    await eventually(
      'the key is refused once it expired',
      async () => (await call(gw, 'GET', '/v1/provider-keys', { key: issued.body.key })).status === 401,
      20_000,
    );
    const listed = await call(gw, 'GET', '/api/keys', { headers: as(sessionA) });
    expect(listed.body.find((k: { id: string }) => k.id === issued.body.id)).toMatchObject({
      name: 'short-lived',
      expires_at: expiresAt,
    });
  });

  it('sends /api answers with no-store and nosniff, errors included', async () => {
    const answers = [
      await call(gw, 'GET', '/api/session', { headers: as(sessionA, false) }),
      await call(gw, 'POST', '/api/keys', { headers: as(sessionA), body: { name: 'headers' } }),
      await call(gw, 'GET', '/api/keys'),
      await call(gw, 'GET', '/api/nowhere', { headers: as(sessionA, false) }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 201, 401, 404]);
    expect(answers[1]?.body.key).toMatch(/^rtr_/);
    for (const answer of answers) {
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('serves /favicon.ico, and the pages and their assets compressed', async () => {
    const icon = await fetch(`${gw}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/x-icon');
    expect(Buffer.from(await icon.arrayBuffer()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
    const page = await call(gw, 'GET', '/dashboard/');
    const script = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(page.text)?.[1];
    expect(script).toBeDefined();
    for (const path of ['/dashboard/', script!]) {
      const raw = await rawGet(path, 'gzip');
      expect(raw.headers['content-encoding']).toBe('gzip');
      expect(raw.headers.vary).toBe('Accept-Encoding');
      const plain = await rawGet(path, 'identity');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(gunzipSync(raw.body)).toEqual(plain.body);
      if (path === script) expect(raw.body.length).toBeLessThan(plain.body.length / 2);
      expect((await rawGet(path, 'br, gzip')).headers['content-encoding']).toBe('br');
    }
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

/** A JSON POST to the gateway from a chosen loopback address (the gateway tells the app its peer's address). */
function postFrom(
  localAddress: string,
  path: string,
  body: unknown,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  const text = JSON.stringify(body);
  const url = new URL(path, gw);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

/** A GET whose body is kept as sent (fetch would decode it), with the encodings the client accepts. */
function rawGet(
  path: string,
  acceptEncoding: string,
): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, gw), { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}
