import type { ApiKey, AuditEvent, Member } from '@router/dashboard-types';
import { call, createOrgWithMember, type HttpResult, readE2eStack, signIn } from '@router/testing';

const stack = readE2eStack();
const gw = stack.gatewayUrl;

type Session = Awaited<ReturnType<typeof signIn>>;
type Who = 'owner' | 'member' | 'other';

/** What one endpoint is asked, as whom, with what it must answer each of them. */
interface Row {
  /** The method and the path as the OpenAPI document writes it. */
  endpoint: string;
  /** The request: the path with its parameters filled in, and a body. */
  request: (who: Who) => Promise<{ path: string; body?: unknown }> | { path: string; body?: unknown };
  expect: Record<Who, number>;
  /** What else must hold of the answer (another org's data never in it). */
  check?: (who: Who, answer: HttpResult<any>) => void;
}

/**
 * The role matrix over every `/api/...` endpoint and the provider-key endpoints a session may use: an owner of
 * org A, a member of org A, and an owner of org B, each asking for what the endpoint does in org A (a path
 * naming a thing of org A) or in their own org. Every endpoint of the OpenAPI document must have its row.
 */
describe('dashboard roles (e2e)', () => {
  const a = createOrgWithMember(stack.adminUrl, 'roles-a');
  const b = createOrgWithMember(stack.adminUrl, 'roles-b');
  const sessions = {} as Record<Who, Session>;
  const headers = (who: Who) => ({ cookie: sessions[who].cookie, 'x-csrf-token': sessions[who].csrf });
  const ask = (who: Who, method: string, path: string, body?: unknown) =>
    call(gw, method, path, { headers: headers(who), ...(body === undefined ? {} : { body }) });
  let serial = 0;
  const address = (what: string) => `roles-${what}-${Date.now()}-${++serial}@example.com`;
  /** A thing of org A made by its owner, for a path to name. */
  const aKey = async () => (await ask('owner', 'POST', '/api/keys', { name: 'matrix' })).body.id as string;
  const aMember = async () =>
    (await ask('owner', 'POST', '/api/members', { email: address('spare'), role: 'member' })).body.member
      .id as string;

  beforeAll(async () => {
    sessions.owner = await signIn(gw, a.email, a.code);
    sessions.other = await signIn(gw, b.email, b.code);
    const invited = await ask('owner', 'POST', '/api/members', { email: address('member'), role: 'member' });
    expect(invited.status).toBe(201);
    sessions.member = await signIn(gw, invited.body.member.email, invited.body.code);
  });

  const ownOrg = (who: Who) => (who === 'other' ? b.orgId : a.orgId);
  const rows: Row[] = [
    {
      endpoint: 'GET /api/session',
      request: () => ({ path: '/api/session' }),
      expect: { owner: 200, member: 200, other: 200 },
      check: (who, answer) => {
        expect(answer.body.org.id).toBe(ownOrg(who));
        expect(answer.body.role).toBe(who === 'member' ? 'member' : 'owner');
      },
    },
    {
      endpoint: 'GET /api/keys',
      request: () => ({ path: '/api/keys' }),
      expect: { owner: 200, member: 200, other: 200 },
      check: (who, answer) => {
        const names = (answer.body as ApiKey[]).map((k) => k.name);
        if (who === 'other') expect(names).not.toContain('matrix');
      },
    },
    {
      endpoint: 'POST /api/keys',
      request: (who) => ({ path: '/api/keys', body: { name: `by ${who}` } }),
      expect: { owner: 201, member: 201, other: 201 },
    },
    {
      endpoint: 'DELETE /api/keys/{keyId}',
      request: async () => ({ path: `/api/keys/${await aKey()}` }),
      expect: { owner: 200, member: 200, other: 404 },
    },
    {
      endpoint: 'GET /api/org',
      request: () => ({ path: '/api/org' }),
      expect: { owner: 200, member: 200, other: 200 },
      check: (who, answer) => expect(answer.body.id).toBe(ownOrg(who)),
    },
    {
      endpoint: 'PUT /api/org/retention',
      request: () => ({ path: '/api/org/retention', body: { retention_days: 90 } }),
      expect: { owner: 200, member: 403, other: 200 },
    },
    {
      endpoint: 'GET /api/usage',
      request: () => ({ path: '/api/usage' }),
      expect: { owner: 200, member: 200, other: 200 },
    },
    {
      endpoint: 'GET /api/vendors',
      request: () => ({ path: '/api/vendors' }),
      expect: { owner: 200, member: 200, other: 200 },
    },
    {
      endpoint: 'GET /api/members',
      request: () => ({ path: '/api/members' }),
      expect: { owner: 200, member: 200, other: 200 },
      check: (who, answer) => {
        const emails = (answer.body as Member[]).map((m) => m.email);
        expect(emails.includes(a.email.toLowerCase())).toBe(who !== 'other');
      },
    },
    {
      endpoint: 'POST /api/members',
      request: () => ({ path: '/api/members', body: { email: address('invited'), role: 'member' } }),
      expect: { owner: 201, member: 403, other: 201 },
    },
    {
      endpoint: 'POST /api/members/{memberId}/code',
      request: async () => ({ path: `/api/members/${await aMember()}/code` }),
      expect: { owner: 201, member: 403, other: 404 },
    },
    {
      endpoint: 'PUT /api/members/{memberId}/role',
      request: async () => ({ path: `/api/members/${await aMember()}/role`, body: { role: 'owner' } }),
      expect: { owner: 200, member: 403, other: 404 },
    },
    {
      endpoint: 'DELETE /api/members/{memberId}',
      request: async () => ({ path: `/api/members/${await aMember()}` }),
      expect: { owner: 204, member: 403, other: 404 },
    },
    {
      endpoint: 'GET /api/audit',
      request: () => ({ path: '/api/audit' }),
      expect: { owner: 200, member: 200, other: 200 },
      check: (who, answer) => {
        const actors = new Set((answer.body as AuditEvent[]).map((e) => e.actor));
        expect(actors.has(a.email.toLowerCase())).toBe(who !== 'other');
      },
    },
    {
      endpoint: 'GET /api/requests',
      request: () => ({ path: '/api/requests' }),
      expect: { owner: 200, member: 200, other: 200 },
      check: (_who, answer) => expect(Array.isArray(answer.body.rows)).toBe(true),
    },
    {
      endpoint: 'GET /api/requests/export',
      request: () => ({ path: '/api/requests/export' }),
      expect: { owner: 200, member: 200, other: 200 },
    },
    {
      endpoint: 'GET /api/breakdowns',
      request: () => ({ path: '/api/breakdowns' }),
      expect: { owner: 200, member: 200, other: 200 },
    },
    {
      endpoint: 'GET /api/cache',
      request: () => ({ path: '/api/cache' }),
      expect: { owner: 200, member: 200, other: 200 },
      check: (_who, answer) => expect(answer.body).toMatchObject({ entries: 0, bytes: 0, vendors: [] }),
    },
    {
      endpoint: 'GET /api/cache/retention-preview',
      request: () => ({ path: '/api/cache/retention-preview?retention_days=0' }),
      expect: { owner: 200, member: 200, other: 200 },
      check: (_who, answer) => expect(answer.body).toMatchObject({ retention_days: 0, entries: 0 }),
    },
    {
      endpoint: 'DELETE /api/cache',
      request: () => ({ path: '/api/cache' }),
      expect: { owner: 200, member: 403, other: 200 },
      check: (_who, answer) => expect(answer.body).toEqual({ evicted: 0 }),
    },
    {
      endpoint: 'GET /v1/provider-keys',
      request: () => ({ path: '/v1/provider-keys' }),
      expect: { owner: 200, member: 200, other: 200 },
    },
    {
      endpoint: 'PUT /v1/provider-keys/{provider}',
      request: () => ({ path: '/v1/provider-keys/vendor_d', body: { api_key: 'roles-vendor-d-key' } }),
      expect: { owner: 200, member: 403, other: 200 },
    },
    {
      endpoint: 'POST /v1/provider-keys/{provider}/test',
      // Any member may test; the other org's owner tests its own org, which has no vendor_e key.
      request: (who) => ({ path: `/v1/provider-keys/${who === 'other' ? 'vendor_e' : 'vendor_d'}/test` }),
      expect: { owner: 200, member: 200, other: 200 },
      check: (who, answer) =>
        expect(answer.body).toMatchObject(
          who === 'other' ? { ok: false, code: 'provider_key_missing' } : { ok: true, check: 'synthesis' },
        ),
    },
    {
      endpoint: 'DELETE /v1/provider-keys/{provider}',
      request: (who) => ({ path: `/v1/provider-keys/${who === 'other' ? 'vendor_e' : 'vendor_d'}` }),
      // The other org has no vendor_e key: its owner's delete touches its own org only, and finds none.
      expect: { owner: 204, member: 403, other: 404 },
    },
  ];
  /** Asked last, each with a session of its own: it ends the session. */
  const signOut = 'DELETE /api/session';
  /** Sign-in takes no session, so no role (sessions.e2e-spec.ts: its code, its limits, its origin). */
  const signInEndpoint = 'POST /api/session';

  it('has a row for every endpoint the OpenAPI document lists under /api and /v1/provider-keys', async () => {
    const doc = await call(gw, 'GET', '/openapi.json');
    const listed = Object.entries(doc.body.paths as Record<string, Record<string, unknown>>)
      .filter(([path]) => path.startsWith('/api/') || path.startsWith('/v1/provider-keys'))
      .flatMap(([path, operations]) => Object.keys(operations).map((m) => `${m.toUpperCase()} ${path}`));
    expect([...rows.map((r) => r.endpoint), signOut, signInEndpoint].sort()).toEqual(listed.sort());
  });

  it.each(rows.map((row) => [row.endpoint, row] as const))(
    '%s: an owner, a member and another org each get what their role allows',
    async (_endpoint, row) => {
      const method = row.endpoint.split(' ')[0];
      const answers: Record<string, number> = {};
      // The member and the other org first, so an owner's change comes last.
      for (const who of ['member', 'other', 'owner'] as const) {
        const { path, body } = await row.request(who);
        const answer = await ask(who, method, path, body);
        answers[who] = answer.status;
        if (answer.status === 403) expect(answer.body.error.code).toBe('forbidden');
        if (answer.status < 300) row.check?.(who, answer);
      }
      expect(answers).toEqual(row.expect);
    },
  );

  it(`${signOut}: anyone signed in signs out`, async () => {
    for (const who of ['member', 'other', 'owner'] as const) {
      expect((await ask(who, 'DELETE', '/api/session')).status).toBe(204);
      expect((await ask(who, 'GET', '/api/session')).status).toBe(401);
    }
  });
});
