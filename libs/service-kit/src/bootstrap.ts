import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Request, Response } from 'express';
import { type Logger, PinoNestLogger } from '@router/observability';
import { type Drain, gateRequests, refuseDraining } from './drain';
import { digestWireBody } from './identity.guard';
import { logWhenFinished, type PlainRoutesOptions, servePlainRoutes } from './plain-route';

export interface HttpAppOptions {
  logger: Logger;
  port: number;
  host?: string;
  /** Largest JSON body accepted, in bytes; larger ones get `bad_request` with HTTP 413. Default 1 MiB. */
  bodyLimitBytes?: number;
  /** Routes served ahead of Express and Nest (see PlainRoute), with what they check the gateway's identity with. */
  plainRoutes?: Omit<PlainRoutesOptions, 'logger' | 'bodyLimitBytes'>;
  /** Runs once the app's routes exist and before it listens (e.g. to build the OpenAPI document). */
  beforeListen?: (app: INestApplication) => void | Promise<void>;
  /**
   * The app's drain: while it drains, every request but the probes is refused with `refuseDraining` (by
   * default the native envelope's 503 `unavailable`), and the others are counted until answered.
   */
  drain?: Drain;
  refuseDraining?: (
    req: import('node:http').IncomingMessage,
    res: import('node:http').ServerResponse,
  ) => void;
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
  const bodyLimitBytes = options.bodyLimitBytes ?? 1024 * 1024;
  // Ahead of the body parser, which would hand the guard the body decoded rather than as the gateway signed it.
  app.use(digestWireBody);
  // Not strict: any JSON value is parsed, so that a body of `null` or `[]` is told it must be an object by
  // whatever reads it (jsonObjectOf), not that it is not JSON.
  app.useBodyParser('json', { limit: bodyLimitBytes, strict: false });
  app.disable('x-powered-by');
  app.use(requestLog(options.logger));
  if (options.plainRoutes) {
    servePlainRoutes(app.getHttpServer(), {
      ...options.plainRoutes,
      logger: options.logger,
      bodyLimitBytes,
    });
  }
  await options.beforeListen?.(app);
  if (options.drain) {
    gateRequests(app.getHttpServer(), options.drain, options.refuseDraining ?? refuseDraining);
  }
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

/** The request log of every Nest route (the plain routes log the same line themselves). */
function requestLog(logger: Logger) {
  return (req: Request & { orgId?: string }, res: Response, next: () => void): void => {
    if (PROBES.has(req.path)) return next();
    logWhenFinished(logger, req, res, () => ({
      orgId: req.orgId,
      path: req.route ? `${req.baseUrl}${(req.route as { path: string }).path}` : req.path,
    }));
    next();
  };
}
