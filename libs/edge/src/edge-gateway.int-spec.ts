import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import WebSocket from 'ws';
import { issueApiKey } from '@router/auth';
import { type Bus, createBus } from '@router/bus';
import { authChangedV1 } from '@router/contracts';
import { createDatabase, type Database } from '@router/db';
import { Health } from '@router/observability';
import { createScratchDatabase, type ScratchDatabase } from '@router/testing';
import { prismaAuthSource, type RunningGateway, startEdgeGateway } from './edge-gateway';

/** An app behind the gateway that answers every request with its path. */
async function startApp(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ path: req.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const until = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('startEdgeGateway on PostgreSQL: stored vendor keys', () => {
  let scratch: ScratchDatabase;
  let db: Database;
  let bus: Bus;
  let app: Awaited<ReturnType<typeof startApp>>;
  let gateway: RunningGateway;
  let base: string;
  let orgId: string;
  const issued = issueApiKey();

  beforeAll(async () => {
    scratch = await createScratchDatabase('edge_vendor_keys');
    db = await createDatabase({ url: scratch.url });
    await db.migrate();
    orgId = (await db.prisma.org.create({ data: { name: 'edge-vendor-keys' } })).id;
    await db.prisma.apiKey.create({ data: { orgId, prefix: issued.prefix, keyHash: issued.keyHash } });
    bus = createBus({ kind: 'memory', requestTimeoutMs: 5000 });
    app = await startApp();
    gateway = await startEdgeGateway(
      {
        port: 0,
        host: '127.0.0.1',
        internalPort: 0,
        internalHost: '127.0.0.1',
        nativeApiUrl: app.url,
        mirrorUrls: { vendor_c: app.url },
        signingSecret: 'edge-gateway-int-secret-0123456789abcdef',
        // Long enough that only the change event can make the gateway see a stored key this soon.
        authCacheTtlMs: 60_000,
        outageStaleMs: 0,
        maxRequestBodyBytes: 64 * 1024,
        maxSocketMessageBytes: 256 * 1024,
        clientStallMs: 0,
        orgLimits: { concurrentSyntheses: 0, openSockets: 0, requestsPerSecond: 0 },
      },
      { prisma: db.prisma, bus, logger: pino({ level: 'silent' }), health: new Health('edge-int') },
    );
    base = `http://127.0.0.1:${gateway.port}`;
  }, 60_000);

  afterAll(async () => {
    await gateway.close();
    await new Promise((r) => app.server.close(r));
    await bus.close();
    await db.close();
    await scratch.drop();
  });

  const mirrorStatus = async (): Promise<number> =>
    (await fetch(`${base}/vendor_c/v1/voices`, { headers: { 'vendor_c-api-key': issued.key } })).status;

  it('refuses a mirror until the org stores a key for its vendor, then forwards; the native route never asks', async () => {
    const refused = await fetch(`${base}/vendor_c/v1/voices`, {
      headers: { 'vendor_c-api-key': issued.key },
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      detail: {
        type: 'authentication_error',
        code: 'invalid_api_key',
        message: 'No vendor_c key is stored for this organisation. Add one at /dashboard/provider-keys.',
        status: 'invalid_api_key',
        request_id: expect.any(String),
        param: 'api_key',
      },
    });
    const native = await fetch(`${base}/v1/provider-keys`, {
      headers: { authorization: `Bearer ${issued.key}` },
    });
    expect(native.status).toBe(200);

    await db.prisma.providerKey.create({
      data: {
        orgId,
        provider: 'vendor_c',
        ciphertext: Buffer.from('x'),
        nonce: Buffer.alloc(12),
        authTag: Buffer.alloc(16),
        keyVersion: 1,
        last4: 'abcd',
      },
    });
    await bus.publish(authChangedV1, { kind: 'provider_key', orgId, provider: 'vendor_c' });
    await eventually(async () => (await mirrorStatus()) === 200, 'the stored key to be seen');
    const forwarded = await fetch(`${base}/vendor_c/v1/voices`, {
      headers: { 'vendor_c-api-key': issued.key },
    });
    expect(await forwarded.json()).toEqual({ path: '/vendor_c/v1/voices' });

    await db.prisma.providerKey.deleteMany({ where: { orgId, provider: 'vendor_c' } });
    await bus.publish(authChangedV1, { kind: 'provider_key', orgId, provider: 'vendor_c' });
    await eventually(async () => (await mirrorStatus()) === 400, 'the deleted key to be seen');
  });

  it("reads an org's standing from its row as the dashboard does, with its stored vendor keys", async () => {
    const source = prismaAuthSource(db.prisma);
    const org = (
      await db.prisma.org.create({ data: { name: 'edge-standing', creditState: 'out_of_credit' } })
    ).id;
    await expect(source.findOrg(org)).resolves.toEqual({
      disabled: false,
      outOfCredit: true,
      vendorKeys: [],
    });
    await db.prisma.org.update({ where: { id: org }, data: { disabled: true, creditState: 'in_credit' } });
    await expect(source.findOrg(org)).resolves.toMatchObject({ disabled: true, outOfCredit: false });
  });

  it('routes nothing for a vendor without a configured mirror app: the unknown-route answer', async () => {
    const res = await fetch(`${base}/vendor_a/text-to-speech`, {
      headers: { 'api-subscription-key': issued.key },
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: { code: 'not_found', message: 'No such route.', retryable: false },
    });
  });

  it("refuses a handshake on a path the mirror has no socket on with the vendor's 404, before any key", async () => {
    for (const path of ['/vendor_c/v1/text-to-dialogue/stream-input', '/vendor_c/v1/voices']) {
      const refused = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const ws = new WebSocket(`${base.replace('http', 'ws')}${path}`);
        ws.on('unexpected-response', (_req, res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
          );
        });
        ws.on('open', () => reject(new Error(`the handshake on ${path} was accepted`)));
        ws.on('error', () => undefined);
      });
      expect([path, refused.status, JSON.parse(refused.body)]).toEqual([path, 404, { detail: 'Not Found' }]);
    }
  });
});
