import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import WebSocket, { WebSocketServer } from 'ws';
import { EMPTY_BODY_DIGEST, IDENTITY_HEADER, issueApiKey, verifyIdentity } from '@router/auth';
import { Health } from '@router/observability';
import { mirrorAccess, VENDOR_IDS } from '@router/vendors';
import { keyAccess, keyProtocol, type MirrorAccess } from '@router/vendors-core';
import { GatewayServer } from './gateway.server';
import { KeyDirectory } from './key-directory';
import { mirrorRoute } from './mirror-route';
import { RouteTable } from './surface-routes';

/*
 * A router key offered as a WebSocket sub-protocol, as browser clients offer it: the gateway reads it there,
 * takes it off what the app gets, and answers the handshake with the protocol the client expects (or the
 * client drops the socket). Real sockets, a recording app behind, and every log line kept.
 */

const secret = 'protocol-key-test-secret-0123456789ab';

/** What reached the app: each request and WebSocket handshake, and the socket's messages. */
interface Seen {
  url: string;
  headers: IncomingHttpHeaders;
  messages: string[];
}

/** An app behind the gateway (ws answers the first protocol it is offered, as the mirror apps do). */
async function startApp() {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers, messages: [] });
    req.resume();
    req.on('end', () => res.end('{}'));
  });
  const wss = new WebSocketServer({ server });
  wss.on('connection', (socket, req) => {
    const record: Seen = { url: req.url ?? '', headers: req.headers, messages: [] };
    seen.push(record);
    socket.on('message', (data) => {
      record.messages.push((data as Buffer).toString());
      socket.send(`echo:${(data as Buffer).toString()}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    seen,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        wss.close();
        server.close(resolve);
      }),
  };
}

type Opened = { protocol: string; echoed: string } | { refused: number; body: string } | { failed: string };

/** A socket offering `protocols` (and no key header unless given): its answered protocol and one echo. */
function open(url: string, protocols: string[], headers: Record<string, string> = {}): Promise<Opened> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, protocols, { headers });
    ws.once('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        resolve({ refused: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() });
        ws.terminate();
      });
    });
    ws.once('open', () => ws.send('{"text":"Hi."}'));
    ws.once('message', (data) => {
      resolve({ protocol: ws.protocol, echoed: (data as Buffer).toString() });
      ws.close(1000);
    });
    // ws fails a handshake whose answer names none of the offered protocols, as browsers do.
    ws.once('error', (error) => resolve({ failed: error.message }));
  });
}

/** A surface that refuses after accepting (relayed message by message) and also takes a sub-protocol key. */
function relayedAccess(): MirrorAccess {
  const access = mirrorAccess('vendor_c');
  const [first, ...rest] = access.keyPlacements;
  return { ...access, ...keyAccess([first, ...rest, keyProtocol('test-key.')]) };
}

describe('GatewayServer with a router key offered as a WebSocket sub-protocol', () => {
  const ok = issueApiKey();
  const unknown = issueApiKey();
  const logLines: string[] = [];
  let app: Awaited<ReturnType<typeof startApp>>;
  let gateway: GatewayServer;
  let base: string;

  beforeAll(async () => {
    app = await startApp();
    const directory = new KeyDirectory(
      {
        findKey: async (hash) => (hash === ok.keyHash ? { orgId: 'org-ok', revoked: false } : null),
        findOrg: async () => ({ disabled: false, outOfCredit: false, vendorKeys: [...VENDOR_IDS] }),
      },
      { ttlMs: 60_000, maxStaleMs: 120_000, outageStaleMs: 0, maxEntries: 100, now: Date.now },
    );
    gateway = new GatewayServer({
      routes: new RouteTable([
        mirrorRoute(mirrorAccess('vendor_a'), app.url, [/^\/text-to-speech\/ws$/]),
        mirrorRoute(mirrorAccess('vendor_e'), app.url, [/^\/v1\/speak$/]),
        mirrorRoute(relayedAccess(), app.url, [/^\/v1\/text-to-speech\/[^/]+\/stream-input$/]),
      ]),
      directory,
      signingSecret: secret,
      // Every line the gateway logs, at every level, is kept: none may hold a key.
      logger: pino({ level: 'trace' }, { write: (line: string) => void logLines.push(line) }),
      health: new Health('edge-protocol-key-test'),
      now: Date.now,
      upstreamHeadersTimeoutMs: 5000,
      maxRequestBodyBytes: 64 * 1024,
      maxSocketMessageBytes: 256 * 1024,
      socketRecheckMs: 60_000,
    });
    base = `ws://127.0.0.1:${await gateway.listen(0, '127.0.0.1')}`;
  });

  afterAll(async () => {
    await gateway.close();
    await app.close();
  });

  it('admits a vendor_a socket keyed only by its sub-protocol, answers that protocol, and splices it without it', async () => {
    const offered = `api-subscription-key.${ok.key}`;
    const opened = await open(`${base}/vendor_a/text-to-speech/ws?model=a_model_1`, [offered]);
    expect(opened).toEqual({ protocol: offered, echoed: 'echo:{"text":"Hi."}' });
    const seen = app.seen.at(-1)!;
    expect(seen.url).toBe('/vendor_a/text-to-speech/ws?model=a_model_1');
    expect(seen.headers['sec-websocket-protocol']).toBeUndefined();
    expect(seen.messages).toEqual(['{"text":"Hi."}']);
    const identity = verifyIdentity(
      seen.headers[IDENTITY_HEADER],
      { method: 'GET', path: seen.url },
      secret,
      {
        nowMs: Date.now(),
        maxAgeMs: 2000,
        maxFutureSkewMs: 0,
      },
    );
    expect(identity).toEqual({ ok: true, orgId: 'org-ok', bodyDigest: EMPTY_BODY_DIGEST });
  });

  it('passes the other protocols offered on, and keeps the one the app chose among them', async () => {
    const opened = await open(`${base}/vendor_a/text-to-speech/ws`, [
      `api-subscription-key.${ok.key}`,
      'chat',
    ]);
    expect(opened).toEqual({ protocol: 'chat', echoed: 'echo:{"text":"Hi."}' });
    expect(app.seen.at(-1)!.headers['sec-websocket-protocol']).toBe('chat');
  });

  it('answers the protocol the client offered even when the key also came in the header', async () => {
    const offered = `api-subscription-key.${ok.key}`;
    const opened = await open(`${base}/vendor_a/text-to-speech/ws`, [offered], {
      'api-subscription-key': ok.key,
    });
    expect(opened).toEqual({ protocol: offered, echoed: 'echo:{"text":"Hi."}' });
    expect(app.seen.at(-1)!.headers['sec-websocket-protocol']).toBeUndefined();
  });

  it("admits vendor_e's `token, <key>` and answers `token`", async () => {
    const opened = await open(`${base}/vendor_e/v1/speak?model=e_model_1`, ['token', ok.key]);
    expect(opened).toEqual({ protocol: 'token', echoed: 'echo:{"text":"Hi."}' });
    expect(app.seen.at(-1)!.headers['sec-websocket-protocol']).toBeUndefined();
  });

  it("refuses a wrong key offered as a sub-protocol at the handshake, in the vendor's shape", async () => {
    const before = app.seen.length;
    const opened = await open(`${base}/vendor_a/text-to-speech/ws`, [`api-subscription-key.${unknown.key}`]);
    expect(opened).toEqual({
      refused: 403,
      body: expect.stringContaining('"invalid_api_key_error"') as string,
    });
    expect(app.seen.length).toBe(before);
  });

  it('refuses two keys offered as sub-protocols: which is meant is ambiguous', async () => {
    const before = app.seen.length;
    const opened = await open(`${base}/vendor_a/text-to-speech/ws`, [
      `api-subscription-key.${ok.key}`,
      `api-subscription-key.${unknown.key}`,
    ]);
    expect(opened).toEqual({
      refused: 403,
      body: expect.stringContaining('"invalid_api_key_error"') as string,
    });
    expect(app.seen.length).toBe(before);
  });

  it('answers the key protocol on a socket it relays message by message, and opens the app side without it', async () => {
    const offered = `test-key.${ok.key}`;
    const opened = await open(`${base}/vendor_c/v1/text-to-speech/voice-1/stream-input`, [offered]);
    expect(opened).toEqual({ protocol: offered, echoed: 'echo:{"text":"Hi."}' });
    const seen = app.seen.at(-1)!;
    expect(seen.headers['sec-websocket-protocol']).toBeUndefined();
    expect(seen.messages).toEqual(['{"text":"Hi."}']);
  });

  it('answers the first other protocol offered on a relayed socket, as the app would on a spliced one', async () => {
    const opened = await open(`${base}/vendor_c/v1/text-to-speech/voice-1/stream-input`, [
      `test-key.${ok.key}`,
      'chat',
    ]);
    expect(opened).toEqual({ protocol: 'chat', echoed: 'echo:{"text":"Hi."}' });
  });

  it('takes a key protocol off a plain HTTP request too', async () => {
    const res = await fetch(`${base.replace('ws', 'http')}/vendor_a/text-to-speech`, {
      method: 'POST',
      headers: { 'sec-websocket-protocol': `api-subscription-key.${ok.key}, chat` },
      body: '{}',
    });
    expect(res.status).toBe(200);
    expect(app.seen.at(-1)!.headers['sec-websocket-protocol']).toBe('chat');
  });

  it('let no router key reach the app or a log line', () => {
    expect(app.seen.length).toBeGreaterThan(5);
    for (const seen of app.seen) expect(JSON.stringify(seen)).not.toContain('rtr_');
    for (const line of logLines) expect(line).not.toContain('rtr_');
  });
});
