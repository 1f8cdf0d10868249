import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Request, Response } from 'express';
import { type Logger, PinoNestLogger } from '@router/observability';

export interface HttpAppOptions {
  logger: Logger;
  port: number;
  host?: string;
  /** Largest JSON body accepted; larger ones get `bad_request`. */
  bodyLimit?: string;
  /** Runs once the app's routes exist and before it listens (e.g. to build the OpenAPI document). */
  beforeListen?: (app: INestApplication) => void | Promise<void>;
}

/** A root module made of feature modules, as each app (and the standalone process) composes them. */
export function composeModules(name: string, imports: Array<Type | DynamicModule>): DynamicModule {
  const root = class {};
  Object.defineProperty(root, 'name', { value: name });
  return { module: root, imports };
}

/** Creates and starts one Nest HTTP app the same way for every service, standalone or alone. */
export async function startHttpApp(
  rootModule: Type | DynamicModule,
  options: HttpAppOptions,
): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(rootModule, {
    logger: new PinoNestLogger(options.logger),
    bufferLogs: false,
    bodyParser: true,
    abortOnError: false,
  });
  app.useBodyParser('json', { limit: options.bodyLimit ?? '1mb' });
  app.disable('x-powered-by');
  app.use(requestLog(options.logger));
  await options.beforeListen?.(app);
  await app.listen(options.port, options.host ?? '0.0.0.0');
  return app;
}

/** The port an app actually listens on (ports of 0 are chosen by the OS, as in tests). */
export function listeningPort(app: INestApplication): number {
  const address = (app.getHttpServer() as import('node:http').Server).address();
  if (address === null || typeof address === 'string') throw new Error('The app is not listening on TCP');
  return address.port;
}

const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * One JSON line per request with the gateway's request id and the caller's org. Only the path is logged:
 * queries and bodies can carry keys and text.
 */
function requestLog(logger: Logger) {
  return (req: Request & { orgId?: string }, res: Response, next: () => void): void => {
    if (PROBES.has(req.path)) return next();
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      logger.info(
        {
          requestId: req.headers['x-request-id'],
          orgId: req.orgId,
          method: req.method,
          path: req.route ? `${req.baseUrl}${(req.route as { path: string }).path}` : req.path,
          status: res.statusCode,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
        },
        'request',
      );
    });
    next();
  };
}
