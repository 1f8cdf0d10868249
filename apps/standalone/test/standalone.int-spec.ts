import { mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { RouterClient } from '@router/client';
import { type AppProcess, call, freePort, spawnApp, waitFor } from '@router/testing';

/**
 * The README's first command ends in `node dist/apps/standalone/main.js`: every app in one process with
 * embedded defaults. This starts it from dist/ on an empty data directory, as a fresh machine would.
 */
describe('standalone router (embedded Postgres, in-process bus, filesystem blobs, simulated vendors)', () => {
  let app: AppProcess;
  let base: string;
  let tlsBase: string;
  let dataDir: string;
  let demoKey: string;

  beforeAll(async () => {
    const port = await freePort();
    const adminPort = await freePort();
    const internalPort = await freePort();
    const tlsPort = await freePort();
    dataDir = mkdtempSync(join(tmpdir(), 'router-standalone-'));
    base = `http://127.0.0.1:${port}`;
    tlsBase = `https://localhost:${tlsPort}`;
    app = spawnApp(
      'standalone',
      'dist/apps/standalone/main.js',
      {
        PORT: String(port),
        ADMIN_PORT: String(adminPort),
        INTERNAL_PORT: String(internalPort),
        TLS_PORT: String(tlsPort),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
      },
      dataDir,
    );
    await waitFor(
      'standalone router',
      async () => (await call(base, 'GET', '/healthz')).status === 200,
      90_000,
      250,
    );
    await waitFor(
      'welcome text',
      async () => readFileSync(app.logFile, 'utf8').includes('Create an org'),
      10_000,
    );
    demoKey = /rtr_[A-Za-z0-9_-]+/.exec(readFileSync(app.logFile, 'utf8'))?.[0] ?? '';
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
  });

  it('prints its port, a demo key once, and how to create an org and a key', () => {
    const printed = readFileSync(app.logFile, 'utf8');
    expect(printed).toContain(`listening on http://localhost:${new URL(base).port}`);
    expect(printed).toContain('org create --name');
    expect(printed).toContain('key issue');
    expect(demoKey).toMatch(/^rtr_/);
  });

  it('listens with TLS too, on a self-signed certificate a client trusts from its data directory', async () => {
    const certFile = join(dataDir, 'tls', 'cert.pem');
    const printed = readFileSync(app.logFile, 'utf8');
    expect(printed).toContain(`And on ${tlsBase} (HTTPS and wss://).`);
    expect(printed).toContain(`curl --cacert ${certFile} ${tlsBase}/v1/models`);
    const ca = readFileSync(certFile);
    const status = await new Promise<number>((resolve, reject) => {
      request(`${tlsBase}/v1/models`, { ca, agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(200);
    // wss:// to /v1/stream with the demo key: the handshake is admitted and answered over TLS.
    const opened = await new Promise<string>((resolve) => {
      const ws = new WebSocket(`${tlsBase.replace('https', 'wss')}/v1/stream`, {
        ca,
        headers: { authorization: `Bearer ${demoKey}` },
      });
      ws.once('open', () => {
        resolve('open');
        ws.close(1000);
      });
      ws.once('error', (error) => resolve(error.message));
    });
    expect(opened).toBe('open');
  });

  it('serves the dashboard and prints how to sign in to it, with a code that signs the demo member in', async () => {
    const printed = readFileSync(app.logFile, 'utf8');
    expect(printed).toContain(`The dashboard: http://localhost:${new URL(base).port}/dashboard/`);
    const [, email, code] = /Sign in as (\S+) with the one-time code (\S+)/.exec(printed) ?? [];
    const page = await fetch(`${base}/dashboard/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="app">');
    const signIn = await fetch(`${base}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, code }),
    });
    expect(signIn.status).toBe(200);
    expect(await signIn.json()).toMatchObject({ email: 'demo@example.com', org: { name: 'demo' } });
    expect(signIn.headers.get('set-cookie')).toMatch(
      /^rtr_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict/,
    );
  });

  it('serves the catalogue, the demo key, and speech from the simulated vendors, then from its cache', async () => {
    expect((await call(base, 'GET', '/v1/models')).status).toBe(200);
    expect(
      (
        await call(base, 'PUT', '/v1/provider-keys/vendor_a', {
          key: demoKey,
          body: { api_key: 'demo-vendor-key' },
        })
      ).status,
    ).toBe(200);
    const models = await call(base, 'GET', '/v1/models');
    const voice = models.body.providers[0].models[0].voices[0] as string;
    const body = {
      model: 'vendor_a/a_model_1',
      voice,
      language: 'en-IN',
      response_format: 'pcm',
      input: 'Hello from one process. It works.',
    };
    const speak = () =>
      fetch(`${base}/v1/audio/speech`, {
        method: 'POST',
        headers: { authorization: `Bearer ${demoKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (res) => ({ status: res.status, audio: Buffer.from(await res.arrayBuffer()) }));
    const first = await speak();
    expect(first.status).toBe(200);
    expect(first.audio.length).toBeGreaterThan(1000);
    const second = await speak();
    expect(second.audio.equals(first.audio)).toBe(true);
  });

  it('serves /v1/stream through its gateway, from the same cache as the speech endpoint', async () => {
    const client = new RouterClient({ baseUrl: base, apiKey: demoKey });
    const { providers } = await client.models();
    const voice = providers[0].models[0].voices![0];
    const session = await client.stream({
      model: 'vendor_a/a_model_1',
      voice,
      language: 'en-IN',
      response_format: 'pcm',
    });
    const heard = (async () => {
      const sentences: Array<{ text: string; cached: boolean; bytes: number }> = [];
      for await (const sentence of session.sentences()) {
        const audio = await sentence.bytes();
        expect((await sentence.end()).bytes).toBe(audio.length);
        sentences.push({ text: sentence.text, cached: sentence.cached, bytes: audio.length });
      }
      return sentences;
    })();
    for (const delta of ['Hello from ', 'one process. It', ' works.']) session.send(delta);
    expect((await session.close()).code).toBe(1000);
    const sentences = await heard;
    // The speech test above said the same sentences with the same settings.
    expect(sentences.map((s) => [s.text, s.cached])).toEqual([
      ['Hello from one process.', true],
      ['It works.', true],
    ]);
    expect(sentences.reduce((sum, s) => sum + s.bytes, 0)).toBeGreaterThan(1000);
  });

  it('lists voices from the simulated vendors with the stored key', async () => {
    await call(base, 'PUT', '/v1/provider-keys/vendor_c', { key: demoKey, body: { api_key: 'demo-c-key' } });
    const voices = await call(base, 'GET', '/v1/voices?provider=vendor_c', { key: demoKey });
    expect(voices.status).toBe(200);
    expect(voices.body.voices.length).toBeGreaterThan(100);
    // The demo org came with a simulated key for every vendor; without one, the vendor is refused.
    expect((await call(base, 'GET', '/v1/voices?provider=vendor_b', { key: demoKey })).status).toBe(200);
    expect((await call(base, 'DELETE', '/v1/provider-keys/vendor_b', { key: demoKey })).status).toBe(204);
    await waitFor(
      'the deleted vendor_b key to be refused',
      async () =>
        (await call(base, 'GET', '/v1/voices?provider=vendor_b', { key: demoKey })).body?.error?.code ===
        'provider_key_missing',
      10_000,
    );
  });

  it("serves vendor_c's own API under /vendor_c, said twice from its cache", async () => {
    await call(base, 'PUT', '/v1/provider-keys/vendor_c', { key: demoKey, body: { api_key: 'demo-c-key' } });
    const headers = { 'vendor_c-api-key': demoKey, 'content-type': 'application/json' };
    const listed = await fetch(`${base}/vendor_c/v1/voices`, { headers });
    expect(listed.status).toBe(200);
    const { voices } = (await listed.json()) as { voices: Array<{ voice_id: string }> };
    const say = () =>
      fetch(`${base}/vendor_c/v1/text-to-speech/${voices[0].voice_id}?output_format=pcm_16000`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ text: 'A drop-in in one process.' }),
      }).then(async (res) => ({ status: res.status, audio: Buffer.from(await res.arrayBuffer()) }));
    const first = await say();
    expect(first.status).toBe(200);
    expect(first.audio.length).toBeGreaterThan(1000);
    expect((await say()).audio.equals(first.audio)).toBe(true);
  });
});
