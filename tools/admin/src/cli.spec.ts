import { runCli } from './cli';

function harness(respond: (url: string, init: RequestInit) => { status: number; body: unknown }) {
  const lines: string[] = [];
  const calls: Array<{ url: string; method: string; body: unknown; auth: string | undefined }> = [];
  const fakeFetch = (async (input: URL | string, init: RequestInit = {}) => {
    const url = String(input);
    const headers = init.headers as Record<string, string>;
    calls.push({
      url,
      method: init.method ?? 'GET',
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      auth: headers.authorization,
    });
    const { status, body } = respond(url, init);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return {
    lines,
    calls,
    ctx: {
      adminUrl: 'http://127.0.0.1:3100',
      adminToken: 'tok',
      out: (l: string) => lines.push(l),
      fetch: fakeFetch,
    },
  };
}

const org = { id: 'o1', name: 'Acme', retention_days: 30, disabled: false, credit: 'in', active_keys: 0 };

describe('router-admin', () => {
  it('creates an org with retention, sending the token', async () => {
    const h = harness(() => ({ status: 201, body: org }));
    expect(await runCli(['org', 'create', '--name', 'Acme', '--retention', '30'], h.ctx)).toBe(0);
    expect(h.calls).toEqual([
      {
        url: 'http://127.0.0.1:3100/admin/orgs',
        method: 'POST',
        body: { name: 'Acme', retention_days: 30 },
        auth: 'Bearer tok',
      },
    ]);
    expect(h.lines[0]).toContain('created org o1');
  });

  it('maps each org command to its change', async () => {
    const h = harness(() => ({ status: 200, body: org }));
    await runCli(['org', 'credit', 'o1', 'out'], h.ctx);
    await runCli(['org', 'disable', 'o1'], h.ctx);
    await runCli(['org', 'enable', 'o1'], h.ctx);
    await runCli(['org', 'retention', 'o1', '0'], h.ctx);
    expect(h.calls.map((c) => [c.method, c.url.replace('http://127.0.0.1:3100', ''), c.body])).toEqual([
      ['PATCH', '/admin/orgs/o1', { credit: 'out' }],
      ['PATCH', '/admin/orgs/o1', { disabled: true }],
      ['PATCH', '/admin/orgs/o1', { disabled: false }],
      ['PATCH', '/admin/orgs/o1', { retention_days: 0 }],
    ]);
  });

  it("sets an org's limits, each a number or back to the default, and shows them", async () => {
    const limited = {
      ...org,
      max_concurrent_syntheses: 4,
      max_open_sockets: null,
      max_requests_per_second: 0,
    };
    const h = harness(() => ({ status: 200, body: limited }));
    expect(
      await runCli(['org', 'limits', 'o1', '--syntheses', '4', '--sockets', 'default', '--rps', '0'], h.ctx),
    ).toBe(0);
    expect(await runCli(['org', 'limits', 'o1', '--rps', '20'], h.ctx)).toBe(0);
    expect(h.calls.map((c) => [c.method, c.url.replace('http://127.0.0.1:3100', ''), c.body])).toEqual([
      [
        'PATCH',
        '/admin/orgs/o1',
        { max_concurrent_syntheses: 4, max_open_sockets: null, max_requests_per_second: 0 },
      ],
      ['PATCH', '/admin/orgs/o1', { max_requests_per_second: 20 }],
    ]);
    expect(h.lines[0]).toContain('limits syntheses 4 sockets default rps none');
    expect(await runCli(['org', 'limits', 'o1'], h.ctx)).toBe(2);
    expect(await runCli(['org', 'limits', 'o1', '--rps', 'lots'], h.ctx)).toBe(2);
    expect(h.calls).toHaveLength(2);
    expect(h.lines.join('\n')).toContain('--rps must be a whole number or "default", got "lots"');
  });

  it('prints an issued key once with a warning', async () => {
    const h = harness(() => ({ status: 201, body: { id: 'k1', key: 'rtr_secret' } }));
    expect(await runCli(['key', 'issue', 'o1'], h.ctx)).toBe(0);
    expect(h.lines[0]).toContain('rtr_secret');
    expect(h.lines[0]).toContain('shown once');
  });

  it('adds a member and prints new sign-in codes, the address in the body', async () => {
    const code = {
      member: { id: 'm1', org_id: 'o1', email: 'ana@example.com', created_at: '2026-11-26T00:00:00.000Z' },
      code: 'ABCDE-FGHJK-MNPQR',
      expires_at: '2026-11-27T00:00:00.000Z',
    };
    const h = harness(() => ({ status: 201, body: code }));
    expect(await runCli(['member', 'add', 'o1', 'ana@example.com'], h.ctx)).toBe(0);
    expect(await runCli(['member', 'code', 'ana@example.com'], h.ctx)).toBe(0);
    expect(h.calls.map((c) => [c.method, c.url.replace('http://127.0.0.1:3100', ''), c.body])).toEqual([
      ['POST', '/admin/orgs/o1/members', { email: 'ana@example.com' }],
      ['POST', '/admin/members/code', { email: 'ana@example.com' }],
    ]);
    expect(h.lines[0]).toContain('sign-in code for ana@example.com: ABCDE-FGHJK-MNPQR');
    expect(h.lines[0]).toContain('2026-11-27T00:00:00.000Z');
    expect(await runCli(['member', 'add', 'o1'], h.ctx)).toBe(2);
  });

  it('refuses bad usage before calling the API', async () => {
    const h = harness(() => ({ status: 200, body: {} }));
    expect(await runCli(['org', 'retention', 'o1', 'ten'], h.ctx)).toBe(2);
    expect(await runCli(['org', 'credit', 'o1', 'maybe'], h.ctx)).toBe(2);
    expect(await runCli(['org', 'create'], h.ctx)).toBe(2);
    expect(await runCli(['org', 'frobnicate'], h.ctx)).toBe(2);
    expect(h.calls).toHaveLength(0);
    expect(h.lines.join('\n')).toContain('DAYS must be a whole number of days, got "ten"');
  });

  it('reports the API refusal message and exits 1', async () => {
    const h = harness(() => ({
      status: 404,
      body: { error: { code: 'not_found', message: 'No org with id nope' } },
    }));
    expect(await runCli(['org', 'show', 'nope'], h.ctx)).toBe(1);
    expect(h.lines).toEqual(['error: No org with id nope']);
  });

  it('says where it tried when the admin API is unreachable', async () => {
    const h = harness(() => ({ status: 200, body: {} }));
    h.ctx.fetch = () => Promise.reject(new TypeError('fetch failed'));
    expect(await runCli(['org', 'list'], h.ctx)).toBe(1);
    expect(h.lines[0]).toContain('cannot reach the admin API at http://127.0.0.1:3100');
  });

  it('evicts cache entries by sentence, by speech request or all, and refuses anything but exactly one', async () => {
    const h = harness(() => ({ status: 201, body: { evicted: 3 } }));
    expect(await runCli(['cache', 'evict', 'o1', '--sentence', 'Hello there.'], h.ctx)).toBe(0);
    const request = { model: 'vendor_a/a_model_1', voice: 'aarila', language: 'en-IN', input: 'Hi.' };
    expect(await runCli(['cache', 'evict', 'o1', '--request', JSON.stringify(request)], h.ctx)).toBe(0);
    expect(await runCli(['cache', 'evict', 'o1', '--all'], h.ctx)).toBe(0);
    expect(h.calls.map((c) => [c.method, c.url.replace('http://127.0.0.1:3100', ''), c.body])).toEqual([
      ['POST', '/admin/orgs/o1/cache/evict', { sentence: 'Hello there.' }],
      ['POST', '/admin/orgs/o1/cache/evict', { request }],
      ['POST', '/admin/orgs/o1/cache/evict', { all: true }],
    ]);
    expect(h.lines[0]).toBe('evicted 3 cache entries');
    for (const args of [['--all', '--sentence', 'x'], [], ['--request', '{not json']]) {
      expect(await runCli(['cache', 'evict', 'o1', ...args], h.ctx)).toBe(2);
    }
    expect(h.calls).toHaveLength(3);
  });
});
