import { inspect } from 'node:util';
import { FakeRouter } from '../test/fake-router';
import { RouterApiError, RouterClient, RouterConnectionError } from './index';

const KEY = 'rtr_' + 'k'.repeat(43);
const ENVELOPE = (code: string, message: string, retryable: boolean, extra: object = {}) =>
  JSON.stringify({ error: { code, message, retryable, ...extra } });

describe('RouterClient over HTTP (fake router)', () => {
  let router: FakeRouter;
  let client: RouterClient;

  beforeAll(async () => {
    router = await FakeRouter.start();
  });
  afterAll(() => router.stop());
  beforeEach(() => {
    router.requests.length = 0;
    client = new RouterClient({ baseUrl: router.url, apiKey: KEY });
  });

  describe('speech()', () => {
    it('posts the body as JSON with the key and streams the audio chunks as they come', async () => {
      let release!: () => void;
      const second = new Promise<void>((r) => (release = r));
      router.handler = async (_req, res) => {
        res.writeHead(200, { 'content-type': 'audio/wav', 'x-request-id': 'req-42' });
        res.write(Buffer.from([1, 2, 3]));
        await second;
        res.end(Buffer.from([4, 5]));
      };
      const body = { model: 'vendor_a/a_model_1', voice: 'v1', input: 'Hello.', temperature: 0.3 };
      const audio = await client.speech(body);
      expect([audio.contentType, audio.requestId]).toEqual(['audio/wav', 'req-42']);
      const iterator = audio[Symbol.asyncIterator]();
      // The first chunk arrives while the response is still open.
      expect([...(await iterator.next()).value]).toEqual([1, 2, 3]);
      release();
      expect([...(await iterator.next()).value]).toEqual([4, 5]);
      expect((await iterator.next()).done).toBe(true);

      const [req] = router.requests;
      expect(req.method).toBe('POST');
      expect(req.url).toBe('/v1/audio/speech');
      expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(req.headers['content-type']).toBe('application/json');
      expect(JSON.parse(req.body)).toEqual(body);
    });

    it('collects the whole audio with bytes(), once', async () => {
      router.handler = (_req, res) => {
        res.writeHead(200, { 'content-type': 'audio/pcm' });
        res.write(Buffer.from([9, 8]));
        res.end(Buffer.from([7]));
      };
      const audio = await client.speech({ model: 'm/x', voice: 'v', input: 'Hi.' });
      expect(audio.requestId).toBeNull();
      expect([...(await audio.bytes())]).toEqual([9, 8, 7]);
      await expect(audio.bytes()).rejects.toThrow('already been read');
    });

    it('rejects a refusal before audio with a RouterApiError carrying the envelope and the status', async () => {
      router.handler = (_req, res) => {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(ENVELOPE('provider_rejected', 'voice not found', false, { provider_status: 404 }));
      };
      const error = await client.speech({ model: 'm/x', voice: 'v', input: 'Hi.' }).catch((e) => e);
      expect(error).toBeInstanceOf(RouterApiError);
      expect(error).toMatchObject({
        code: 'provider_rejected',
        message: 'voice not found',
        retryable: false,
        providerStatus: 404,
        httpStatus: 400,
        sentence: undefined,
      });
      expect(error.body).toEqual({
        code: 'provider_rejected',
        message: 'voice not found',
        retryable: false,
        provider_status: 404,
      });
    });

    it('turns a retryable envelope into a retryable error without a provider status', async () => {
      router.handler = (_req, res) => {
        res.writeHead(504, { 'content-type': 'application/json' });
        res.end(ENVELOPE('provider_timeout', 'too slow', true));
      };
      const error = await client.speech({ model: 'm/x', voice: 'v', input: 'Hi.' }).catch((e) => e);
      expect(error).toMatchObject({ code: 'provider_timeout', retryable: true, httpStatus: 504 });
      expect(error.providerStatus).toBeUndefined();
    });

    it('reports an answer without the envelope as internal, retryable for 5xx', async () => {
      router.handler = (_req, res) => {
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end('<html>bad gateway</html>');
      };
      const error = await client.speech({ model: 'm/x', voice: 'v', input: 'Hi.' }).catch((e) => e);
      expect(error).toBeInstanceOf(RouterApiError);
      expect(error).toMatchObject({ code: 'internal', retryable: true, httpStatus: 502 });
      expect(error.message).toContain('bad gateway');
    });

    it('throws a RouterConnectionError from the iteration when the body is cut after audio started', async () => {
      router.handler = (_req, res) => {
        res.writeHead(200, { 'content-type': 'audio/pcm' });
        res.write(Buffer.from([1, 2]), () => setTimeout(() => res.socket?.destroy(), 20));
      };
      const audio = await client.speech({ model: 'm/x', voice: 'v', input: 'Hi.' });
      const got: number[] = [];
      const error = await (async () => {
        for await (const chunk of audio) got.push(...chunk);
      })().catch((e) => e);
      expect(got).toEqual([1, 2]);
      expect(error).toBeInstanceOf(RouterConnectionError);
      expect(error.retryable).toBe(true);
    });

    it('stops on abort with the AbortError, mid-stream and before the answer', async () => {
      router.handler = (_req, res) => {
        res.writeHead(200, { 'content-type': 'audio/pcm' });
        res.write(Buffer.from([1]));
      };
      const abort = new AbortController();
      const audio = await client.speech({ model: 'm/x', voice: 'v', input: 'Hi.' }, { signal: abort.signal });
      const iterator = audio[Symbol.asyncIterator]();
      await iterator.next();
      abort.abort();
      await expect(iterator.next()).rejects.toMatchObject({ name: 'AbortError' });

      router.handler = () => undefined; // never answers
      const early = new AbortController();
      const pending = client.speech({ model: 'm/x', voice: 'v', input: 'Hi.' }, { signal: early.signal });
      early.abort();
      await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    });

    it('releases the connection when the reader leaves the loop early', async () => {
      let closed!: () => void;
      const gone = new Promise<void>((r) => (closed = r));
      router.handler = (_req, res) => {
        res.writeHead(200, { 'content-type': 'audio/pcm' });
        res.write(Buffer.from([1]));
        res.on('close', () => closed());
      };
      const audio = await client.speech({ model: 'm/x', voice: 'v', input: 'Hi.' });
      for await (const _chunk of audio) break;
      await gone; // the server saw the client go: the test would time out otherwise
      expect(router.requests).toHaveLength(1);
    });
  });

  it('models() reads the catalogue without sending the key', async () => {
    const catalogue = { providers: [{ id: 'vendor_a', models: [] }] };
    router.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(catalogue));
    };
    expect(await client.models()).toEqual(catalogue);
    expect(router.requests[0].url).toBe('/v1/models');
    expect(router.requests[0].headers.authorization).toBeUndefined();
  });

  it('voices() sends provider and model as the query and returns the list', async () => {
    router.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ voices: [{ id: 'v1' }] }));
    };
    expect(await client.voices({ provider: 'vendor_c', model: 'c_model_1' })).toEqual({
      voices: [{ id: 'v1' }],
    });
    expect(await client.voices({ provider: 'vendor_a' })).toEqual({ voices: [{ id: 'v1' }] });
    expect(router.requests.map((r) => r.url)).toEqual([
      '/v1/voices?provider=vendor_c&model=c_model_1',
      '/v1/voices?provider=vendor_a',
    ]);
    expect(router.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('voices() rejects provider_key_missing as a RouterApiError', async () => {
    router.handler = (_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(ENVELOPE('provider_key_missing', 'No key stored for vendor_c', false));
    };
    await expect(client.voices({ provider: 'vendor_c' })).rejects.toMatchObject({
      code: 'provider_key_missing',
      httpStatus: 400,
    });
  });

  describe('providerKeys', () => {
    it('lists, puts and deletes with the right method, path and body', async () => {
      const view = { provider: 'vendor_c', last4: 'Zq9X', updated_at: '2026-01-01T00:00:00.000Z' };
      router.handler = (req, res) => {
        if (req.method === 'DELETE') {
          res.statusCode = 204;
          res.end();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(req.method === 'GET' ? [view] : view));
      };
      expect(await client.providerKeys.put('vendor_c', 'secret-Zq9X')).toEqual(view);
      expect(await client.providerKeys.list()).toEqual([view]);
      expect(await client.providerKeys.delete('vendor_c')).toBeUndefined();
      expect(router.requests.map((r) => [r.method, r.url, r.body])).toEqual([
        ['PUT', '/v1/provider-keys/vendor_c', JSON.stringify({ api_key: 'secret-Zq9X' })],
        ['GET', '/v1/provider-keys', ''],
        ['DELETE', '/v1/provider-keys/vendor_c', ''],
      ]);
      for (const req of router.requests) expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    });

    it('rejects a delete of a key that is not stored with not_found (404) and a 422 with its status', async () => {
      router.handler = (req, res) => {
        const missing = req.method === 'DELETE';
        res.writeHead(missing ? 404 : 422, { 'content-type': 'application/json' });
        res.end(
          missing
            ? ENVELOPE('not_found', 'No key is stored for vendor_b.', false)
            : ENVELOPE('bad_request', 'api_key must be a string of 1 to 512 characters', false),
        );
      };
      await expect(client.providerKeys.delete('vendor_b')).rejects.toMatchObject({
        code: 'not_found',
        httpStatus: 404,
      });
      await expect(client.providerKeys.put('vendor_b', '')).rejects.toMatchObject({
        code: 'bad_request',
        httpStatus: 422,
        message: expect.stringContaining('api_key'),
      });
    });
  });

  it('keeps a path prefix of the base URL', async () => {
    router.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('[]');
    };
    const prefixed = new RouterClient({ baseUrl: `${router.url}/router`, apiKey: KEY });
    await prefixed.providerKeys.list();
    expect(router.requests[0].url).toBe('/router/v1/provider-keys');
  });

  it('uses the fetch it is given', async () => {
    const seen: string[] = [];
    const custom = new RouterClient({
      baseUrl: 'http://router.invalid',
      apiKey: KEY,
      fetch: async (input) => {
        seen.push(input instanceof URL ? input.href : JSON.stringify(input));
        return new Response('[]', { status: 200, headers: { 'content-type': 'application/json' } });
      },
    });
    expect(await custom.providerKeys.list()).toEqual([]);
    expect(seen).toEqual(['http://router.invalid/v1/provider-keys']);
  });

  it('reports a router it cannot reach as a RouterConnectionError', async () => {
    const unreachable = new RouterClient({ baseUrl: 'http://127.0.0.1:1', apiKey: KEY });
    const error = await unreachable.models().catch((e) => e);
    expect(error).toBeInstanceOf(RouterConnectionError);
    expect(error.message).toBe('GET /v1/models failed');
  });

  it('refuses a base URL that is not http(s), and never shows the key when inspected', () => {
    expect(() => new RouterClient({ baseUrl: 'ftp://x', apiKey: KEY })).toThrow('http or https');
    expect(inspect(client, { depth: 5 })).not.toContain(KEY);
    expect(JSON.stringify(client)).not.toContain(KEY);
  });
});
