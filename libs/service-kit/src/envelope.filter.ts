import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Inject } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Logger } from '@router/observability';
import { RouterError } from '@router/contracts';
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
    const error = this.toRouterError(exception);
    if (error.code === 'internal') {
      this.logger.error({ err: exception, path: req.path, method: req.method }, 'request failed');
    }
    if (res.headersSent) {
      // Audio has started: the only honest signal left is to abort the body.
      res.destroy(error);
      return;
    }
    res.status(error.status).json(error.toEnvelope());
  }

  private toRouterError(exception: unknown): RouterError {
    if (exception instanceof RouterError) return exception;
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404) return new RouterError('not_found', 'No such route.');
      if (status === 413) return RouterError.badRequest('The request body is too large.');
      if (status >= 400 && status < 500) {
        const message = exception.message.includes('JSON')
          ? 'The request body must be valid JSON.'
          : exception.message;
        return RouterError.badRequest(message);
      }
    }
    return RouterError.internal(exception);
  }
}
