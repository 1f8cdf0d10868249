import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import type { Writable } from 'node:stream';
import pino from 'pino';
import WebSocket, { WebSocketServer } from 'ws';
import { issueApiKey } from '@router/auth';
import { Health } from '@router/observability';
import { mirrorAccess } from '@router/vendors';
import { mirrorSocketPaths } from './edge-gateway';
import { GatewayServer } from './gateway.server';
import { KeyDirectory, type KeyRecord, type OrgRecord } from './key-directory';
import { mirrorRoute } from './mirror-route';
import { nativeRoute, RouteTable } from './surface-routes';

const secret = 'socket-revocation-test-secret-0123456789';

/** An app's side of one socket: the messages it got, and its close once it came. */
interface AppSide {
  url: string;
  messages: string[];
  closed: boolean;
}

/**
 * A fake app behind the gateway: echoes each message; `fragmented` answers with a message in two fragments,
 * the second sent only once the test calls `finishFragment` (so the gateway is inside a message meanwhile).
 */
async function startApp() {
  const sides: AppSide[] = [];
  let finishFragment: (() => void) | undefined;
  const fragmentStarted: Array<() => void> = [];
  const server: Server = createServer((_req, res) => res.end());
  const wss = new WebSocketServer({ server });
  wss.on('connection', (socket, req) => {
    const side: AppSide = { url: req.url ?? '', messages: [], closed: false };
    sides.push(side);
    socket.on('message', (data) => {
      const text = (data as Buffer).toString();
      side.messages.push(text);
      if (text !== 'fragmented') return void socket.send(`echo:${text}`);
      socket.send(Buffer.alloc(100_000, 1), { binary: true, fin: false });
      finishFragment = () => socket.send(Buffer.alloc(50_000, 2), { binary: true, fin: true });
      fragmentStarted.splice(0).forEach((resolve) => resolve());
    });
    socket.once('close', () => (side.closed = true));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    sides,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Resolves once the app has sent the first fragment of a `fragmented` answer. */
    fragmentStarted: () => new Promise<void>((resolve) => fragmentStarted.push(resolve)),
    finishFragment: () => finishFragment?.(),
    close: () =>
      new Promise((resolve) => {
        wss.close();
        server.close(resolve);
      }),
  };
}

/** A client socket through the gateway: what it received, and its close code once closed. */
function openClient(url: string, headers: Record<string, string>) {
  const ws = new WebSocket(url, { headers });
  const received: Array<string | Buffer> = [];
  let onMessage: (() => void) | undefined;
  ws.on('message', (data, isBinary) => {
    received.push(isBinary ? (data as Buffer) : (data as Buffer).toString());
    onMessage?.();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return {
    ws,
    received,
    closed,
    opened,
    /** Sends `text` and resolves once a message comes back. */
    async ask(text: string): Promise<string | Buffer> {
      const before = received.length;
      const answered = new Promise<void>(
        (resolve) => (onMessage = () => received.length > before && resolve()),
      );
      ws.send(text);
      await answered;
      return received[before];
    },
  };
}

/** ws's own framing and parsing (not in its published types), for a client that reads the raw bytes. */
const wsInternals = WebSocket as unknown as {
  Sender: { frame(data: Buffer, options: Record<string, unknown>): Buffer[] };
  Receiver: new (options: { isServer: boolean }) => Writable;
};

/**
 * A WebSocket client on a raw TCP socket, so a test can see the bytes arrive before a message is whole (the
 * first fragment of a fragmented one); its messages and close are read with ws's own parser.
 */
async function openRawClient(base: string, path: string, headers: Record<string, string>) {
  const tcp = connect(Number(new URL(base).port), '127.0.0.1');
  await new Promise<void>((resolve, reject) => tcp.once('connect', resolve).once('error', reject));
  const head = [
    `GET ${path} HTTP/1.1`,
    'Host: gateway',
    'Connection: Upgrade',
    'Upgrade: websocket',
    'Sec-WebSocket-Version: 13',
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  tcp.write(`${head.join('\r\n')}\r\n\r\n`);
  const receiver = new wsInternals.Receiver({ isServer: false });
  const messages: Array<string | Buffer> = [];
  receiver.on('message', (data: Buffer, isBinary: boolean) =>
    messages.push(isBinary ? data : data.toString()),
  );
  let frameBytes = 0;
  /** The handshake answer until its blank line; undefined once it has been read. */
  let answerHead: Buffer | undefined = Buffer.alloc(0);
  const waiters: Array<() => void> = [];
  const closed = new Promise<{ messages: typeof messages; close: { code: number; reason: string } }>(
    (resolve) =>
      receiver.on('conclude', (code: number, reason: Buffer) =>
        resolve({ messages, close: { code, reason: reason.toString() } }),
      ),
  );
  tcp.on('data', (chunk: Buffer) => {
    let frames = chunk;
    if (answerHead !== undefined) {
      answerHead = Buffer.concat([answerHead, chunk]);
      const end = answerHead.indexOf('\r\n\r\n');
      if (end < 0) return;
      frames = answerHead.subarray(end + 4);
      answerHead = undefined;
    }
    frameBytes += frames.length;
    receiver.write(frames);
    waiters.splice(0).forEach((wake) => wake());
  });
  tcp.once('end', () => tcp.end());
  return {
    closed,
    send(text: string): void {
      tcp.write(
        Buffer.concat(
          wsInternals.Sender.frame(Buffer.from(text), {
            fin: true,
            opcode: 1,
            mask: true,
            readOnly: false,
            rsv1: false,
          }),
        ),
      );
    },
    /** Resolves once at least `count` bytes of frames have come. */
    async bytesReceived(count: number): Promise<void> {
      while (frameBytes < count) await new Promise<void>((wake) => waiters.push(wake));
    },
  };
}

/** The app's side of the socket that sent `message` (each test sends messages of its own). */
function sideThatGot(sides: AppSide[], message: string): AppSide {
  const side = sides.find((candidate) => candidate.messages.includes(message));
  if (!side) throw new Error(`no app side got ${message}`);
  return side;
}

/** Waits (bounded, never timed) until `done` holds. */
async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`not within 5 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('open sockets when their key is revoked or their org disabled', () => {
  const keys = new Map<string, KeyRecord>();
  const orgs = new Map<string, OrgRecord>();
  let app: Awaited<ReturnType<typeof startApp>>;
  let directory: KeyDirectory;
  let gateway: GatewayServer;
  let wsBase: string;

  /** A fresh org with `count` keys, every vendor key stored. */
  const newOrg = (name: string, count = 1) => {
    orgs.set(name, { disabled: false, outOfCredit: false, vendorKeys: ['vendor_a', 'vendor_c'] });
    return Array.from({ length: count }, () => {
      const issued = issueApiKey();
      keys.set(issued.keyHash, { orgId: name, revoked: false });
      return issued;
    });
  };
  const revoke = async (issued: ReturnType<typeof issueApiKey>) => {
    keys.set(issued.keyHash, { ...keys.get(issued.keyHash)!, revoked: true });
    directory.forgetKey(issued.keyHash);
    await gateway.recheckSockets({ keyHash: issued.keyHash });
  };
  const changeOrg = async (orgId: string, change: Partial<OrgRecord>) => {
    orgs.set(orgId, { ...orgs.get(orgId)!, ...change });
    directory.forgetOrg(orgId);
    await gateway.recheckSockets({ orgId });
  };
  const native = (key: string) => openClient(`${wsBase}/v1/stream`, { authorization: `Bearer ${key}` });
  const vendorC = (headers: Record<string, string>) =>
    openClient(`${wsBase}/vendor_c/v1/text-to-speech/voice-1/stream-input?model_id=c_model_1`, headers);
  const parsed = (message: string | Buffer | undefined): unknown => JSON.parse(String(message));

  beforeAll(async () => {
    app = await startApp();
    directory = new KeyDirectory(
      { findKey: async (h) => keys.get(h) ?? null, findOrg: async (id) => orgs.get(id) ?? null },
      { ttlMs: 60_000, maxStaleMs: 120_000, outageStaleMs: 0, maxEntries: 1000, now: Date.now },
    );
    gateway = new GatewayServer({
      routes: new RouteTable([
        nativeRoute(app.url),
        mirrorRoute(mirrorAccess('vendor_c'), app.url, mirrorSocketPaths('vendor_c')),
        // vendor_a refuses at the handshake and has no mirror yet: a socket path of its own here.
        mirrorRoute(mirrorAccess('vendor_a'), app.url, [/^\/text-to-speech\/ws$/]),
      ]),
      directory,
      signingSecret: secret,
      logger: pino({ level: 'silent' }),
      health: new Health('edge-revocation-test'),
      now: Date.now,
      upstreamHeadersTimeoutMs: 5000,
      maxRequestBodyBytes: 64 * 1024,
      maxSocketMessageBytes: 256 * 1024,
      // Long: only the change's own re-check can close a socket in these tests, but for the last one's gateway.
      socketRecheckMs: 60_000,
    });
    wsBase = `ws://127.0.0.1:${await gateway.listen(0, '127.0.0.1')}`;
  });

  afterAll(async () => {
    await gateway.close();
    await app.close();
  });

  it("closes a /v1/stream socket whose key is revoked: the envelope's unauthorized error, then 1008", async () => {
    const [revoked, kept] = newOrg('org-native', 2);
    const client = native(revoked.key);
    const other = native(kept.key);
    await Promise.all([client.opened, other.opened]);
    expect(await client.ask('hello from the revoked key')).toBe('echo:hello from the revoked key');
    const appSide = sideThatGot(app.sides, 'hello from the revoked key');
    await revoke(revoked);
    expect(await client.closed).toEqual({ code: 1008, reason: 'unauthorized' });
    expect(parsed(client.received.at(-1))).toEqual({
      type: 'error',
      error: {
        code: 'unauthorized',
        message: 'The API key was revoked or deleted while the connection was open.',
        retryable: false,
      },
    });
    await until(() => appSide.closed, 'the app side to be closed');
    expect(await other.ask('still here')).toBe('echo:still here');
    other.ws.close();
  });

  it('lets the message in progress end before the refusal, and sends the app nothing after the revocation', async () => {
    const [issued] = newOrg('org-fragment');
    const client = await openRawClient(wsBase, '/v1/stream', { authorization: `Bearer ${issued.key}` });
    const started = app.fragmentStarted();
    client.send('fragmented');
    await started;
    // The first fragment has reached the client: the gateway is inside the app's message when it is revoked.
    await client.bytesReceived(100_000);
    await revoke(issued);
    client.send('after the revocation');
    app.finishFragment();
    const { messages, close } = await client.closed;
    expect(close).toEqual({ code: 1008, reason: 'unauthorized' });
    expect(messages).toHaveLength(2);
    const whole = messages[0] as Buffer;
    expect([Buffer.isBuffer(whole), whole.length]).toEqual([true, 150_000]);
    expect([whole[0], whole[99_999], whole[100_000], whole[149_999]]).toEqual([1, 1, 2, 2]);
    expect(parsed(messages[1])).toMatchObject({ type: 'error', error: { code: 'unauthorized' } });
    const appSide = sideThatGot(app.sides, 'fragmented');
    await until(() => appSide.closed, 'the app side to be closed');
    expect(appSide.messages).toEqual(['fragmented']);
  });

  it('closes every open socket of a disabled org, whatever its key, and no socket of another org', async () => {
    const [first, second] = newOrg('org-disabled', 2);
    const [elsewhere] = newOrg('org-enabled');
    const clients = [native(first.key), vendorC({ 'vendor_c-api-key': second.key })];
    const other = native(elsewhere.key);
    await Promise.all([...clients.map((c) => c.opened), other.opened]);
    for (const client of clients) expect(await client.ask('{"text":" "}')).toBe('echo:{"text":" "}');
    await changeOrg('org-disabled', { disabled: true });
    expect(await clients[0].closed).toEqual({ code: 1008, reason: 'unauthorized' });
    expect(parsed(clients[0].received.at(-1))).toMatchObject({
      type: 'error',
      error: { code: 'unauthorized', message: 'The org was disabled while the connection was open.' },
    });
    expect((await clients[1].closed).code).toBe(1008);
    expect(parsed(clients[1].received.at(-1))).toEqual({
      message: 'Invalid API key. The organisation of this router API key is disabled.',
      error: 'invalid_api_key',
      code: 1008,
    });
    expect(await other.ask('still here')).toBe('echo:still here');
    other.ws.close();
  });

  it('closes a relayed vendor_c socket keyed in its first message as the vendor refuses a wrong key', async () => {
    const [issued] = newOrg('org-vendor-c');
    const client = vendorC({});
    await client.opened;
    const first = JSON.stringify({ text: ' ', vendor_c_api_key: issued.key, context: 'revoked' });
    expect(await client.ask(first)).toBe('echo:{"text":" ","context":"revoked"}');
    const appSide = sideThatGot(app.sides, '{"text":" ","context":"revoked"}');
    await revoke(issued);
    expect(await client.closed).toEqual({ code: 1008, reason: 'invalid_api_key' });
    expect(parsed(client.received.at(-1))).toEqual({
      message: 'Invalid API key. The router API key is unknown or has been revoked.',
      error: 'invalid_api_key',
      code: 1008,
    });
    await until(() => appSide.closed, 'the app side to be closed');
  });

  it('closes a spliced socket of a vendor that refuses at the handshake with 1008 and a short reason', async () => {
    const [issued] = newOrg('org-vendor-a');
    const client = openClient(`${wsBase}/vendor_a/text-to-speech/ws`, {
      'api-subscription-key': issued.key,
    });
    await client.opened;
    expect(await client.ask('{"type":"ping"}')).toBe('echo:{"type":"ping"}');
    await revoke(issued);
    expect(await client.closed).toEqual({ code: 1008, reason: 'API key revoked' });
    expect(client.received).toEqual(['echo:{"type":"ping"}']);
  });

  it('keeps open sockets of an org out of credit or without its vendor key, while new handshakes are refused', async () => {
    const [issued] = newOrg('org-broke');
    const clients = [native(issued.key), vendorC({ 'vendor_c-api-key': issued.key })];
    await Promise.all(clients.map((c) => c.opened));
    await changeOrg('org-broke', { outOfCredit: true, vendorKeys: [] });
    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${wsBase}/v1/stream`, {
        headers: { authorization: `Bearer ${issued.key}` },
      });
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
      ws.on('error', () => undefined);
    });
    expect(refused).toBe(402);
    for (const client of clients) {
      expect(await client.ask('{"text":"Hello. "}')).toBe('echo:{"text":"Hello. "}');
      client.ws.close();
    }
  });

  it('closes a socket whose revocation event was lost, by the periodic re-check once its entry ages', async () => {
    const sweeping = new GatewayServer({
      routes: new RouteTable([nativeRoute(app.url)]),
      directory: new KeyDirectory(
        { findKey: async (h) => keys.get(h) ?? null, findOrg: async (id) => orgs.get(id) ?? null },
        { ttlMs: 100, maxStaleMs: 60_000, outageStaleMs: 0, maxEntries: 100, now: Date.now },
      ),
      signingSecret: secret,
      logger: pino({ level: 'silent' }),
      health: new Health('edge-revocation-sweep-test'),
      now: Date.now,
      upstreamHeadersTimeoutMs: 5000,
      maxRequestBodyBytes: 64 * 1024,
      maxSocketMessageBytes: 256 * 1024,
      socketRecheckMs: 50,
    });
    try {
      const port = await sweeping.listen(0, '127.0.0.1');
      const [issued] = newOrg('org-lost-event');
      const client = openClient(`ws://127.0.0.1:${port}/v1/stream`, {
        authorization: `Bearer ${issued.key}`,
      });
      await client.opened;
      expect(await client.ask('hello')).toBe('echo:hello');
      keys.set(issued.keyHash, { orgId: 'org-lost-event', revoked: true }); // no event, no forget
      expect((await client.closed).code).toBe(1008);
    } finally {
      await sweeping.close();
    }
  });
});
