import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Inject } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import type { Logger } from '@router/observability';
import { RouterError } from '@router/contracts';
import { logRequestFailure } from './client-left';
import { LOGGER } from './tokens';

/**
 * Every error of a native route leaves as the spec's envelope. Nest's own HTTP errors (unknown route,
 * malformed JSON) are mapped onto the nearest code; anything unexpected is `internal` and logged.
 */
@Catch()
export class EnvelopeExceptionFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const req = host.switchToHttp().getRequest<Request>();
    sendError(res, this.toRouterError(exception), {
      logger: this.logger,
      method: req.method,
      path: req.path,
      exception,
    });
  }

  private toRouterError(exception: unknown): RouterError {
    if (exception instanceof RouterError) return exception;
    const status = clientErrorStatus(exception);
    if (status === 404) return new RouterError('not_found', 'No such route.');
    // The spec's error table has no code of its own for 413: `bad_request`, keeping the HTTP status.
    if (status === 413) {
      const { limit } = exception as { limit?: unknown };
      return RouterError.badRequest(
        typeof limit === 'number'
          ? `The request body is larger than the limit of ${limit} bytes.`
          : 'The request body is too large.',
        413,
      );
    }
    if (status !== undefined && status >= 400 && status < 500) {
      const message = (exception as Error).message;
      return RouterError.badRequest(
        message.includes('JSON') ? 'The request body must be valid JSON.' : message,
      );
    }
    return RouterError.unexpected(exception);
  }
}

/**
 * The status of an error the client caused: Nest's HTTP errors, and the ones the body parser raises before
 * Nest (a body too large, a charset it cannot read), which carry their status and may show their message.
 */
function clientErrorStatus(exception: unknown): number | undefined {
  if (exception instanceof HttpException) return exception.getStatus();
  if (!(exception instanceof Error)) return undefined;
  const { status, expose } = exception as { status?: unknown; expose?: unknown };
  return expose === true && typeof status === 'number' ? status : undefined;
}

/**
 * Answers a failed request with the envelope (an unexpected error is logged as `internal`, at error unless
 * the client had left), or aborts the body when audio has started: the only honest signal left then. The one
 * way errors leave an HTTP route, through Nest's filter or a plain route.
 */
export function sendError(
  res: ServerResponse,
  error: RouterError,
  context: { logger: Logger; method: string | undefined; path: string; exception: unknown },
): void {
  const { logger, method, path, exception } = context;
  if (error.code === 'internal') {
    logRequestFailure(logger, res, exception, { path, method }, 'request failed');
  }
  if (res.headersSent) {
    cutBody(res, error);
    return;
  }
  const body = JSON.stringify(error.toEnvelope());
  res.writeHead(error.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    // Something out of reach for now (the database in an outage): when to try again.
    ...(error.code === 'unavailable' ? { 'retry-after': '1' } : {}),
  });
  res.end(body);
}

/** How long a cut body's last writes may take to leave before the connection is dropped all the same. */
const CUT_FLUSH_MS = 5000;

/**
 * Ends a response whose body failed after its head: what was written still leaves, then the connection closes
 * without the body's end (no final chunk, or short of its length), the only honest signal left. A bare
 * `res.destroy()` drops what the socket still holds, and a response's first writes wait, corked, for the next
 * tick: a failure in the same tick as the head cut the connection before the head, so the client saw no
 * answer at all instead of a 200 whose body broke off. A client that stopped reading does not keep the
 * connection past CUT_FLUSH_MS.
 */
export function cutBody(res: ServerResponse, failure: Error): void {
  const socket = res.socket;
  if (!res.headersSent || !socket || socket.destroyed) {
    res.destroy(failure);
    return;
  }
  const drop = setTimeout(() => res.destroy(failure), CUT_FLUSH_MS);
  drop.unref();
  socket.end(() => {
    clearTimeout(drop);
    res.destroy(failure);
  });
}
