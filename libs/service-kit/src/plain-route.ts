import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { ANONYMOUS_ORG, bodyMatches } from '@router/auth';
import { RouterError } from '@router/contracts';
import type { Logger } from '@router/observability';
import { clientLeft } from './client-left';
import { sendError } from './envelope.filter';
import { type IdentityPolicy, NOT_FROM_GATEWAY, vouchedFor } from './identity.guard';

/**
 * A route served straight from the HTTP server, ahead of Express and Nest, for the one request on the audio's
 * critical path (a speech request): their layers cost ≈0.2 ms of its time to first audio and of native-api's
 * CPU (docs/performance.md, "The plain speech route"). Its Nest controller stays, documented in the OpenAPI
 * document and calling the same `serve`: a request the plain route does not take exactly falls through to it,
 * so both ways answer alike. Nest's global enhancers do not see a plain route's requests: the guard and the
 * filter have their plain counterparts here; an interceptor or pipe added later would need one too.
 */
export interface PlainRoute {
  method: string;
  /** The whole request target: a request with a query string falls through to Nest. */
  path: string;
  /** Serves an org's request with its parsed JSON body; a throw before the response head is the envelope. */
  serve(orgId: string, body: unknown, res: ServerResponse): Promise<void>;
}

export interface PlainRoutesOptions {
  routes: readonly PlainRoute[];
  identity: IdentityPolicy;
  now: () => number;
  logger: Logger;
  /** The same limit as the JSON body parser's: a longer declared body falls through to its refusal. */
  bodyLimitBytes: number;
}

const JSON_TYPE = /^application\/json\s*(;\s*charset=("?)utf-8\2\s*)?$/i;

/**
 * Puts the plain routes in front of the server's request listeners (Express). A plain route takes a request
 * only when everything Nest would check is plain: its method and exact path, the gateway's fresh signature
 * for a keyed org, an uncompressed JSON body (UTF-8) of declared length within the limit. Anything else
 * (unsigned, chunked, compressed, too long, another type) goes on to Express, where the guard, the body
 * parser and the envelope filter answer it as they answer every route.
 */
export function servePlainRoutes(server: Server, options: PlainRoutesOptions): void {
  const routes = new Map(options.routes.map((route) => [`${route.method} ${route.path}`, route]));
  serveInFront(server, (req, res) => {
    const route = routes.get(`${req.method ?? ''} ${req.url ?? ''}`);
    const vouched =
      route && takes(req, options) ? vouchedFor(req, options.identity, options.now()) : undefined;
    if (!route || vouched === undefined || vouched.orgId === ANONYMOUS_ORG) return false;
    logWhenFinished(options.logger, req, res, () => ({ orgId: vouched.orgId, path: route.path }));
    void answer(route, vouched, req, res, options.logger);
    return true;
  });
}

/**
 * Puts a handler ahead of a Nest app's HTTP server listeners (Express): a request it does not take (it
 * answers false) goes on to them.
 */
export function serveInFront(
  server: Server,
  take: (req: IncomingMessage, res: ServerResponse) => boolean,
): void {
  const behind = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  // Nest's adapter creates the server with Express as its listener; without one, nothing would answer the rest.
  if (behind.length === 0) throw new Error('a handler in front needs the HTTP server of a created Nest app');
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (take(req, res)) return;
    for (const listener of behind) listener.call(server, req, res);
  });
}

function takes(req: IncomingMessage, options: PlainRoutesOptions): boolean {
  const length = Number(req.headers['content-length']);
  const encoding = req.headers['content-encoding'];
  return (
    JSON_TYPE.test(req.headers['content-type'] ?? '') &&
    (encoding === undefined || encoding.toLowerCase() === 'identity') &&
    req.headers['transfer-encoding'] === undefined &&
    Number.isInteger(length) &&
    length > 0 &&
    length <= options.bodyLimitBytes
  );
}

async function answer(
  route: PlainRoute,
  vouched: { orgId: string; bodyDigest: string },
  req: IncomingMessage,
  res: ServerResponse,
  logger: Logger,
): Promise<void> {
  try {
    const bytes = await readWhole(req);
    // The gateway's signature covers the body: a captured header replayed with another body is not its own.
    if (!bodyMatches(vouched, bytes)) throw RouterError.unauthorized(NOT_FROM_GATEWAY);
    const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
    let body: unknown;
    try {
      // Any JSON value, as the JSON body parser takes it: the route says what it must be (jsonObjectOf).
      body = JSON.parse(text);
    } catch {
      throw RouterError.badRequest('The request body must be valid JSON.');
    }
    await route.serve(vouched.orgId, body, res);
  } catch (exception) {
    const error = RouterError.unexpected(exception);
    sendError(res, error, { logger, method: req.method, path: route.path, exception });
  }
}

/** A request body of small declared length, whole; rejects if the client goes away before its end. */
export function readWhole(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => resolve(chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks)));
    req.once('error', reject);
    req.once('close', () => {
      if (!req.complete) reject(new Error('the client went away while sending its request'));
    });
  });
}

/**
 * One JSON line per request once its response has finished, or once its client cut it (at info too: clients
 * going away is normal traffic), with the gateway's request id and the caller's org. Only the route's path is
 * logged: queries and bodies can carry keys and text.
 */
export function logWhenFinished(
  logger: Logger,
  req: IncomingMessage,
  res: ServerResponse,
  describe: () => { orgId: string | undefined; path: string },
): void {
  const started = process.hrtime.bigint();
  const line = () => {
    const { orgId, path } = describe();
    return {
      requestId: req.headers['x-request-id'],
      orgId,
      method: req.method,
      path,
      status: res.statusCode,
      ms: Number(process.hrtime.bigint() - started) / 1e6,
    };
  };
  res.once('finish', () => logger.info(line(), 'request'));
  res.once('close', () => {
    if (clientLeft(res)) logger.info(line(), 'request cut by the client');
  });
}
