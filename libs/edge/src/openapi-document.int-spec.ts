import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { ANONYMOUS_ORG, EMPTY_BODY_DIGEST, IDENTITY_HEADER, verifyIdentity } from '@router/auth';
import { Health } from '@router/observability';
import { GatewayServer } from './gateway.server';
import { KeyDirectory } from './key-directory';
import { dashboardRoute, nativeRoute, RouteTable } from './surface-routes';

const secret = 'openapi-test-secret-0123456789abcdef';

/** An app that serves its OpenAPI part at /openapi.json to the gateway alone (its signed anonymous identity). */
async function startPartApp(part: unknown) {
  const app = { reads: 0, status: 200, url: '', close: (): Promise<void> => Promise.resolve() };
  const server: Server = createServer((req, res) => {
    const identity = verifyIdentity(
      req.headers[IDENTITY_HEADER],
      { method: req.method ?? '', path: req.url ?? '' },
      secret,
      {
        nowMs: Date.now(),
        maxAgeMs: 2000,
        maxFutureSkewMs: 0,
      },
    );
    const signed =
      identity.ok && identity.orgId === ANONYMOUS_ORG && identity.bodyDigest === EMPTY_BODY_DIGEST;
    if (req.method !== 'GET' || req.url !== '/openapi.json' || !signed) {
      res.writeHead(401).end();
      return;
    }
    app.reads += 1;
    res.writeHead(app.status, { 'content-type': 'application/json' }).end(JSON.stringify(part));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  app.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  app.close = () => new Promise((resolve) => server.close(() => resolve()));
  return app;
}

const nativePart = {
  openapi: '3.1.0',
  info: { title: 'Speech synthesis cache router', version: '1' },
  security: [{ bearer: [] }],
  paths: { '/v1/models': { get: { operationId: 'ModelsController_list' } } },
  components: { schemas: { Model: { type: 'object' } } },
};
const dashboardPart = {
  openapi: '3.1.0',
  info: { title: 'Dashboard session endpoints', version: '1.0' },
  paths: { '/api/keys': { get: { operationId: 'KeysController_list', security: [{ session: [] }] } } },
  components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'rtr_session' } } },
};

describe("the gateway serves /openapi.json made of every surface app's part", () => {
  let native: Awaited<ReturnType<typeof startPartApp>>;
  let dashboard: Awaited<ReturnType<typeof startPartApp>>;
  const gateways: GatewayServer[] = [];

  const startGateway = async (routes: RouteTable): Promise<string> => {
    const gateway = new GatewayServer({
      routes,
      directory: new KeyDirectory(
        { findKey: async () => null, findOrg: async () => null },
        { ttlMs: 60_000, maxStaleMs: 120_000, outageStaleMs: 0, maxEntries: 10, now: Date.now },
      ),
      signingSecret: secret,
      logger: pino({ level: 'silent' }),
      health: new Health('edge-openapi-test'),
      now: Date.now,
      upstreamHeadersTimeoutMs: 2000,
      maxRequestBodyBytes: 1024,
      maxSocketMessageBytes: 1024,
      socketRecheckMs: 60_000,
    });
    gateways.push(gateway);
    return `http://127.0.0.1:${await gateway.listen(0, '127.0.0.1')}`;
  };

  beforeAll(async () => {
    native = await startPartApp(nativePart);
    dashboard = await startPartApp(dashboardPart);
  });

  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.close()));
    await native.close();
    await dashboard.close();
  });

  it("lists the native API's and the dashboard's endpoints in one document, asking each app for its part", async () => {
    const base = await startGateway(new RouteTable([nativeRoute(native.url), dashboardRoute(dashboard.url)]));
    const answer = await fetch(`${base}/openapi.json`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const document = (await answer.json()) as Record<string, any>;
    expect(document.info).toEqual(nativePart.info);
    expect(Object.keys(document.paths)).toEqual(['/v1/models', '/api/keys']);
    expect(document.components.securitySchemes.session).toEqual(
      dashboardPart.components.securitySchemes.session,
    );
    expect(document.components.schemas.Model).toEqual({ type: 'object' });

    const head = await fetch(`${base}/openapi.json`, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length'), await head.text()]).toEqual([
      200,
      answer.headers.get('content-length'),
      '',
    ]);
    // Within its keeping time the document is not made again.
    expect([native.reads, dashboard.reads]).toEqual([1, 1]);
    expect((await fetch(`${base}/openapi.json`, { method: 'POST' })).status).toBe(404);
  });

  it('lists only the parts of the surfaces it routes to', async () => {
    const base = await startGateway(new RouteTable([nativeRoute(native.url)]));
    const document = (await (await fetch(`${base}/openapi.json`)).json()) as Record<string, any>;
    expect(Object.keys(document.paths)).toEqual(['/v1/models']);
  });

  it("answers the router's retryable 500 when a part cannot be read, and the whole document once it can", async () => {
    const base = await startGateway(new RouteTable([nativeRoute(native.url), dashboardRoute(dashboard.url)]));
    dashboard.status = 503;
    const failed = await fetch(`${base}/openapi.json`);
    expect(failed.status).toBe(500);
    expect(await failed.json()).toMatchObject({ error: { code: 'internal', retryable: true } });
    dashboard.status = 200;
    const whole = (await (await fetch(`${base}/openapi.json`)).json()) as Record<string, any>;
    expect(Object.keys(whole.paths)).toEqual(['/v1/models', '/api/keys']);
  });
});
