import { X509Certificate } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type PeerCertificate, type TLSSocket } from 'node:tls';
import pino from 'pino';
import WebSocket, { WebSocketServer } from 'ws';
import { issueApiKey } from '@router/auth';
import { Health } from '@router/observability';
import { createSelfSignedCertificate, type TlsFiles } from '@router/config';
import { mirrorAccess } from '@router/vendors';
import { GatewayServer } from './gateway.server';
import { KeyDirectory } from './key-directory';
import { mirrorRoute } from './mirror-route';
import { nativeRoute, RouteTable } from './surface-routes';

/*
 * The gateway's own TLS: HTTPS and wss:// on its TLS port (spliced and relayed sockets alike), the app told
 * the request came over TLS, and the certificate's files replaced while it runs, the new one served from
 * the next connection on. Certificates are made as the standalone router makes its own.
 */

const secret = 'gateway-tls-test-secret-0123456789ab';

/** What reached the app: each request's and handshake's headers. */
async function startApp() {
  const seen: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req.headers);
    req.resume();
    req.on('end', () => res.end('{"served":true}'));
  });
  const wss = new WebSocketServer({ server });
  wss.on('connection', (socket, req) => {
    seen.push(req.headers);
    socket.on('message', (data) => socket.send(`echo:${(data as Buffer).toString()}`));
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

/** An HTTPS request trusting `ca` alone: its status, body and the certificate the gateway served. */
function httpsGet(
  url: string,
  ca: Buffer[],
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; fingerprint: string; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    // A new connection each time (no agent), so the certificate served now is the one seen.
    const req = request(url, { ca, headers, agent: false }, (res) => {
      const peer: PeerCertificate = (res.socket as TLSSocket).getPeerCertificate();
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString(),
          fingerprint: peer.fingerprint256,
          headers: res.headers,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** A wss:// socket trusting `ca` alone: the echo of one message, or why it failed. */
function wssEcho(url: string, ca: Buffer[], headers: Record<string, string>): Promise<string> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { ca, headers });
    ws.once('open', () => ws.send('{"text":"Hi."}'));
    ws.once('message', (data) => {
      resolve((data as Buffer).toString());
      ws.close(1000);
    });
    ws.once('error', (error) => resolve(`failed: ${error.message}`));
  });
}

/** Waits (bounded, never timed) until `done` holds. */
async function until(done: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`not within 10 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function fingerprintOf(certFile: string): string {
  return new X509Certificate(readFileSync(certFile)).fingerprint256;
}

describe('GatewayServer with TLS of its own', () => {
  const ok = issueApiKey();
  const dir = mkdtempSync(join(tmpdir(), 'gateway-tls-'));
  const served: TlsFiles = { certFile: join(dir, 'cert.pem'), keyFile: join(dir, 'key.pem') };
  const first: TlsFiles = { certFile: join(dir, 'a', 'cert.pem'), keyFile: join(dir, 'a', 'key.pem') };
  const second: TlsFiles = { certFile: join(dir, 'b', 'cert.pem'), keyFile: join(dir, 'b', 'key.pem') };
  const logLines: string[] = [];
  let app: Awaited<ReturnType<typeof startApp>>;
  let gateway: GatewayServer;
  let base: string;
  let firstCa: Buffer;
  let secondCa: Buffer;

  beforeAll(async () => {
    await createSelfSignedCertificate(first, ['localhost', '127.0.0.1', '::1']);
    await createSelfSignedCertificate(second, ['localhost', '127.0.0.1', '::1']);
    copyFileSync(first.certFile, served.certFile);
    copyFileSync(first.keyFile, served.keyFile);
    [firstCa, secondCa] = [readFileSync(first.certFile), readFileSync(second.certFile)];
    app = await startApp();
    const directory = new KeyDirectory(
      {
        findKey: async (hash) => (hash === ok.keyHash ? { orgId: 'org-ok', revoked: false } : null),
        findOrg: async () => ({ disabled: false, outOfCredit: false, vendorKeys: ['vendor_c'] }),
      },
      { ttlMs: 60_000, maxStaleMs: 120_000, outageStaleMs: 0, maxEntries: 100, now: Date.now },
    );
    gateway = new GatewayServer({
      routes: new RouteTable([
        nativeRoute(app.url),
        mirrorRoute(mirrorAccess('vendor_c'), app.url, [/^\/v1\/text-to-speech\/[^/]+\/stream-input$/]),
      ]),
      directory,
      signingSecret: secret,
      logger: pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) }),
      health: new Health('edge-tls-test'),
      now: Date.now,
      upstreamHeadersTimeoutMs: 5000,
      maxRequestBodyBytes: 64 * 1024,
      maxSocketMessageBytes: 256 * 1024,
      socketRecheckMs: 60_000,
    });
    const port = await gateway.listenTls(0, '127.0.0.1', { ...served, reloadMs: 50 });
    base = `https://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    await gateway.close();
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers HTTPS with its certificate, and tells the app the request came over TLS', async () => {
    const answer = await httpsGet(`${base}/v1/models`, [firstCa], { 'x-forwarded-proto': 'http' });
    expect(answer).toMatchObject({
      status: 200,
      body: '{"served":true}',
      fingerprint: fingerprintOf(first.certFile),
    });
    expect(app.seen.at(-1)!['x-forwarded-proto']).toBe('https');
    // The host the client asked for reaches the app (the dashboard compares a browser's Origin with it).
    expect(app.seen.at(-1)!['x-forwarded-host']).toBe(new URL(base).host);
  });

  it('sends Strict-Transport-Security on every answer of the TLS port, refusals included', async () => {
    const served = await httpsGet(`${base}/v1/models`, [firstCa]);
    expect(served.headers['strict-transport-security']).toBe('max-age=31536000');
    const unknown = await httpsGet(`${base}/nowhere`, [firstCa]);
    expect(unknown.status).toBe(404);
    expect(unknown.headers['strict-transport-security']).toBe('max-age=31536000');
  });

  it('serves wss:// on a spliced socket and on a relayed one', async () => {
    const wss = base.replace('https', 'wss');
    const headers = { authorization: `Bearer ${ok.key}` };
    expect(await wssEcho(`${wss}/v1/stream`, [firstCa], headers)).toBe('echo:{"text":"Hi."}');
    expect(app.seen.at(-1)!['x-forwarded-proto']).toBe('https');
    const relayed = `${wss}/vendor_c/v1/text-to-speech/voice-1/stream-input`;
    expect(await wssEcho(relayed, [firstCa], { 'vendor_c-api-key': ok.key })).toBe('echo:{"text":"Hi."}');
    expect(app.seen.at(-1)!['x-forwarded-proto']).toBe('https');
  });

  it("answers a relayed socket's upgrade sent with POST with the vendor's 405 over TLS, and serves the next request", async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port: Number(new URL(base).port), ca: [firstCa] });
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      socket.once('close', () => resolve(received));
      socket.once('error', reject);
      socket.write(
        [
          'POST /vendor_c/v1/text-to-speech/voice-1/stream-input HTTP/1.1',
          'Host: gateway',
          `vendor_c-api-key: ${ok.key}`,
          'Connection: Upgrade',
          'Upgrade: websocket',
          'Sec-WebSocket-Version: 13',
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
          '',
          'GET /v1/models HTTP/1.1',
          'Host: gateway',
          'Connection: close',
          '',
          '',
        ].join('\r\n'),
      );
    });
    const [refused = '', served = ''] = answer.split(/(?=HTTP\/1\.1 )/);
    expect(refused).toMatch(/^HTTP\/1\.1 405 /);
    expect(JSON.parse(refused.slice(refused.indexOf('\r\n\r\n') + 4))).toMatchObject({
      detail: { status: 'invalid_request', message: expect.stringContaining('GET') },
    });
    expect(served).toMatch(/^HTTP\/1\.1 200 /);
    expect(served.endsWith('{"served":true}')).toBe(true);
  });

  it('is refused by a client that does not trust its certificate', async () => {
    await expect(httpsGet(`${base}/v1/models`, [secondCa])).rejects.toThrow(/self.signed|certificate/i);
  });

  it('serves the new certificate once its files are replaced, and keeps it through a broken pair', async () => {
    copyFileSync(second.certFile, served.certFile);
    copyFileSync(second.keyFile, served.keyFile);
    const next = fingerprintOf(second.certFile);
    await until(
      async () => (await httpsGet(`${base}/v1/models`, [firstCa, secondCa])).fingerprint === next,
      'the new certificate to be served',
    );
    expect(
      await wssEcho(`${base.replace('https', 'wss')}/v1/stream`, [secondCa], {
        authorization: `Bearer ${ok.key}`,
      }),
    ).toBe('echo:{"text":"Hi."}');
    expect(logLines.some((line) => line.includes('TLS certificate reloaded'))).toBe(true);

    // A certificate whose key is not its own: refused, logged, and the last good pair still served.
    const mark = logLines.length;
    copyFileSync(first.certFile, served.certFile);
    await until(
      () => logLines.slice(mark).some((line) => line.includes('TLS certificate not reloaded')),
      'the refusal',
    );
    expect((await httpsGet(`${base}/v1/models`, [firstCa, secondCa])).fingerprint).toBe(next);
    expect(logLines.join('\n')).not.toContain('PRIVATE KEY');
  });

  it('refuses to start TLS on a certificate and a key that are not a pair, naming the files', () => {
    const mismatched = { certFile: first.certFile, keyFile: second.keyFile, reloadMs: 50 };
    expect(() => gateway.listenTls(0, '127.0.0.1', mismatched)).toThrow(first.certFile);
    writeFileSync(join(dir, 'empty.pem'), '');
    expect(() =>
      gateway.listenTls(0, '127.0.0.1', { ...mismatched, certFile: join(dir, 'empty.pem') }),
    ).toThrow('empty.pem');
  });
});
