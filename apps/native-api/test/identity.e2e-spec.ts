import { WebSocket } from 'ws';
import { digestBody, EMPTY_BODY_DIGEST, IDENTITY_HEADER, signIdentity } from '@router/auth';
import { createBus } from '@router/bus';
import { mirrorUrlVariable } from '@router/config';
import { healthCacheV1, healthSynthesisV1 } from '@router/contracts';
import { call, createOrgWithKey, readE2eStack } from '@router/testing';

const stack = readE2eStack();
const secret = stack.env.INTERNAL_SIGNING_SECRET ?? '';

describe('native-api behind the gateway (e2e)', () => {
  const { orgId } = createOrgWithKey(stack.adminUrl, 'identity');
  const path = '/v1/provider-keys';
  const get = { method: 'GET', path, orgId, bodyDigest: EMPTY_BODY_DIGEST };

  it('refuses a request sent straight to it without the gateway signature', async () => {
    const res = await call(stack.nativeApiUrl, 'GET', path);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
  });

  it('refuses a forged signature and a replayed stale one, and accepts a fresh one', async () => {
    const forged = signIdentity(get, 'f'.repeat(43), Date.now());
    expect(
      (await call(stack.nativeApiUrl, 'GET', path, { headers: { [IDENTITY_HEADER]: forged } })).status,
    ).toBe(401);

    // A stale signature of the gateway's is what an app too busy to read a request in time sees: refused as
    // the retryable "unavailable", never as a key problem a client would not retry.
    const stale = signIdentity(get, secret, Date.now() - 30_000);
    const late = await call(stack.nativeApiUrl, 'GET', path, { headers: { [IDENTITY_HEADER]: stale } });
    expect([late.status, late.body.error.code, late.body.error.retryable]).toEqual([
      503,
      'unavailable',
      true,
    ]);

    const fresh = signIdentity(get, secret, Date.now());
    const ok = await call(stack.nativeApiUrl, 'GET', path, { headers: { [IDENTITY_HEADER]: fresh } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual([]);
  });

  it('refuses a captured header replayed with another body, and one dated 3 s ahead', async () => {
    const put = { method: 'PUT', path: '/v1/provider-keys/vendor_e', orgId };
    const first = JSON.stringify({ api_key: 'first-key-12345678' });
    const captured = signIdentity({ ...put, bodyDigest: digestBody(Buffer.from(first)) }, secret, Date.now());
    const send = (header: string, rawBody: string) =>
      call(stack.nativeApiUrl, 'PUT', put.path, { headers: { [IDENTITY_HEADER]: header }, rawBody });
    expect((await send(captured, first)).status).toBe(200);
    const replayed = await send(captured, JSON.stringify({ api_key: 'other-key-12345678' }));
    expect(replayed.status).toBe(401);
    expect(replayed.body.error.code).toBe('unauthorized');
    const ahead = signIdentity(
      { ...put, bodyDigest: digestBody(Buffer.from(first)) },
      secret,
      Date.now() + 3000,
    );
    expect((await send(ahead, first)).status).toBe(401);
  });

  it('refuses a stale signature on a mirror and on a socket as the retryable "unavailable"', async () => {
    const mirrorPath = '/vendor_d/v1/audio/speech';
    const body = JSON.stringify({ model: 'any', input: 'Hello.', voice: 'any' });
    const claims = { method: 'POST', path: mirrorPath, orgId, bodyDigest: digestBody(Buffer.from(body)) };
    const mirror = await fetch(`${stack.env[mirrorUrlVariable('vendor_d')]}${mirrorPath}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [IDENTITY_HEADER]: signIdentity(claims, secret, 0) },
      body,
    });
    expect([mirror.status, mirror.headers.get('retry-after')]).toEqual([503, '1']);
    expect(await mirror.text()).toContain('too busy');
    const forged = signIdentity(claims, 'f'.repeat(43), Date.now());
    const refused = await fetch(`${stack.env[mirrorUrlVariable('vendor_d')]}${mirrorPath}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [IDENTITY_HEADER]: forged },
      body,
    });
    expect(refused.status).toBe(401);

    const upgrade = { method: 'GET', path: '/v1/stream', orgId, bodyDigest: EMPTY_BODY_DIGEST };
    const handshake = async (header: string) =>
      new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(`${stack.nativeApiUrl.replace('http', 'ws')}/v1/stream`, {
          headers: { [IDENTITY_HEADER]: header },
        });
        ws.once('unexpected-response', (_req, res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        ws.once('open', () => {
          ws.close();
          resolve(101);
        });
        ws.once('error', reject);
      });
    expect(await handshake(signIdentity(upgrade, secret, 0))).toBe(503);
    expect(await handshake(signIdentity(upgrade, 'f'.repeat(43), Date.now()))).toBe(401);
  });

  it('refuses a signature made for another path', async () => {
    const other = signIdentity({ ...get, path: '/v1/models' }, secret, Date.now());
    expect(
      (await call(stack.nativeApiUrl, 'GET', path, { headers: { [IDENTITY_HEADER]: other } })).status,
    ).toBe(401);
  });

  it('answers health, readiness and metrics on every app without the gateway', async () => {
    for (const [app, port] of Object.entries(stack.ports)) {
      // The gateway keeps them off its public port, on an internal one.
      const base = app === 'edge-gateway' ? stack.gatewayInternalUrl : `http://127.0.0.1:${port}`;
      expect([app, (await call(base, 'GET', '/healthz')).status]).toEqual([app, 200]);
      expect([app, (await call(base, 'GET', '/readyz')).status]).toEqual([app, 200]);
      const metrics = await call(base, 'GET', '/metrics');
      expect(metrics.text).toContain('process_cpu_user_seconds_total');
    }
    expect((await call(stack.gatewayUrl, 'GET', '/readyz')).status).toBe(404);
    expect((await call(stack.gatewayUrl, 'GET', '/metrics')).status).toBe(404);
  });

  it('has cache-service and the synthesis workers answering on the bus', async () => {
    const bus = createBus({ kind: 'nats', url: stack.env.NATS_URL, prefix: stack.env.NATS_SUBJECT_PREFIX });
    try {
      expect(await bus.request(healthCacheV1, {}, { timeoutMs: 5000 })).toEqual({
        service: 'cache-service',
        ok: true,
        uptimeMs: expect.any(Number),
      });
      expect((await bus.request(healthSynthesisV1, {}, { timeoutMs: 5000 })).service).toBe(
        'synthesis-worker',
      );
    } finally {
      await bus.close();
    }
  });
});
