import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import pino from 'pino';
import WebSocket, { WebSocketServer } from 'ws';
import {
  ANONYMOUS_ORG,
  digestBody,
  EMPTY_BODY_DIGEST,
  IDENTITY_HEADER,
  issueApiKey,
  newSessionToken,
  verifyIdentity,
} from '@router/auth';
import { Health } from '@router/observability';
import { cutBody } from '@router/service-kit';
import { waitFor } from '@router/testing';
import { GatewayServer } from './gateway.server';
import { type KeyRecord, KeyDirectory, type OrgRecord } from './key-directory';
import { OrgLimiter } from './org-limiter';
import { dashboardRoute, nativeRoute, RouteTable } from './surface-routes';

const secret = 'gateway-test-secret-0123456789abcdef';
const MAX_BODY = 256 * 1024;
/** The gateway's bound on a client that takes nothing of its answer, short for the test. */
const CLIENT_STALL_MS = 1500;
/** `/v1/long`'s answer: more than every buffer on the way (both sockets' and the processes') holds. */
const LONG_BYTES = 64 * 1024 * 1024;

/** An app behind the gateway that records what reached it: HTTP echoes, WebSocket echoes. */
async function startUpstream() {
  const seen: IncomingMessage[] = [];
  /** Answers of `/v1/slow` whose connection from the gateway closed before they ended. */
  const abandoned: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req);
    if (req.url?.startsWith('/v1/slow')) {
      // An answer that has begun and is slow to go on (audio that waits for the vendor).
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write('first part');
      res.once('close', () => abandoned.push(req.url ?? ''));
      return;
    }
    if (req.url?.startsWith('/v1/long')) {
      // A long answer written only as fast as the gateway takes it (audio a worker holds back for a slow reader).
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const piece = Buffer.alloc(64 * 1024, 7);
      let written = 0;
      const writeMore = (): void => {
        while (written < LONG_BYTES) {
          written += piece.length;
          if (written >= LONG_BYTES) return void res.end(piece);
          if (!res.write(piece)) return void res.once('drain', writeMore);
        }
      };
      res.once('close', () => {
        if (!res.writableFinished) abandoned.push(req.url ?? '');
      });
      writeMore();
      return;
    }
    if (req.url?.startsWith('/v1/cut')) {
      // An answer that fails right after its first audio: head, audio and cut in one tick (as an app cuts it).
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write('a'.repeat(2000));
      cutBody(res, new Error('the take failed'));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'x-upstream': 'yes' });
      res.end(Buffer.concat(chunks));
    });
  });
  const wss = new WebSocketServer({ server });
  wss.on('connection', (socket, req) => {
    seen.push(req);
    socket.on('message', (data) => socket.send(`echo:${(data as Buffer).toString()}`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    seen,
    abandoned,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((r) => {
        wss.close();
        server.close(r);
      }),
  };
}

/**
 * A client written byte by byte, as curl, HTTP/1.0 tools or nc send: the head, then (after the gateway's
 * `100 Continue` when asked to wait for it) the body, optionally half-closing; resolves with everything the
 * gateway answered once it closed the connection.
 */
function rawExchange(
  base: string,
  head: string[],
  body: string,
  options: { waitForContinue?: boolean; halfClose?: boolean } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(base).port), '127.0.0.1');
    let received = '';
    let bodySent = false;
    const sendBody = (): void => {
      bodySent = true;
      socket.write(body);
      if (options.halfClose) socket.end();
    };
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (!bodySent && received.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) sendBody();
    });
    socket.once('close', () => resolve(received));
    socket.once('error', reject);
    socket.write(`${head.join('\r\n')}\r\n\r\n`);
    if (!options.waitForContinue) sendBody();
  });
}

/** The body of the last response rawExchange received (after any `100 Continue`), its chunked framing undone. */
function bodyOf(answer: string): string {
  const headEnd = answer.indexOf('\r\n\r\n', answer.lastIndexOf('HTTP/1.1 '));
  let rest = answer.slice(headEnd + 4);
  if (!/\r\ntransfer-encoding: chunked\r\n/i.test(answer.slice(0, headEnd + 2))) return rest;
  let body = '';
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, lineEnd), 16);
    if (!size) return body;
    body += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 4 + size);
  }
}

