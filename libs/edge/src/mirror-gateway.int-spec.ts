import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import WebSocket, { WebSocketServer } from 'ws';
import { digestBody, EMPTY_BODY_DIGEST, IDENTITY_HEADER, issueApiKey, verifyIdentity } from '@router/auth';
import { Health } from '@router/observability';
import { mirrorAccess, VENDOR_IDS, type VendorId } from '@router/vendors';
import { MIRROR_REFUSAL_KINDS, type MirrorRefusalKind, type MirrorReply } from '@router/vendors-core';
import { mirrorSocketPaths } from './edge-gateway';
import { GatewayServer } from './gateway.server';
import { type KeyRecord, KeyDirectory, type OrgRecord } from './key-directory';
import { mirrorRoute } from './mirror-route';
import { nativeRoute, RouteTable } from './surface-routes';

const secret = 'mirror-gateway-test-secret-0123456789';

/** What reached the app behind: every HTTP request and WebSocket, as the app saw it. */
interface Seen {
  url: string;
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
  messages: string[];
  /** A WebSocket's close code as the app saw it, once closed. */
  closeCode?: number;
}

/** A fake mirror app: records and echoes HTTP requests and WebSocket messages. */
async function startMirrorApp() {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      seen.push({ url: req.url ?? '', method: req.method ?? '', headers: req.headers, body, messages: [] });
      res.writeHead(200, { 'content-type': 'application/json', 'x-mirror': 'yes' });
      res.end(JSON.stringify({ echoed: body }));
    });
  });
  const wss = new WebSocketServer({ server });
  wss.on('connection', (socket, req) => {
    const record: Seen = { url: req.url ?? '', method: 'GET', headers: req.headers, body: '', messages: [] };
    seen.push(record);
    socket.on('message', (data) => {
      const text = (data as Buffer).toString();
      record.messages.push(text);
      socket.send(`echo:${text}`);
    });
    socket.once('close', (code) => (record.closeCode = code));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    seen,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((r) => {
        wss.close();
        server.close(r);
      }),
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Waits (bounded, never timed) until `done` holds. */
async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`not within 5 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** How each vendor's own client sends its key, and one of its paths. */
const CLIENTS: Record<
  VendorId,
  { path: string; key: (key: string) => { headers?: Record<string, string>; query?: string } }
> = {
  vendor_a: { path: '/text-to-speech', key: (k) => ({ headers: { 'api-subscription-key': k } }) },
  vendor_b: { path: '/v1/text-to-speech', key: (k) => ({ headers: { 'X-API-Key': k } }) },
  vendor_c: { path: '/v1/text-to-speech/voice-1', key: (k) => ({ headers: { 'vendor_c-api-key': k } }) },
  vendor_d: { path: '/v1/audio/speech', key: (k) => ({ headers: { authorization: `Bearer ${k}` } }) },
  vendor_e: { path: '/v1/speak?model=e_model_1', key: (k) => ({ headers: { authorization: `Token ${k}` } }) },
  vendor_f: { path: '/v1/tts', key: (k) => ({ headers: { authorization: `Bearer ${k}` } }) },
  vendor_g: { path: '/tts', key: (k) => ({ headers: { authorization: `Bearer ${k}` } }) },
  vendor_h: { path: '/waves/v1/tts', key: (k) => ({ headers: { authorization: `Bearer ${k}` } }) },
  vendor_i: { path: '/tts/bytes', key: (k) => ({ headers: { 'X-API-Key': k } }) },
  vendor_j: { path: '/v1beta/models/j_model_1:generateContent', key: (k) => ({ query: `key=${k}` }) },
};

/** Headers a vendor's client adds that the router does not use: passed on, never refused. */
const CLIENT_EXTRAS: Record<string, string> = {
  'x-client-sdk': 'vendor-sdk/1.2.3',
  'vendor_i-version': '2026-03-01',
};

function mirrorUrl(base: string, vendor: VendorId, key: string | undefined): string {
  const { path, key: place } = CLIENTS[vendor];
  const query = key === undefined ? undefined : place(key).query;
  if (!query) return `${base}/${vendor}${path}`;
  return `${base}/${vendor}${path}${path.includes('?') ? '&' : '?'}${query}`;
}

function mirrorHeaders(vendor: VendorId, key: string | undefined): Record<string, string> {
  return { ...CLIENT_EXTRAS, ...(key === undefined ? {} : (CLIENTS[vendor].key(key).headers ?? {})) };
}

/** Request ids are fresh per answer: compared as "a request id is there", every other field as it is. */
function comparable(body: string, contentType: string | null): unknown {
  if (!contentType?.startsWith('application/json')) return body;
  return JSON.parse(body, (name, value: unknown) =>
    name === 'request_id' && typeof value === 'string' ? '<request id>' : value,
  ) as unknown;
}

function expectedReply(reply: MirrorReply) {
  return {
    status: reply.status,
    contentType: reply.headers['content-type'] ?? null,
    challenge: reply.headers['www-authenticate'] ?? null,
    body: comparable(reply.body, reply.headers['content-type'] ?? null),
  };
}

/** A WebSocket through the gateway: the refused handshake, or the messages until the close. */
function openSocket(
  url: string,
  headers: Record<string, string>,
  send: string[] = [],
): Promise<
  | { refused: { status: number; contentType: string | null; body: string } }
  | { messages: string[]; closeCode: number }
> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    const messages: string[] = [];
    ws.on('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        resolve({
          refused: {
            status: res.statusCode ?? 0,
            contentType: res.headers['content-type'] ?? null,
            body: Buffer.concat(chunks).toString(),
          },
        });
        ws.terminate();
      });
    });
    ws.on('open', () => {
      for (const message of send) ws.send(message);
    });
    // Echoes come back for each message sent; the client closes once they all have.
    ws.on('message', (data) => {
      messages.push((data as Buffer).toString());
      if (send.length > 0 && messages.filter((m) => m.startsWith('echo:')).length === send.length)
        ws.close(1000);
    });
    ws.on('close', (code) => resolve({ messages, closeCode: code }));
    ws.on('error', (error) => reject(error));
  });
}

describe('GatewayServer in front of vendor mirrors, over real sockets', () => {
  const ok = issueApiKey();
  const revoked = issueApiKey();
  const noVendorKeys = issueApiKey();
  const disabled = issueApiKey();
  const broke = issueApiKey();
  const unknown = issueApiKey();
  const allVendors = [...VENDOR_IDS];
  const keys = new Map<string, KeyRecord>([
    [ok.keyHash, { orgId: 'org-ok', revoked: false }],
    [revoked.keyHash, { orgId: 'org-ok', revoked: true }],
    [noVendorKeys.keyHash, { orgId: 'org-no-vendor-keys', revoked: false }],
    [disabled.keyHash, { orgId: 'org-disabled', revoked: false }],
    [broke.keyHash, { orgId: 'org-broke', revoked: false }],
  ]);
  const orgs = new Map<string, OrgRecord>([
    ['org-ok', { disabled: false, outOfCredit: false, vendorKeys: allVendors }],
    ['org-no-vendor-keys', { disabled: false, outOfCredit: false, vendorKeys: [] }],
    ['org-disabled', { disabled: true, outOfCredit: false, vendorKeys: allVendors }],
    ['org-broke', { disabled: false, outOfCredit: true, vendorKeys: allVendors }],
  ]);
  /** The key that brings on each refusal kind (undefined: none sent). */
  const keyFor: Record<MirrorRefusalKind, string | undefined> = {
    'missing-key': undefined,
    'invalid-key': unknown.key,
    'org-disabled': disabled.key,
    'no-vendor-key': noVendorKeys.key,
    'out-of-credit': broke.key,
  };
  let app: Awaited<ReturnType<typeof startMirrorApp>>;
  let gateway: GatewayServer;
  let base: string;
  let wsBase: string;

  beforeAll(async () => {
    app = await startMirrorApp();
    const directory = new KeyDirectory(
      { findKey: async (h) => keys.get(h) ?? null, findOrg: async (id) => orgs.get(id) ?? null },
      { ttlMs: 60_000, maxStaleMs: 120_000, outageStaleMs: 0, maxEntries: 100, now: Date.now },
    );
    // vendor_c's sockets are its mirror's; the vendors without a mirror yet get the paths their clients use here.
    const routes = VENDOR_IDS.map((vendor) => {
      const clientPath = new RegExp(`^${escapeRegExp(CLIENTS[vendor].path.split('?')[0] ?? '')}$`);
      const sockets = vendor === 'vendor_c' ? mirrorSocketPaths(vendor) : [clientPath, /^\/tts-websocket$/];
      return mirrorRoute(mirrorAccess(vendor), app.url, sockets);
    });
    gateway = new GatewayServer({
      routes: new RouteTable([nativeRoute(app.url), ...routes]),
      directory,
      signingSecret: secret,
      logger: pino({ level: 'silent' }),
      health: new Health('edge-mirror-test'),
      now: Date.now,
      upstreamHeadersTimeoutMs: 5000,
      maxRequestBodyBytes: 64 * 1024,
      maxSocketMessageBytes: 256 * 1024,
      socketRecheckMs: 60_000,
    });
    base = `http://127.0.0.1:${await gateway.listen(0, '127.0.0.1')}`;
    wsBase = base.replace('http', 'ws');
  });

  afterAll(async () => {
    await gateway.close();
    await app.close();
  });

  describe.each(VENDOR_IDS)('%s over HTTP', (vendor) => {
    it.each(MIRROR_REFUSAL_KINDS)('refuses %s in the vendor shape before the app sees it', async (kind) => {
      const before = app.seen.length;
      const res = await fetch(mirrorUrl(base, vendor, keyFor[kind]), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...mirrorHeaders(vendor, keyFor[kind]) },
        body: '{"text":"Hello."}',
      });
      const contentType = res.headers.get('content-type');
      const answer = {
        status: res.status,
        contentType,
        challenge: res.headers.get('www-authenticate'),
        body: comparable(await res.text(), contentType),
      };
      const url = new URL(mirrorUrl(base, vendor, keyFor[kind]));
      const expected = mirrorAccess(vendor).refuse(kind, {
        method: 'POST',
        path: CLIENTS[vendor].path.split('?')[0] ?? '',
        headers: mirrorHeaders(vendor, keyFor[kind]),
        query: url.searchParams,
      });
      expect(answer).toEqual(expectedReply(expected));
      expect(app.seen.length).toBe(before);
    });

    it('forwards a request with its key to the mirror app: key stripped, identity signed, extras kept', async () => {
      const body = '{"text":"Hello there."}';
      const res = await fetch(mirrorUrl(base, vendor, ok.key), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...mirrorHeaders(vendor, ok.key) },
        body,
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-mirror')).toBe('yes');
      expect(await res.json()).toEqual({ echoed: body });
      const seen = app.seen.at(-1)!;
      expect(seen.url).toBe(`/${vendor}${CLIENTS[vendor].path}`);
      expect(seen.body).toBe(body);
      expect(seen.headers['x-client-sdk']).toBe('vendor-sdk/1.2.3');
      expect(seen.headers['vendor_i-version']).toBe('2026-03-01');
      // The router's request id reaches the app, never the client's answer: that carries the vendor's headers.
      expect(seen.headers['x-request-id']).toMatch(/^[\w.-]+$/);
      expect(res.headers.get('x-request-id')).toBeNull();
      for (const name of mirrorAccess(vendor).keyHeaders) expect(seen.headers[name]).toBeUndefined();
      expect(JSON.stringify(seen)).not.toContain('rtr_');
      expect(
        verifyIdentity(seen.headers[IDENTITY_HEADER], { method: 'POST', path: seen.url }, secret, {
          nowMs: Date.now(),
          maxAgeMs: 2000,
          maxFutureSkewMs: 0,
        }),
      ).toEqual({ ok: true, orgId: 'org-ok', bodyDigest: digestBody(Buffer.from(body)) });
    });
  });

  it('refuses a revoked key as a wrong one', async () => {
    const res = await fetch(`${base}/vendor_c/v1/voices`, { headers: { 'vendor_c-api-key': revoked.key } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      detail: {
        type: 'authentication_error',
        code: 'invalid_api_key',
        message: expect.any(String),
        status: 'invalid_api_key',
        request_id: expect.stringMatching(/^[0-9a-f]{32}$/),
        param: 'api_key',
      },
    });
  });

  it('takes the key query parameter off the path and signs the path the app gets', async () => {
    const res = await fetch(`${base}/vendor_j/v1beta/models/m:streamGenerateContent?alt=sse&key=${ok.key}`, {
      method: 'POST',
      body: '{}',
    });
    expect(res.status).toBe(200);
    const seen = app.seen.at(-1)!;
    expect(seen.url).toBe('/vendor_j/v1beta/models/m:streamGenerateContent?alt=sse');
    const check = verifyIdentity(seen.headers[IDENTITY_HEADER], { method: 'POST', path: seen.url }, secret, {
      nowMs: Date.now(),
      maxAgeMs: 2000,
      maxFutureSkewMs: 0,
    });
    expect(check.ok).toBe(true);
  });

  describe.each(['vendor_a', 'vendor_e', 'vendor_f', 'vendor_h', 'vendor_i'] as const)(
    '%s WebSocket handshake',
    (vendor) => {
      it.each(MIRROR_REFUSAL_KINDS)('refuses %s at the handshake in the vendor shape', async (kind) => {
        const before = app.seen.length;
        const result = await openSocket(
          mirrorUrl(wsBase, vendor, keyFor[kind]),
          mirrorHeaders(vendor, keyFor[kind]),
        );
        if (!('refused' in result)) throw new Error('the handshake was accepted');
        const expected = expectedReply(
          mirrorAccess(vendor).refuse(kind, {
            method: 'GET',
            path: CLIENTS[vendor].path.split('?')[0] ?? '',
            headers: mirrorHeaders(vendor, keyFor[kind]),
            query: new URLSearchParams(),
          }),
        );
        expect({
          status: result.refused.status,
          contentType: result.refused.contentType,
          body: comparable(result.refused.body, result.refused.contentType),
        }).toEqual({ status: expected.status, contentType: expected.contentType, body: expected.body });
        expect(app.seen.length).toBe(before);
      });

      it('splices an admitted socket to the app without the key', async () => {
        const result = await openSocket(mirrorUrl(wsBase, vendor, ok.key), mirrorHeaders(vendor, ok.key), [
          '{"text":"Hi."}',
        ]);
        expect(result).toEqual({ messages: ['echo:{"text":"Hi."}'], closeCode: 1000 });
        const seen = app.seen.at(-1)!;
        expect(JSON.stringify(seen)).not.toContain('rtr_');
        const check = verifyIdentity(
          seen.headers[IDENTITY_HEADER],
          { method: 'GET', path: seen.url },
          secret,
          {
            nowMs: Date.now(),
            maxAgeMs: 2000,
            maxFutureSkewMs: 0,
          },
        );
        expect(check).toEqual({ ok: true, orgId: 'org-ok', bodyDigest: EMPTY_BODY_DIGEST });
      });
    },
  );

  describe('vendor_c WebSocket (refused after accepting; the key in the header or the first message)', () => {
    const path = '/vendor_c/v1/text-to-speech/voice-1/stream-input?model_id=c_model_1';

    it.each(MIRROR_REFUSAL_KINDS.filter((kind) => kind !== 'missing-key'))(
      'refuses %s sent in the header: an error message, then close 1008',
      async (kind) => {
        const before = app.seen.length;
        const result = await openSocket(`${wsBase}${path}`, { 'vendor_c-api-key': keyFor[kind] ?? '' });
        if ('refused' in result) throw new Error('vendor_c refuses after accepting');
        expect(result.closeCode).toBe(1008);
        expect(result.messages.map((m) => JSON.parse(m) as unknown)).toEqual([
          {
            message: expect.any(String),
            error: kind === 'out-of-credit' ? 'insufficient_credits' : 'invalid_api_key',
            code: 1008,
          },
        ]);
        expect(app.seen.length).toBe(before);
      },
    );

    it.each(MIRROR_REFUSAL_KINDS)('refuses %s sent in the first message the same way', async (kind) => {
      const before = app.seen.length;
      const first = JSON.stringify({
        text: ' ',
        ...(keyFor[kind] ? { vendor_c_api_key: keyFor[kind] } : {}),
      });
      const result = await openSocket(`${wsBase}${path}`, {}, [first]);
      if ('refused' in result) throw new Error('vendor_c refuses after accepting');
      expect(result.closeCode).toBe(1008);
      expect(result.messages.map((m) => JSON.parse(m) as unknown)).toEqual([
        {
          message:
            kind === 'no-vendor-key'
              ? expect.stringContaining('/dashboard/provider-keys')
              : expect.any(String),
          error: kind === 'out-of-credit' ? 'insufficient_credits' : 'invalid_api_key',
          code: 1008,
        },
      ]);
      expect(app.seen.length).toBe(before);
    });

    it('relays a socket keyed in the first message: the key taken out of every message, identity added', async () => {
      const messages = [
        JSON.stringify({ text: ' ', vendor_c_api_key: ok.key, voice_settings: { speed: 1 } }),
        JSON.stringify({ text: 'Hello there. ', try_trigger_generation: true }),
        JSON.stringify({ text: '', authorization: `Bearer ${ok.key}` }),
      ];
      const result = await openSocket(`${wsBase}${path}`, { 'x-client-sdk': 'vendor-sdk/1.2.3' }, messages);
      expect(result).toEqual({
        messages: [
          'echo:{"text":" ","voice_settings":{"speed":1}}',
          'echo:{"text":"Hello there. ","try_trigger_generation":true}',
          'echo:{"text":""}',
        ],
        closeCode: 1000,
      });
      const seen = app.seen.at(-1)!;
      expect(seen.url).toBe(path);
      expect(seen.headers['x-client-sdk']).toBe('vendor-sdk/1.2.3');
      expect(JSON.stringify(seen)).not.toContain('rtr_');
      const check = verifyIdentity(seen.headers[IDENTITY_HEADER], { method: 'GET', path: seen.url }, secret, {
        nowMs: Date.now(),
        maxAgeMs: 2000,
        maxFutureSkewMs: 0,
      });
      expect(check).toEqual({ ok: true, orgId: 'org-ok', bodyDigest: EMPTY_BODY_DIGEST });
    });

    it('relays a socket keyed in the header without the header', async () => {
      const result = await openSocket(`${wsBase}${path}`, { 'vendor_c-api-key': ok.key }, ['{"text":" "}']);
      expect(result).toEqual({ messages: ['echo:{"text":" "}'], closeCode: 1000 });
      const seen = app.seen.at(-1)!;
      expect(seen.headers['vendor_c-api-key']).toBeUndefined();
      expect(JSON.stringify(seen)).not.toContain('rtr_');
    });
  });

  describe.each(['vendor_c', 'vendor_a'] as const)('%s WebSocket on a path it has no socket on', (vendor) => {
    const unknownPath = {
      vendor_c: '/v1/text-to-dialogue/stream-input',
      vendor_a: '/text-to-speech/nowhere',
    }[vendor];

    it.each([undefined, ...Object.values(keyFor).filter((key) => key !== undefined), ok.key])(
      "is refused at the handshake with the vendor's 404, whatever the key (%#)",
      async (key) => {
        const before = app.seen.length;
        const result = await openSocket(`${wsBase}/${vendor}${unknownPath}`, mirrorHeaders(vendor, key));
        if (!('refused' in result)) throw new Error('the handshake was accepted');
        const expected = expectedReply(mirrorAccess(vendor).notFound({ method: 'GET', path: unknownPath }));
        expect({
          status: result.refused.status,
          contentType: result.refused.contentType,
          body: comparable(result.refused.body, result.refused.contentType),
        }).toEqual({ status: 404, contentType: expected.contentType, body: expected.body });
        expect(app.seen.length).toBe(before);
      },
    );
  });

  describe('vendor_c WebSocket messages no client should send', () => {
    const path = '/vendor_c/v1/text-to-speech/voice-1/multi-stream-input?model_id=c_model_1';
    /** `{...fields, "x": [[…]]}` with `levels` levels in all, the message itself being level 1. */
    const deep = (fields: Record<string, string>, levels: number): string =>
      `${JSON.stringify(fields).slice(0, -1)},"x":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
    const refusedAsBadMessage = {
      messages: [
        {
          message: 'x nests arrays and objects deeper than the limit of 32 levels',
          error: 'invalid_request',
          code: 1008,
        },
      ],
      closeCode: 1008,
    };
    const parsedResult = (result: Awaited<ReturnType<typeof openSocket>>) =>
      'refused' in result
        ? result
        : { messages: result.messages.map((m) => JSON.parse(m) as unknown), closeCode: result.closeCode };

    it('refuses a first message with a key field nested 20,000 levels as a bad message, and goes on serving', async () => {
      const before = app.seen.length;
      const result = await openSocket(`${wsBase}${path}`, {}, [deep({ authorization: 'x' }, 20_000)]);
      expect(parsedResult(result)).toEqual(refusedAsBadMessage);
      expect(app.seen.length).toBe(before);
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
    });

    it('refuses a later message with a key field nested too deep on an admitted socket, and closes the app side', async () => {
      const ws = new WebSocket(`${wsBase}${path}`, { headers: { 'vendor_c-api-key': ok.key } });
      const messages: string[] = [];
      const closed = new Promise<number>((resolve) => ws.once('close', resolve));
      ws.on('message', (data) => {
        messages.push((data as Buffer).toString());
        // Once the app has echoed the first message the relay is open: the deep one goes on it.
        if (messages.length === 1) ws.send(deep({ vendor_c_api_key: ok.key }, 20_000));
      });
      ws.once('open', () => ws.send('{"text":"Hello. "}'));
      expect(await closed).toBe(1008);
      expect(messages[0]).toBe('echo:{"text":"Hello. "}');
      expect(messages.slice(1).map((m) => JSON.parse(m) as unknown)).toEqual(refusedAsBadMessage.messages);
      const appSide = app.seen.at(-1)!;
      expect(appSide.messages).toEqual(['{"text":"Hello. "}']);
      await until(() => appSide.closeCode !== undefined, 'the app side to be closed');
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
    });

    it('forwards a deep message without a key field untouched (the app refuses it by its own rules)', async () => {
      const message = deep({ text: 'Hello. ' }, 20_000);
      const result = await openSocket(`${wsBase}${path}`, { 'vendor_c-api-key': ok.key }, [message]);
      expect(result).toEqual({ messages: [`echo:${message}`], closeCode: 1000 });
      expect(app.seen.at(-1)!.messages).toEqual([message]);
    });

    it('closes a socket whose message is over the size limit with 1009, without reading it', async () => {
      const result = await openSocket(`${wsBase}${path}`, { 'vendor_c-api-key': ok.key }, [
        JSON.stringify({ text: 'x'.repeat(300 * 1024) }),
      ]);
      expect(result).toEqual({ messages: [], closeCode: 1009 });
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
    });
  });

  it('refuses a vendor_g stream keyed with a wrong api_key as the vendor fails a connection', async () => {
    const first = JSON.stringify({ api_key: unknown.key, stream_id: 's1', model: 'g_model_1' });
    const result = await openSocket(`${wsBase}/vendor_g/tts-websocket`, {}, [first]);
    if ('refused' in result) throw new Error('vendor_g refuses after accepting');
    expect(result.closeCode).toBe(1008);
    expect(result.messages.map((m) => JSON.parse(m) as unknown)).toEqual([
      { stream_id: 's1', error_code: 401, error_message: expect.any(String) },
      { stream_id: 's1', terminated: true },
    ]);
  });

  it('never let a router key reach the app, in any request, header, path, body or message', () => {
    expect(app.seen.length).toBeGreaterThan(VENDOR_IDS.length);
    for (const seen of app.seen) expect(JSON.stringify(seen)).not.toMatch(/rtr_/);
  });
});
