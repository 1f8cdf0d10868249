import { request as httpRequest, type Server, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { Controller, Inject, Module, Post, Req, Res } from '@nestjs/common';
import type { INestApplication } from '@nestjs/common';
import type { Response } from 'express';
import { ANONYMOUS_ORG, digestBody, IDENTITY_HEADER, signIdentity } from '@router/auth';
import { RouterError } from '@router/contracts';
import { createLogger, Health } from '@router/observability';
import { composeModules, listeningPort, startHttpApp } from './bootstrap';
import type { IdentifiedRequest } from './identity.guard';
import { jsonObjectOf } from './json-object';
import { ServiceKitModule } from './service-kit.module';

const SECRET = 's'.repeat(32);
const PATH = '/v1/echo';
const LIMIT = 200;
const IDENTITY = { secret: SECRET, maxAgeMs: 2000, maxFutureSkewMs: 1000 };

/** Which way in served each request, and the route's work, shared by both ways as SpeechService.serve is. */
const served: Array<'plain' | 'nest'> = [];
function serve(via: 'plain' | 'nest', orgId: string, body: unknown, res: ServerResponse): Promise<void> {
  served.push(via);
  const { fail } = jsonObjectOf(body, 'the body');
  if (fail === 'refuse') throw RouterError.badRequest('field "voice": no such voice');
  if (fail === 'crash') throw new Error('an unexpected failure');
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ orgId, body }));
  return Promise.resolve();
}

const SERVE = 'SERVE';

@Controller(PATH.slice(1))
class EchoController {
  constructor(@Inject(SERVE) private readonly work: typeof serve) {}

  @Post()
  async echo(@Req() req: IdentifiedRequest, @Res() res: Response): Promise<void> {
    await this.work('nest', req.orgId ?? '', req.body, res);
  }
}

@Module({ controllers: [EchoController], providers: [{ provide: SERVE, useValue: serve }] })
class EchoModule {}

interface Answer {
  status: number;
  body: any;
}

