import { type CanActivate, type ExecutionContext, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { IncomingHttpHeaders } from 'node:http';
import type { Request } from 'express';
import { ANONYMOUS_ORG, IDENTITY_HEADER, verifyIdentity } from '@router/auth';
import { RouterError } from '@router/contracts';
import { CLOCK, type Clock, SIGNING_SECRET } from './tokens';

const PUBLIC = 'router:public';
const ANONYMOUS_ALLOWED = 'router:anonymous';
/** How old a gateway signature may be; a replay after this is refused. */
export const IDENTITY_MAX_AGE_MS = 5000;

/** Health endpoints: reachable without the gateway (probes call the app directly). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC, true);
/** Routes the gateway forwards without an API key (still signed by the gateway). */
export const Anonymous = (): MethodDecorator & ClassDecorator => SetMetadata(ANONYMOUS_ALLOWED, true);

export interface IdentifiedRequest extends Request {
  orgId?: string;
}

/**
 * The org the gateway vouches for (ANONYMOUS_ORG on routes it forwards without a key), or undefined when the
 * request lacks the gateway's fresh signature for its method and path. Every way into an app behind the
 * gateway checks it here: the guard, the plain routes and the /v1/stream upgrade.
 */
export function identifiedOrg(
  req: { method?: string; url?: string; headers: IncomingHttpHeaders },
  secret: string,
  nowMs: number,
): string | undefined {
  const check = verifyIdentity(
    req.headers[IDENTITY_HEADER],
    { method: req.method ?? 'GET', path: req.url ?? '/' },
    secret,
    { nowMs, maxAgeMs: IDENTITY_MAX_AGE_MS },
  );
  return check.ok ? check.orgId : undefined;
}

/** Every route of an app behind the gateway requires the gateway's fresh signature, unless marked public. */
@Injectable()
export class IdentityGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(SIGNING_SECRET) private readonly secret: string,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC, targets)) return true;
    const req = context.switchToHttp().getRequest<IdentifiedRequest>();
    const orgId = identifiedOrg(
      { method: req.method, url: req.originalUrl, headers: req.headers },
      this.secret,
      this.clock.now(),
    );
    if (orgId === undefined) {
      throw RouterError.unauthorized('This service only answers requests forwarded by the router gateway.');
    }
    if (orgId === ANONYMOUS_ORG && !this.reflector.getAllAndOverride<boolean>(ANONYMOUS_ALLOWED, targets)) {
      throw RouterError.unauthorized();
    }
    req.orgId = orgId;
    return true;
  }
}
