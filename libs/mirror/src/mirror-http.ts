import type { IncomingMessage, ServerResponse } from 'node:http';
import { ANONYMOUS_ORG, bodyMatches } from '@router/auth';
import { RouterError } from '@router/contracts';
import type { Logger } from '@router/observability';
import { asRouterError, keyHashOf, type ReplyServices, RequestTally } from '@router/pipeline';
import {
  type IdentityPolicy,
  type JsonProblem,
  jsonValueProblem,
  cutBody,
  logRequestFailure,
  logWhenFinished,
  NOT_FROM_GATEWAY,
  readWhole,
  refusalOf,
  vouchedFor,
} from '@router/service-kit';
import {
  type DropInRequest,
  dropInServes,
  type MirrorReply,
  type MirrorRequest,
  requestLabels,
  type VendorMirror,
} from '@router/vendors-core';

export interface MirrorHttpOptions {
  mirror: VendorMirror;
  replies: ReplyServices;
  identity: IdentityPolicy;
  now: () => number;
  logger: Logger;
  /** The largest request body taken (the gateway holds bodies to the same limit). */
  maxRequestBodyBytes: number;
}

/**
 * A vendor's REST and HTTP-stream endpoints on its mirror: the request as its client sent it (the gateway has
 * taken the router key off and vouched for the org and the body) becomes a whole-request take, answered from
 * the cache or by the vendor with the org's stored key, streamed back as it arrives with the vendor's status
 * and headers. A path the vendor does not have, and every failure of the router's own, answer in the
 * vendor's shapes.
 */
export class MirrorHttp {
  private readonly prefix: string;

  constructor(private readonly options: MirrorHttpOptions) {
    this.prefix = `/${options.mirror.vendor}`;
  }

  /** Whether a request is the mirror's (its path under `/<vendor token>`); the rest is the app's own. */
  owns(req: IncomingMessage): boolean {
    const target = req.url ?? '/';
    return (
      target === this.prefix || target.startsWith(`${this.prefix}/`) || target.startsWith(`${this.prefix}?`)
    );
  }

  /**
   * A request refused before it is read (the app drains, the org is past a limit): the vendor's own shape for
   * a failure of that status, with `Retry-After` where the error says to retry.
   */
  refuse(req: IncomingMessage, res: ServerResponse, error: RouterError, retryAfterS = 1): void {
    const answer = this.options.mirror.access.fail(error.status, error.message, this.requestOf(req).request);
    if (error.retryable) res.setHeader('retry-after', String(retryAfterS));
    reply(res, answer);
  }

  private requestOf(req: IncomingMessage): { url: URL; request: MirrorRequest } {
    const url = new URL(req.url ?? '/', 'http://mirror');
    const request: MirrorRequest = {
      method: req.method ?? 'GET',
      path: url.pathname.slice(this.prefix.length) || '/',
      headers: req.headers,
      query: url.searchParams,
    };
    return { url, request };
  }

