import { call, createOrgWithMember, eventually, readE2eStack, signIn, TestSocket } from '@router/testing';
import { LONG_MS, TEST_MS } from './page-checks';

const stack = readE2eStack();
const gw = stack.gatewayUrl;
const wsUrl = `${gw.replace(/^http/, 'ws')}/v1/stream`;
const ownOrigin = new URL(gw).origin;
const SETTINGS = {
  type: 'settings',
  model: 'vendor_a/a_model_1',
  voice: 'aarila',
  language: 'en-IN',
  response_format: 'pcm',
  sample_rate: 24000,
};

/** A handshake on /v1/stream with these headers: accepted, or refused with its status and envelope. */
async function handshake(
  headers: Record<string, string>,
): Promise<{ socket: TestSocket; status: number; body: any }> {
  const socket = new TestSocket(wsUrl, { headers });
  const answer = await socket.handshake;
  if (answer.kind === 'open') return { socket, status: 101, body: null };
  return { socket, status: answer.answer.status, body: JSON.parse(answer.answer.body.toString('utf8')) };
}

/**
 * The playground's way into `/v1/stream`: a dashboard session in place of an API key, from the router's own
 * pages only (its `Origin` is the host the handshake was sent to: a browser cannot send the CSRF header on a
 * socket). The session's org is the one that speaks and pays, whatever else the handshake says.
 */