describe('GatewayServer over real sockets', () => {
  const issued = issueApiKey();
  const keys = new Map<string, KeyRecord>([[issued.keyHash, { orgId: 'org-1', revoked: false }]]);
  const orgs = new Map<string, OrgRecord>([['org-1', { disabled: false, outOfCredit: false }]]);
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let gateway: GatewayServer;
  let directory: KeyDirectory;
  let base: string;
  let internalBase: string;
  /** The gateway's log lines, as JSON. */
  const logLines: Array<Record<string, any>> = [];
  /** The key hashes the gateway reported as used. */
  const usedKeys: string[] = [];

  beforeAll(async () => {
    upstream = await startUpstream();
    directory = new KeyDirectory(
      { findKey: async (h) => keys.get(h) ?? null, findOrg: async (id) => orgs.get(id) ?? null },
      { ttlMs: 60_000, maxStaleMs: 120_000, outageStaleMs: 0, maxEntries: 100, now: Date.now },
    );
    gateway = new GatewayServer({
      routes: new RouteTable([nativeRoute(upstream.url), dashboardRoute(upstream.url)]),
      directory,
      signingSecret: secret,
      logger: pino({ level: 'info' }, { write: (line: string) => logLines.push(JSON.parse(line)) }),
      health: new Health('edge-test'),
      now: Date.now,
      upstreamHeadersTimeoutMs: 5000,
      maxRequestBodyBytes: MAX_BODY,
      maxSocketMessageBytes: 256 * 1024,
      socketRecheckMs: 60_000,
      keyUses: { record: (keyHash) => usedKeys.push(keyHash) },
      clientStallMs: CLIENT_STALL_MS,
    });
    base = `http://127.0.0.1:${await gateway.listen(0, '127.0.0.1')}`;
    internalBase = `http://127.0.0.1:${await gateway.listenInternal(0, '127.0.0.1')}`;
  });

  afterAll(async () => {
    await gateway.close();
    await upstream.close();
  });

  it('forwards a body with an identity signed for it and without the router key', async () => {
    const res = await fetch(`${base}/v1/provider-keys/vendor_a?x=1`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${issued.key}`, 'content-type': 'application/json' },
      body: '{"api_key":"abc"}',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-upstream')).toBe('yes');
    expect(await res.text()).toBe('{"api_key":"abc"}');
    const req = upstream.seen.at(-1)!;
    expect(req.headers.authorization).toBeUndefined();
    expect(
      verifyIdentity(
        req.headers[IDENTITY_HEADER],
        { method: 'PUT', path: '/v1/provider-keys/vendor_a?x=1' },
        secret,
        { nowMs: Date.now(), maxAgeMs: 2000, maxFutureSkewMs: 0 },
      ),
    ).toEqual({ ok: true, orgId: 'org-1', bodyDigest: digestBody(Buffer.from('{"api_key":"abc"}')) });
    expect(req.headers['x-request-id']).toEqual(res.headers.get('x-request-id'));
  });

  it("reports each admitted key's use by its hash, never the key", async () => {
    usedKeys.length = 0;
    await fetch(`${base}/v1/voices?provider=vendor_a`, {
      headers: { authorization: `Bearer ${issued.key}` },
    });
    await fetch(`${base}/v1/voices?provider=vendor_a`, { headers: { authorization: 'Bearer rtr_unknown' } });
    expect(usedKeys).toEqual([issued.keyHash]);
  });

  const signedFor = (req: IncomingMessage, method: string) =>
    verifyIdentity(req.headers[IDENTITY_HEADER], { method, path: req.url ?? '/' }, secret, {
      nowMs: Date.now(),
      maxAgeMs: 2000,
      maxFutureSkewMs: 0,
    });

  it('lets a provider-key request with a session cookie and no key through as anonymous, for the app to check', async () => {
    const cookie = `rtr_session=${newSessionToken()}`;
    const res = await fetch(`${base}/v1/provider-keys/vendor_a`, {
      method: 'PUT',
      headers: { cookie, 'content-type': 'application/json', 'x-csrf-token': 'abc' },
      body: '{"api_key":"abc"}',
    });
    expect(res.status).toBe(200);
    const req = upstream.seen.at(-1)!;
    expect(req.headers.cookie).toBe(cookie);
    expect(req.headers['x-csrf-token']).toBe('abc');
    expect(signedFor(req, 'PUT')).toMatchObject({ ok: true, orgId: ANONYMOUS_ORG });
    // Without the cookie, or on any other native path, no key is still a refusal at the gateway.
    const seen = upstream.seen.length;
    expect((await fetch(`${base}/v1/provider-keys`)).status).toBe(401);
    const speech = await fetch(`${base}/v1/audio/speech`, {
      method: 'POST',
      headers: { cookie },
      body: '{}',
    });
    expect(speech.status).toBe(401);
    expect(upstream.seen.length).toBe(seen);
  });

  it('forwards the dashboard and its /api/ without a key, and never an Authorization header', async () => {
    for (const path of ['/dashboard', '/dashboard/keys', '/api/session', '/favicon.ico']) {
      const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${issued.key}` } });
      expect(res.status).toBe(200);
      // Only the TLS port asks browsers to keep to TLS.
      expect(res.headers.get('strict-transport-security')).toBeNull();
      const req = upstream.seen.at(-1)!;
      expect(req.url).toBe(path);
      expect(req.headers.authorization).toBeUndefined();
      expect(signedFor(req, 'GET')).toMatchObject({ ok: true, orgId: ANONYMOUS_ORG });
    }
    expect((await fetch(`${base}/dashboards`)).status).toBe(404);
  });

  it('forwards large bodies and bodies of no declared length intact, signed for what it forwarded', async () => {
    const big = Buffer.alloc(200 * 1024, 'a');
    big.write('start');
    big.write('end', big.length - 3);
    const res = await fetch(`${base}/v1/provider-keys/vendor_a`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${issued.key}`, 'content-type': 'application/octet-stream' },
      body: big,
    });
    expect(Buffer.from(await res.arrayBuffer()).equals(big)).toBe(true);
    const parts = ['{"api', '_key":', '"chunked"}'];
    const chunked = await new Promise<{ body: string }>((resolve, reject) => {
      const req = request(`${base}/v1/provider-keys/vendor_a`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${issued.key}`, 'content-type': 'application/json' },
      });
      req.on('response', (answer) => {
        const got: Buffer[] = [];
        answer.on('data', (c: Buffer) => got.push(c));
        answer.on('end', () => resolve({ body: Buffer.concat(got).toString() }));
      });
      req.on('error', reject);
      for (const part of parts) req.write(part); // no content-length: chunked
      req.end();
    });
    expect(chunked.body).toBe(parts.join(''));
    const forwarded = upstream.seen.at(-1)!;
    expect(forwarded.headers['content-length']).toBe(String(parts.join('').length));
    const check = verifyIdentity(
      forwarded.headers[IDENTITY_HEADER],
      { method: 'PUT', path: '/v1/provider-keys/vendor_a' },
      secret,
      { nowMs: Date.now(), maxAgeMs: 2000, maxFutureSkewMs: 0 },
    );
    expect(check.ok && check.bodyDigest).toBe(digestBody(Buffer.from(parts.join(''))));
  });

  it('refuses a body over its limit with 413, declared or chunked, and asks for none it would refuse', async () => {
    const before = upstream.seen.length;
    const declared = await fetch(`${base}/v1/provider-keys/vendor_a`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${issued.key}`, 'content-type': 'application/json' },
      body: Buffer.alloc(MAX_BODY + 1, 'a'),
    });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({
      error: {
        code: 'bad_request',
        message: `The request body is larger than the limit of ${MAX_BODY} bytes.`,
        retryable: false,
      },
    });
    const chunked = await rawExchange(
      base,
      [
        'PUT /v1/provider-keys/vendor_a HTTP/1.1',
        'Host: gateway',
        `Authorization: Bearer ${issued.key}`,
        'Transfer-Encoding: chunked',
      ],
      `${(MAX_BODY + 10).toString(16)}\r\n${'a'.repeat(MAX_BODY + 10)}\r\n0\r\n\r\n`,
    );
    expect(chunked).toMatch(/^HTTP\/1\.1 413 Payload Too Large\r\n/);
    const unasked = await rawExchange(
      base,
      [
        'PUT /v1/provider-keys/vendor_a HTTP/1.1',
        'Host: gateway',
        `Authorization: Bearer ${issued.key}`,
        `Content-Length: ${MAX_BODY + 1}`,
        'Expect: 100-continue',
      ],
      '',
      { waitForContinue: true },
    );
    expect(unasked).toMatch(/^HTTP\/1\.1 413 Payload Too Large\r\n/);
    expect(upstream.seen.length).toBe(before);
  });

  it('answers a client that asks for 100 Continue before sending its body (curl does above 1 MB)', async () => {
    const body = JSON.stringify({ api_key: 'k'.repeat(100_000) });
    const answer = await rawExchange(
      base,
      [
        'PUT /v1/provider-keys/vendor_a HTTP/1.1',
        'Host: gateway',
        `Authorization: Bearer ${issued.key}`,
        'Content-Type: application/json',
        `Content-Length: ${body.length}`,
        'Expect: 100-continue',
        'Connection: close',
      ],
      body,
      { waitForContinue: true },
    );
    expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK\r\n/);
    expect(bodyOf(answer)).toBe(body);
  });

  it('answers a client that half-closes its socket once its request is sent', async () => {
    const body = '{"api_key":"half-closed"}';
    const answer = await rawExchange(
      base,
      [
        'PUT /v1/provider-keys/vendor_a HTTP/1.0',
        `Authorization: Bearer ${issued.key}`,
        'Content-Type: application/json',
        `Content-Length: ${body.length}`,
      ],
      body,
      { halfClose: true },
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(bodyOf(answer)).toBe(body);
  });

  it('gives the app up when a client closes its socket once the answer has begun', async () => {
    const path = `/v1/slow?${Date.now()}`;
    const socket = connect(Number(new URL(base).port), '127.0.0.1');
    socket.on('data', (chunk: Buffer) => {
      // The head and the first part have arrived: the client stops listening (its FIN).
      if (chunk.toString('latin1').includes('first part')) socket.end();
    });
    socket.write(`GET ${path} HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer ${issued.key}\r\n\r\n`);
    const deadline = Date.now() + 5000;
    while (!upstream.abandoned.includes(path) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    socket.destroy();
    expect(upstream.abandoned).toContain(path);
  });

  /**
   * GET `path` through the gateway, reading its answer with `pause(received)` asked after each chunk: 0 to go on,
   * a number of ms to stop reading for, or a promise to stop until. Resolves with the bytes read once the answer
   * ended or the connection closed, and whether it ended whole.
   */
  function readPausing(
    path: string,
    pause: (received: number) => number | Promise<unknown>,
  ): Promise<{ bytes: number; whole: boolean }> {
    return new Promise((resolve, reject) => {
      const req = request(`${base}${path}`, {
        agent: false,
        headers: { authorization: `Bearer ${issued.key}` },
      });
      req.once('error', reject);
      req.once('response', (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          const until = pause(bytes);
          if (until === 0) return;
          res.pause();
          const resume = (): void => void res.resume();
          if (typeof until === 'number') setTimeout(resume, until);
          else until.then(resume, resume);
        });
        res.once('end', () => resolve({ bytes, whole: true }));
        res.once('error', () => resolve({ bytes, whole: false }));
      });
      req.end();
    });
  }

  it('cuts a client that takes nothing of its answer for the stall bound, and gives the app up', async () => {
    const path = `/v1/long?stalled=${Date.now()}`;
    // The client stops reading at its first chunk, and reads on only once the app saw its answer given up.
    let stalled: Promise<void> | undefined;
    const read = await readPausing(path, () => {
      stalled ??= waitFor('the app to see its answer given up', async () =>
        upstream.abandoned.includes(path),
      );
      return stalled.then(() => 0);
    });
    await stalled;
    expect(read.whole).toBe(false);
    expect(read.bytes).toBeLessThan(LONG_BYTES);
    expect(
      logLines.some((line) => line.msg?.includes('for the stall bound') && line.stallMs === CLIENT_STALL_MS),
    ).toBe(true);
  });

  it('holds a client that pauses for less than the stall bound again and again, and it gets its whole answer', async () => {
    const path = `/v1/long?pausing=${Date.now()}`;
    // A pause every 8 MiB or so, each a fifth of the bound: the client is slow, never stalled for the bound.
    let next = 0;
    const read = await readPausing(path, (received) => {
      if (received < next) return 0;
      next += 8 * 1024 * 1024;
      return CLIENT_STALL_MS / 5;
    });
    expect(read).toEqual({ bytes: LONG_BYTES, whole: true });
    expect(upstream.abandoned).not.toContain(path);
  });

  it('passes on an answer the app cut right after its head as begun: the head and what came, then the cut', async () => {
    for (let i = 0; i < 10; i++) {
      const answer = await rawExchange(
        base,
        [`GET /v1/cut?${i} HTTP/1.1`, 'Host: gateway', `Authorization: Bearer ${issued.key}`],
        '',
      );
      expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(answer).toContain('a'.repeat(2000));
      // No end of the chunked body: the client can tell the answer broke off.
      expect(answer.endsWith('0\r\n\r\n')).toBe(false);
    }
  });

  it('refuses a request carrying its key header twice, whichever key comes first', async () => {
    const before = upstream.seen.length;
    const other = issueApiKey();
    for (const [first, second] of [
      [issued.key, other.key],
      [other.key, issued.key],
    ]) {
      const answer = await rawExchange(
        base,
        [
          'GET /v1/provider-keys HTTP/1.1',
          'Host: gateway',
          `Authorization: Bearer ${first}`,
          `Authorization: Bearer ${second}`,
          'Connection: close',
        ],
        '',
      );
      expect(answer).toMatch(/^HTTP\/1\.1 401 Unauthorized\r\n/);
      const envelope = JSON.parse(bodyOf(answer)) as {
        error: { code: string; message: string };
      };
      expect(envelope.error.code).toBe('unauthorized');
      expect(envelope.error.message).toMatch(/authorization.*more than once/i);
    }
    expect(upstream.seen.length).toBe(before);
  });

  it('keeps an open WebSocket working when the org runs out of credit, and refuses new handshakes with 402', async () => {
    const url = `${base.replace('http', 'ws')}/v1/stream`;
    const open = new WebSocket(url, { headers: { authorization: `Bearer ${issued.key}` } });
    const replies: string[] = [];
    open.on('message', (data) => replies.push((data as Buffer).toString()));
    await new Promise((resolve, reject) => {
      open.once('open', resolve);
      open.once('error', reject);
    });
    const handshake = upstream.seen.at(-1)!;
    expect(handshake.headers.authorization).toBeUndefined();
    expect(
      verifyIdentity(handshake.headers[IDENTITY_HEADER], { method: 'GET', path: '/v1/stream' }, secret, {
        nowMs: Date.now(),
        maxAgeMs: 2000,
        maxFutureSkewMs: 0,
      }),
    ).toEqual({ ok: true, orgId: 'org-1', bodyDigest: EMPTY_BODY_DIGEST });

    orgs.set('org-1', { disabled: false, outOfCredit: true });
    directory.forgetOrg('org-1');

    const refused = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(url, { headers: { authorization: `Bearer ${issued.key}` } });
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => reject(new Error('handshake should have been refused')));
      ws.on('error', () => undefined);
    });
    expect(refused).toBe(402);

    open.send('still here');
    await new Promise<void>((resolve) => {
      const check = (): void =>
        replies.includes('echo:still here') ? resolve() : void setTimeout(check, 10);
      check();
    });
    open.close();
    orgs.set('org-1', { disabled: false, outOfCredit: false });
    directory.forgetOrg('org-1');
  });

  it("answers a WebSocket upgrade sent with another method than GET with the surface's 405, and serves the next request", async () => {
    const before = upstream.seen.length;
    const upgrade = (method: string, body: string): string =>
      [
        `${method} /v1/stream HTTP/1.1`,
        'Host: gateway',
        `Authorization: Bearer ${issued.key}`,
        'Connection: Upgrade',
        'Upgrade: websocket',
        'Sec-WebSocket-Version: 13',
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
        `Content-Length: ${Buffer.byteLength(body)}`,
        '',
        body,
      ].join('\r\n');
    // Two refused upgrades (one with a body) and a request pipelined behind them, all in one write.
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(base).port), '127.0.0.1');
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      socket.once('close', () => resolve(received));
      socket.once('error', reject);
      socket.write(
        upgrade('POST', '{"type":"settings"}') +
          upgrade('PUT', '') +
          'PUT /v1/provider-keys/vendor_a HTTP/1.1\r\nHost: gateway\r\n' +
          `Authorization: Bearer ${issued.key}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
      );
    });
    const answers = answer.split(/(?=HTTP\/1\.1 )/);
    expect(answers.map((a) => a.slice(0, 12))).toEqual(['HTTP/1.1 405', 'HTTP/1.1 405', 'HTTP/1.1 200']);
    for (const refused of answers.slice(0, 2)) {
      expect(refused).toMatch(/\r\nallow: GET\r\n/i);
      expect(refused).toMatch(/\r\nconnection: keep-alive\r\n/i);
      expect(JSON.parse(bodyOf(refused))).toEqual({
        error: { code: 'bad_request', message: expect.stringContaining('GET'), retryable: false },
      });
    }
    expect(bodyOf(answers[2] ?? '')).toBe('{}');
    // Only the pipelined request reached the app.
    expect(upstream.seen.slice(before).map((req) => `${req.method} ${req.url}`)).toEqual([
      'PUT /v1/provider-keys/vendor_a',
    ]);
  });

  it('signs a spliced handshake for the method and path it forwards', async () => {
    const ws = new WebSocket(`${base.replace('http', 'ws')}/v1/stream?x=1`, {
      headers: { authorization: `Bearer ${issued.key}` },
    });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const handshake = upstream.seen.at(-1)!;
    expect(signedFor(handshake, handshake.method ?? '')).toEqual({
      ok: true,
      orgId: 'org-1',
      bodyDigest: EMPTY_BODY_DIGEST,
    });
    expect(`${handshake.method} ${handshake.url}`).toBe('GET /v1/stream?x=1');
    ws.close();
  });

  it('answers 500 to a request target no URL parser takes, on a request and a handshake, and goes on serving', async () => {
    for (const extra of [[], ['Connection: Upgrade', 'Upgrade: websocket', 'Sec-WebSocket-Version: 13']]) {
      const answer = await rawExchange(
        base,
        ['GET http://[ HTTP/1.1', 'Host: gateway', 'Connection: close', ...extra],
        '',
        { halfClose: true },
      );
      expect(answer).toMatch(/^HTTP\/1\.1 500 /);
      expect(JSON.parse(bodyOf(answer))).toEqual({
        error: { code: 'internal', message: expect.any(String), retryable: true },
      });
    }
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    // Each failure is logged with where it happened and its cause, never its message (it quotes the target).
    const failures = logLines.filter((line) => line.msg === 'gateway failed on a connection');
    expect(failures.map((line) => [line.level, line.stage, line.cause.type, line.cause.code])).toEqual([
      [50, 'request', 'TypeError', 'ERR_INVALID_URL'],
      [50, 'handshake', 'TypeError', 'ERR_INVALID_URL'],
    ]);
    expect(failures[0].cause.at.length).toBeGreaterThan(0);
    expect(JSON.stringify(failures)).not.toContain('http://[');
  });

  it('answers readiness and metrics on its internal port only, liveness on both', async () => {
    for (const path of ['/readyz', '/metrics']) {
      expect([path, (await fetch(`${base}${path}`)).status]).toEqual([path, 404]);
      expect([path, (await fetch(`${internalBase}${path}`)).status]).toEqual([path, 200]);
    }
    expect(await (await fetch(`${internalBase}/metrics`)).text()).toContain('gateway_requests_total');
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${internalBase}/healthz`)).status).toBe(200);
    expect((await fetch(`${internalBase}/v1/models`)).status).toBe(404);
  });

  it('counts its answers by surface and status class, and its open sockets by surface', async () => {
    const metric = async (name: string): Promise<string[]> =>
      (await (await fetch(`${internalBase}/metrics`)).text())
        .split('\n')
        .filter((line) => line.startsWith(`${name}{`) && line.includes('surface="native"'));
    const count = async (name: string, label: string): Promise<number> =>
      Number(
        (await metric(name))
          .find((line) => line.includes(label))
          ?.split(' ')
          .at(-1) ?? 0,
      );
    const ok = await count('gateway_responses_total', 'status_class="2xx"');
    const refused = await count('gateway_responses_total', 'status_class="4xx"');
    expect(
      (
        await fetch(`${base}/v1/provider-keys/vendor_a`, {
          headers: { authorization: `Bearer ${issued.key}` },
        })
      ).status,
    ).toBe(200);
    expect((await fetch(`${base}/v1/provider-keys/vendor_a`)).status).toBe(401);
    expect(await count('gateway_responses_total', 'status_class="2xx"')).toBe(ok + 1);
    expect(await count('gateway_responses_total', 'status_class="4xx"')).toBe(refused + 1);

    const socket = new WebSocket(`${base.replace('http', 'ws')}/v1/stream`, {
      headers: { authorization: `Bearer ${issued.key}` },
    });
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    expect(await metric('gateway_open_sockets')).toEqual([
      'gateway_open_sockets{surface="native",service="edge-test"} 1',
    ]);
    await new Promise((resolve) => {
      socket.once('close', resolve);
      socket.close();
    });
    await waitFor(
      'the socket to be forgotten',
      async () => (await metric('gateway_open_sockets')).length === 0,
    );
  });

  it('answers a retryable 503 `unavailable` in the envelope when the app behind is down', async () => {
    const down = new GatewayServer({
      routes: new RouteTable([nativeRoute('http://127.0.0.1:1')]),
      directory,
      signingSecret: secret,
      logger: pino({ level: 'silent' }),
      health: new Health('edge-test-down'),
      now: Date.now,
      upstreamHeadersTimeoutMs: 1000,
      maxRequestBodyBytes: MAX_BODY,
      maxSocketMessageBytes: 256 * 1024,
      socketRecheckMs: 60_000,
    });
    const port = await down.listen(0, '127.0.0.1');
    try {
      const res = await fetch(`http://127.0.0.1:${port}/v1/models`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({
        error: { code: 'unavailable', message: expect.any(String), retryable: true },
      });
    } finally {
      await down.close();
    }
  });

  it('holds a dashboard session to the default org limits on its own: its second socket past one gets 429', async () => {
    const limited = new GatewayServer({
      routes: new RouteTable([nativeRoute(upstream.url)]),
      directory,
      signingSecret: secret,
      logger: pino({ level: 'silent' }),
      health: new Health('edge-test-limited'),
      now: Date.now,
      upstreamHeadersTimeoutMs: 5000,
      maxRequestBodyBytes: MAX_BODY,
      maxSocketMessageBytes: 256 * 1024,
      socketRecheckMs: 60_000,
      limiter: new OrgLimiter({ concurrentSyntheses: 0, openSockets: 1, requestsPerSecond: 0 }, Date.now),
    });
    const url = `ws://127.0.0.1:${await limited.listen(0, '127.0.0.1')}/v1/stream`;
    /** A handshake's outcome: the open socket, or the status it was refused with. */
    const handshake = (cookie: string): Promise<WebSocket | number> =>
      new Promise((resolve, reject) => {
        const ws = new WebSocket(url, { headers: { cookie } });
        ws.once('open', () => resolve(ws));
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('error', reject);
      });
    const one = `rtr_session=${newSessionToken()}`;
    const first = await handshake(one);
    const other = await handshake(`rtr_session=${newSessionToken()}`);
    try {
      expect(first).toBeInstanceOf(WebSocket);
      expect(await handshake(one)).toBe(429);
      // Another session is counted apart; the first one's place comes back once its socket closes.
      expect(other).toBeInstanceOf(WebSocket);
      const closed = new Promise((resolve) => (first as WebSocket).once('close', resolve));
      (first as WebSocket).close();
      await closed;
      const again = await handshake(one);
      expect(again).toBeInstanceOf(WebSocket);
      (again as WebSocket).close();
    } finally {
      if (other instanceof WebSocket) other.close();
      await limited.close();
    }
  });
});