  serve(req: IncomingMessage, res: ServerResponse): void {
    const { url, request } = this.requestOf(req);
    const { access, dropIn } = this.options.mirror;
    const vouched = vouchedFor(req, this.options.identity, this.options.now());
    const orgId = vouched?.orgId;
    logWhenFinished(this.options.logger, req, res, () => ({ orgId, path: url.pathname }));
    if (!vouched || vouched.orgId === ANONYMOUS_ORG) {
      req.resume();
      const refused = vouched
        ? RouterError.unauthorized(NOT_FROM_GATEWAY)
        : refusalOf(req, this.options.identity, this.options.now());
      return this.refuse(req, res, refused);
    }
    // One request log row per vouched request, whatever its outcome, once its response is over; its model and
    // voice are the vendor's request's, once its body is read.
    const tally = new RequestTally();
    tally.settings({ vendor: this.options.mirror.vendor, model: '', voice: '' });
    res.once('close', () => {
      const row = tally.row(vouched.orgId, keyHashOf(req.headers), 'mirror_rest', res.statusCode);
      this.options.replies.requestLog.record(row);
    });
    if (!dropInServes(dropIn, request.method, request.path)) {
      req.resume();
      return reply(res, access.notFound(request));
    }
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > this.options.maxRequestBodyBytes) {
      req.resume();
      const limit = this.options.maxRequestBodyBytes;
      return reply(res, access.fail(413, `The request body is larger than ${limit} bytes.`, request));
    }
    void this.answer(vouched, request, url, req, res, tally).catch((error: unknown) => {
      const failure = asRouterError(error);
      tally.failed(failure.code);
      if (failure.code === 'internal') {
        // A client that left cancelled its take's stream: that is at info, the router's own failures at error.
        const fields = { orgId, path: url.pathname };
        logRequestFailure(this.options.logger, res, error, fields, 'mirror request failed');
      }
      if (res.headersSent) return void cutBody(res, failure);
      // Something out of reach for now (the database in an outage): the vendor's shape, and when to retry.
      if (failure.code === 'unavailable') res.setHeader('retry-after', '1');
      reply(res, access.fail(failure.status, failure.message, request));
    });
  }

  private async answer(
    vouched: { orgId: string; bodyDigest: string },
    request: MirrorRequest,
    url: URL,
    req: IncomingMessage,
    res: ServerResponse,
    tally: RequestTally,
  ): Promise<void> {
    const body = await readWhole(req);
    // The gateway's signature covers the body: a captured header replayed with another body is not its own.
    if (!bodyMatches(vouched, body)) throw RouterError.unauthorized(NOT_FROM_GATEWAY);
    const { replies, mirror } = this.options;
    const problem = jsonBodyProblem(body);
    if (problem) return reply(res, mirror.dropIn.invalidBody(problem, request));
    const sent = dropInRequest(request, url, body);
    const keying = mirror.dropIn.keying(sent);
    tally.settings({ vendor: mirror.vendor, ...requestLabels(mirror.dropIn, keying) });
    const days = await replies.retention.days(vouched.orgId);
    const take = await replies.requests.plan(vouched.orgId, mirror, sent, days > 0, keying);
    const answer = await replies.resolver.resolveRequest(take);
    // A whole request is one take: one "sentence" of the log, from the cache or not; a refusal speaks nothing.
    if (answer.status < 400 && take.chars > 0) tally.sentence(take.chars, answer.cached);
    const left = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) left.abort();
    });
    left.signal.addEventListener('abort', () => answer.cancel(), { once: true });
    res.writeHead(answer.status, answer.headers);
    for await (const chunk of answer.chunks) {
      if (left.signal.aborted) return;
      tally.audio();
      if (!res.write(chunk)) await drained(res, left.signal);
    }
    res.end();
  }
}

/**
 * What keeps a JSON body from being keyed (nesting past the client-JSON limit, a number `JSON.parse` read as
 * ±Infinity), checked before the vendor's keying or the canonical JSON walks it. A body that is not JSON is
 * the vendor's to refuse: it goes on, uncached.
 */
function jsonBodyProblem(body: Buffer): JsonProblem | undefined {
  if (body.length === 0) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  return jsonValueProblem(value);
}

function dropInRequest(request: MirrorRequest, url: URL, body: Buffer): DropInRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers[name] = value;
  }
  return { method: request.method, path: request.path, query: url.search.slice(1), headers, body };
}

function reply(res: ServerResponse, answer: MirrorReply): void {
  res.writeHead(answer.status, {
    ...answer.headers,
    'content-length': Buffer.byteLength(answer.body),
  });
  res.end(answer.body);
}

function drained(res: ServerResponse, left: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      left.removeEventListener('abort', done);
      resolve();
    };
    res.once('drain', done);
    left.addEventListener('abort', done, { once: true });
  });
}