describe('plain routes ahead of Express and Nest (loopback HTTP)', () => {
  let app: INestApplication;
  let port: number;
  const logs: string[] = [];

  beforeAll(async () => {
    const logger = createLogger({
      service: 'plain-route-test',
      level: 'info',
      destination: { write: (line: string) => void logs.push(line) },
    });
    app = await startHttpApp(
      composeModules('PlainRouteTest', [
        ServiceKitModule.forRoot({ logger, health: new Health('plain-route-test'), identity: IDENTITY }),
        EchoModule,
      ]),
      {
        logger,
        port: 0,
        host: '127.0.0.1',
        bodyLimitBytes: LIMIT,
        plainRoutes: {
          routes: [{ method: 'POST', path: PATH, serve: (org, body, res) => serve('plain', org, body, res) }],
          identity: IDENTITY,
          now: Date.now,
        },
      },
    );
    port = listeningPort(app);
  });

  afterAll(() => app.close());

  beforeEach(() => {
    served.length = 0;
    logs.length = 0;
  });

  /**
   * POSTs `body` as the gateway forwards it (signed for the org, path, method and body, or for `signedBody` as a
   * replay would be), with a declared length unless `chunked` (Node then sends it chunked, which the plain route
   * leaves to Nest).
   */
  function post(
    body: string | Buffer,
    options: {
      path?: string;
      chunked?: boolean;
      headers?: Record<string, string>;
      orgId?: string | null;
      signedBody?: string | Buffer;
    } = {},
  ): Promise<Answer> {
    const path = options.path ?? PATH;
    const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
    if (options.orgId !== null)
      headers[IDENTITY_HEADER] = signIdentity(
        {
          method: 'POST',
          path,
          orgId: options.orgId ?? 'org-1',
          bodyDigest: digestBody(Buffer.from(options.signedBody ?? body)),
        },
        SECRET,
        Date.now(),
      );
    if (!options.chunked) headers['content-length'] = String(Buffer.byteLength(body));
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
        });
      });
      req.on('error', reject);
      if (options.chunked) req.write(body);
      req.end(options.chunked ? undefined : body);
    });
  }

  it('serves a signed JSON request of declared length itself, with the org and the parsed body', async () => {
    const answer = await post(JSON.stringify({ text: 'hello' }));
    expect(answer).toEqual({ status: 200, body: { orgId: 'org-1', body: { text: 'hello' } } });
    expect(served).toEqual(['plain']);
  });

  it('logs one request line with the route, status and org, and nothing of the body', async () => {
    await post(JSON.stringify({ text: 'a sentence nobody may log' }));
    const lines = logs.map((line) => JSON.parse(line) as Record<string, unknown>);
    const requests = lines.filter((line) => line['msg'] === 'request');
    expect(requests).toEqual([
      expect.objectContaining({ orgId: 'org-1', method: 'POST', path: PATH, status: 200 }),
    ]);
    expect(logs.join('\n')).not.toContain('nobody may log');
  });

  it('leaves to Nest what it does not take exactly: a query, a chunked or compressed body, another type', async () => {
    const body = JSON.stringify({ text: 'hello' });
    const query = await post(body, { path: `${PATH}?x=1` });
    const chunked = await post(body, { chunked: true });
    const gzipped = await post(gzipSync(body), { headers: { 'content-encoding': 'gzip' } });
    const latin1 = await post(body, { headers: { 'content-type': 'application/json; charset=latin1' } });
    expect(served).toEqual(['nest', 'nest', 'nest']);
    for (const answer of [query, chunked, gzipped]) {
      expect(answer).toEqual({ status: 200, body: { orgId: 'org-1', body: { text: 'hello' } } });
    }
    // The body parser refuses a charset it cannot read, as bad input (it used to come out as internal).
    expect(latin1.status).toBe(400);
    expect(latin1.body.error).toEqual(expect.objectContaining({ code: 'bad_request' }));
    expect(latin1.body.error.message).toContain('charset');
  });

  it('leaves an unsigned, forged or anonymous request to the guard, which refuses it', async () => {
    const body = JSON.stringify({ text: 'hello' });
    const forged = signIdentity(
      { method: 'POST', path: PATH, orgId: 'org-1', bodyDigest: digestBody(Buffer.from(body)) },
      'f'.repeat(32),
      Date.now(),
    );
    const answers = [
      await post(body, { orgId: null }),
      await post(body, { orgId: null, headers: { [IDENTITY_HEADER]: forged } }),
      await post(body, { orgId: ANONYMOUS_ORG }),
    ];
    expect(answers.map((a) => [a.status, a.body.error.code])).toEqual([
      [401, 'unauthorized'],
      [401, 'unauthorized'],
      [401, 'unauthorized'],
    ]);
    expect(served).toEqual([]);
  });

  it('refuses a signature made for another body, both ways in, whatever the body type', async () => {
    const signedBody = JSON.stringify({ text: 'the body the gateway signed' });
    const body = JSON.stringify({ text: 'another body' });
    const answers = [
      await post(body, { signedBody }),
      await post(body, { signedBody, chunked: true }),
      await post(body, { signedBody, headers: { 'content-type': 'text/plain' } }),
      await post(gzipSync(body), {
        signedBody: gzipSync(signedBody),
        headers: { 'content-encoding': 'gzip' },
      }),
    ];
    expect(answers.map((a) => [a.status, a.body.error.code])).toEqual([
      [401, 'unauthorized'],
      [401, 'unauthorized'],
      [401, 'unauthorized'],
      [401, 'unauthorized'],
    ]);
    expect(served).toEqual([]);
    // A body no parser reads, signed for itself, passes: the guard digests what arrived, parsed or not.
    await post(body, { headers: { 'content-type': 'text/plain' } });
    expect(served).toEqual(['nest']);
  });

  it('leaves a body over the limit to the body parser, which refuses it with 413 naming the limit', async () => {
    const declared = await post(JSON.stringify({ text: 'x'.repeat(LIMIT) }));
    const chunked = await post(JSON.stringify({ text: 'x'.repeat(LIMIT) }), { chunked: true });
    for (const answer of [declared, chunked]) {
      expect(answer).toEqual({
        status: 413,
        body: {
          error: {
            code: 'bad_request',
            message: `The request body is larger than the limit of ${LIMIT} bytes.`,
            retryable: false,
          },
        },
      });
    }
    expect(served).toEqual([]);
  });

  it.each([
    ['JSON that does not parse', '{"text": ', []],
    ['a JSON value that is not an object', '"hello"', ['plain', 'nest']],
    ['a body of null', 'null', ['plain', 'nest']],
    ['a refusal of the route', JSON.stringify({ fail: 'refuse' }), ['plain', 'nest']],
    ['an unexpected failure of the route', JSON.stringify({ fail: 'crash' }), ['plain', 'nest']],
    ['a body behind a byte-order mark', `\uFEFF${JSON.stringify({ text: 'hello' })}`, ['plain', 'nest']],
  ])('answers %s exactly as Nest does', async (_case, body, reached) => {
    const plain = await post(body);
    const nest = await post(body, { chunked: true });
    expect(plain).toEqual(nest);
    expect(served).toEqual(reached);
  });

  it('tells a body that is JSON but not an object that it must be one, not that it is not JSON', async () => {
    for (const body of ['null', '[]', '42']) {
      expect(await post(body)).toEqual({
        status: 400,
        body: { error: { code: 'bad_request', message: 'the body must be a JSON object', retryable: false } },
      });
    }
  });

  it("logs a request its client cut while sending the body at info, and the router's own failure at error", async () => {
    const lines = () => logs.map((line) => JSON.parse(line) as Record<string, unknown>);
    const body = JSON.stringify({ text: 'a sentence cut short' });
    const headers = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      [IDENTITY_HEADER]: signIdentity(
        { method: 'POST', path: PATH, orgId: 'org-1', bodyDigest: digestBody(Buffer.from(body)) },
        SECRET,
        Date.now(),
      ),
    };
    // The cut comes once the server has the request, its body still on the way.
    const arrived = new Promise<void>((resolve) =>
      (app.getHttpServer() as Server).once('request', () => resolve()),
    );
    const cut = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: PATH, headers, agent: false });
    cut.on('error', () => undefined); // destroyed on purpose
    cut.write(body.slice(0, 10));
    await arrived;
    cut.destroy();
    await new Promise<void>((resolve, reject) => {
      const deadline = Date.now() + 10_000;
      const check = (): void => {
        if (lines().some((line) => line['msg'] === 'request cut by the client')) return resolve();
        if (Date.now() > deadline) return reject(new Error(`no cut logged: ${logs.join('')}`));
        setTimeout(check, 20);
      };
      check();
    });
    expect(lines().filter((line) => line['level'] === 'error')).toEqual([]);
    expect(logs.join('\n')).not.toContain('cut short');

    await post(JSON.stringify({ fail: 'crash' }));
    expect(lines().filter((line) => line['level'] === 'error')).toEqual([
      expect.objectContaining({ msg: 'request failed', path: PATH }),
    ]);
  });

  it('names the field in a refusal and hides an unexpected failure behind internal', async () => {
    const refused = await post(JSON.stringify({ fail: 'refuse' }));
    const crashed = await post(JSON.stringify({ fail: 'crash' }));
    expect(refused).toMatchObject({ status: 400, body: { error: { code: 'bad_request' } } });
    expect(refused.body.error.message).toContain('"voice"');
    expect(crashed).toMatchObject({ status: 500, body: { error: { code: 'internal' } } });
    expect(JSON.stringify(crashed.body)).not.toContain('unexpected failure');
    expect(served).toEqual(['plain', 'plain']);
  });
});