describe('/v1/stream with a dashboard session (e2e)', () => {
  const a = createOrgWithMember(stack.adminUrl, 'stream-session-a');
  const b = createOrgWithMember(stack.adminUrl, 'stream-session-b');
  let cookieA = '';
  let cookieB = '';
  let memberCookieA = '';
  /** Org a's owner's session headers (cookie and CSRF token), to invite members with. */
  let ownerHeadersA: Record<string, string> = {};
  /** An API key of org b, issued through its session. */
  let keyB = '';

  beforeAll(async () => {
    const ownerA = await signIn(gw, a.email, a.code);
    cookieA = ownerA.cookie;
    const headersA = { cookie: ownerA.cookie, 'x-csrf-token': ownerA.csrf };
    ownerHeadersA = headersA;
    await call(gw, 'PUT', '/v1/provider-keys/vendor_a', {
      headers: headersA,
      body: { api_key: `stream-session-a-${Date.now()}` },
    });
    const invited = await call(gw, 'POST', '/api/members', {
      headers: headersA,
      body: { email: `stream-session-member-${Date.now()}@example.com`, role: 'member' },
    });
    memberCookieA = (await signIn(gw, invited.body.member.email, invited.body.code)).cookie;
    const ownerB = await signIn(gw, b.email, b.code);
    cookieB = ownerB.cookie;
    keyB = (
      await call(gw, 'POST', '/api/keys', {
        headers: { cookie: ownerB.cookie, 'x-csrf-token': ownerB.csrf },
        body: { name: 'stream session spec' },
      })
    ).body.key as string;
  }, LONG_MS);

  /** The org's stream rows in its request log, as its session reads them. */
  const streamRows = async (cookie: string): Promise<Array<{ error_code: string | null }>> =>
    (await call(gw, 'GET', '/api/requests?surface=stream', { headers: { cookie } })).body.rows;

  it(
    "refuses a session from another site's page, or with no Origin, with 403 in the envelope",
    async () => {
      for (const origin of ['https://evil.example', 'null', ownOrigin.replace(/:\d+$/, ':1')]) {
        const { status, body } = await handshake({ cookie: cookieA, origin });
        expect({ origin, status, code: body?.error?.code }).toEqual({
          origin,
          status: 403,
          code: 'forbidden',
        });
      }
      const { status, body } = await handshake({ cookie: cookieA });
      expect({ status, code: body.error.code }).toEqual({ status: 403, code: 'forbidden' });
    },
    TEST_MS,
  );

  it('refuses a handshake with neither a session nor a key, or an ended session, with 401', async () => {
    const none = await handshake({ origin: ownOrigin });
    expect({ status: none.status, code: none.body.error.code }).toEqual({
      status: 401,
      code: 'unauthorized',
    });
    const ended = await handshake({ cookie: `rtr_session=${'x'.repeat(43)}`, origin: ownOrigin });
    expect({ status: ended.status, code: ended.body.error.code }).toEqual({
      status: 401,
      code: 'unauthorized',
    });
  });

  it(
    "speaks for any member of the session's org from the router's own origin, and says it again from the cache",
    async () => {
      const text = `The playground speaks through the session ${Date.now()}.`;
      for (const [who, cookie, cached] of [
        ['owner', cookieA, false],
        ['member', memberCookieA, true],
      ] as const) {
        const { socket, status } = await handshake({ cookie, origin: ownOrigin });
        expect({ who, status }).toEqual({ who, status: 101 });
        socket.send(SETTINGS);
        await socket.next((f) => f.type === 'ready');
        socket.send({ type: 'text', text });
        socket.send({ type: 'flush', id: 'one' });
        await socket.next((f) => f.type === 'flushed');
        expect(socket.frames.filter((f) => f.type === 'error')).toEqual([]);
        const started = socket.frames.filter((f) => f.type === 'sentence_start');
        expect({ who, started: started.map((f) => f.cached) }).toEqual({ who, started: [cached] });
        expect(socket.binaries.length).toBeGreaterThan(0);
        socket.close();
        // Committed by cache-service after the reply: the member says it once it is there.
        await eventually(
          'the sentence cached',
          async () =>
            (await call(gw, 'GET', '/api/cache', { headers: { cookie: cookieA } })).body.entries === 1,
          LONG_MS,
        );
      }
    },
    TEST_MS,
  );

  it(
    "uses the session's org and none other: another org's member speaks with their own org's (missing) vendor key",
    async () => {
      // Org b stored no vendor_a key: the sentence fails there, though org a has one.
      const { socket, status } = await handshake({ cookie: cookieB, origin: ownOrigin });
      expect(status).toBe(101);
      socket.send(SETTINGS);
      await socket.next((f) => f.type === 'ready');
      socket.send({ type: 'text', text: 'Whose key is this?' });
      socket.send({ type: 'flush' });
      const failed = await socket.next((f) => f.type === 'error');
      expect(failed).toMatchObject({ sentence: 0, error: { code: 'provider_key_missing' } });
      socket.close();
      // Each org's log has its own streams: org a's two, org b's one (its failed sentence).
      await eventually(
        'org b logs its stream',
        async () => (await streamRows(cookieB)).length === 1,
        LONG_MS,
      );
      await eventually('org a logs its two', async () => (await streamRows(cookieA)).length === 2, LONG_MS);
      expect((await streamRows(cookieA)).map((row) => row.error_code)).toEqual([null, null]);
    },
    TEST_MS,
  );

  it(
    'ends an open socket once its session signs out: an `unauthorized` error, then close 1008',
    async () => {
      const invited = await call(gw, 'POST', '/api/members', {
        headers: ownerHeadersA,
        body: { email: `stream-session-leaver-${Date.now()}@example.com`, role: 'member' },
      });
      const leaver = await signIn(gw, invited.body.member.email, invited.body.code);
      const { socket, status } = await handshake({ cookie: leaver.cookie, origin: ownOrigin });
      expect(status).toBe(101);
      socket.send(SETTINGS);
      await socket.next((f) => f.type === 'ready');
      const signedOut = await call(gw, 'DELETE', '/api/session', {
        headers: { cookie: leaver.cookie, 'x-csrf-token': leaver.csrf },
      });
      expect(signedOut.status).toBe(204);
      const error = await socket.next((f) => f.type === 'error');
      expect(error).toMatchObject({ type: 'error', error: { code: 'unauthorized' } });
      expect(await socket.closed).toEqual({ code: 1008, reason: 'unauthorized', by: 'server' });
      // A session still signed in keeps its socket open meanwhile.
      const { socket: kept } = await handshake({ cookie: memberCookieA, origin: ownOrigin });
      kept.send(SETTINGS);
      expect(await kept.next((f) => f.type === 'ready')).toMatchObject({ type: 'ready' });
      kept.close();
    },
    TEST_MS,
  );

  it('leaves API keys as they were: a key needs no Origin and no session', async () => {
    const { socket, status } = await handshake({ authorization: `Bearer ${keyB}` });
    expect(status).toBe(101);
    socket.send(SETTINGS);
    expect(await socket.next((f) => f.type === 'ready')).toMatchObject({ type: 'ready' });
    socket.close();
  });
});
