import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AppProcess,
  call,
  freePort,
  httpOk,
  type PrivateNats,
  servicesEnv,
  spawnApp,
  startPrivateNats,
  waitFor,
} from '@router/testing';

describe('readiness follows NATS (apps started from dist/)', () => {
  // A NATS server of this test's own, so it can be stopped without disturbing anything else.
  let nats: PrivateNats;
  let app: AppProcess;
  let base: string;

  beforeAll(async () => {
    nats = await startPrivateNats();
    const services = servicesEnv();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    app = spawnApp(
      'cache-service-readiness',
      'dist/apps/cache-service/main.js',
      {
        NATS_URL: nats.url,
        DATABASE_URL: `${services.databaseUrlBase}/postgres`,
        S3_ENDPOINT: services.s3.endpoint,
        S3_ACCESS_KEY: services.s3.accessKey,
        S3_SECRET_KEY: services.s3.secretKey,
        S3_BUCKET: 'router-readiness-test',
        PORT: String(port),
        HOST: '127.0.0.1',
      },
      mkdtempSync(join(tmpdir(), 'router-readiness-')),
    );
    await waitFor('cache-service healthz', () => httpOk(`${base}/healthz`));
  });

  afterAll(async () => {
    await app?.stop();
    await nats?.close();
  });

  it('is ready with NATS up, answers 503 naming nats once NATS stops, and recovers when it is back', async () => {
    await waitFor('ready', async () => (await call(base, 'GET', '/readyz')).status === 200);
    const ready = await call(base, 'GET', '/readyz');
    expect(ready.body).toEqual({
      status: 'ready',
      checks: { nats: 'ok', database: 'ok', 'blob-store': 'ok', draining: 'ok' },
    });

    await nats.stop();
    await waitFor('503', async () => (await call(base, 'GET', '/readyz')).status === 503, 15_000);
    const down = await call(base, 'GET', '/readyz');
    expect(down.body.status).toBe('unavailable');
    expect(down.body.failing).toEqual(['nats']);
    expect((await call(base, 'GET', '/healthz')).status).toBe(200);

    await nats.restart();
    await waitFor('ready again', async () => (await call(base, 'GET', '/readyz')).status === 200, 20_000);
  });

  it('refuses to start with a bad variable, naming it', async () => {
    const bad = spawnApp(
      'cache-service-bad-env',
      'dist/apps/cache-service/main.js',
      { NATS_URL: 'http://nope', PORT: 'abc' },
      mkdtempSync(join(tmpdir(), 'router-badenv-')),
    );
    const code = await new Promise<number | null>((resolve) => bad.child.once('exit', resolve));
    expect(code).toBe(1);
    const { readFileSync } = await import('node:fs');
    const log = readFileSync(bad.logFile, 'utf8');
    expect(log).toContain('NATS_URL must use nats or tls');
    expect(log).toContain('PORT must be an integer');
    expect(log).toContain('DATABASE_URL is required');
    expect(log).toContain('S3_ENDPOINT is required');
  });
});
