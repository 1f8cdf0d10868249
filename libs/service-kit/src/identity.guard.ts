import { type CanActivate, type ExecutionContext, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Request } from 'express';
import {
  ANONYMOUS_ORG,
  bodyDigester,
  EMPTY_BODY_DIGEST,
  IDENTITY_HEADER,
  verifyIdentity,
} from '@router/auth';
import { RouterError } from '@router/contracts';
import { CLOCK, type Clock, IDENTITY_POLICY } from './tokens';

const PUBLIC = 'router:public';
const ANONYMOUS_ALLOWED = 'router:anonymous';
/** The refusal of anything the gateway did not sign for exactly this request. */
export const NOT_FROM_GATEWAY = 'This service only answers requests forwarded by the router gateway.';
/** The refusal of a request the gateway signed that reached this process too late to count as fresh. */
export const TOO_LATE = 'This router process was too busy to take the request in time; retry.';

/** What an app behind the gateway checks the gateway's identity header with. */
export interface IdentityPolicy {
  /** INTERNAL_SIGNING_SECRET. */
  secret: string;
  /** How old a signature may be; a replay after this is refused. */
  maxAgeMs: number;
  /** How far ahead of this host's clock a signature may be dated. */
  maxFutureSkewMs: number;
}

/** Health endpoints: reachable without the gateway (probes call the app directly). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC, true);
/** Routes the gateway forwards without an API key (still signed by the gateway). */
export const Anonymous = (): MethodDecorator & ClassDecorator => SetMetadata(ANONYMOUS_ALLOWED, true);

export interface IdentifiedRequest extends Request {
  orgId?: string;
}

type RequestHead = { method?: string; url?: string; headers: IncomingHttpHeaders };

/**
 * The org the gateway vouches for (ANONYMOUS_ORG on routes it forwards without a key) and the digest the body
 * must have, or undefined when the request lacks the gateway's fresh signature for its method and path. Every
 * way into an app behind the gateway checks it: the guard, the plain routes and the /v1/stream upgrade; each
 * then compares the digest with the bytes it read.
 */
export function vouchedFor(
  req: RequestHead,
  policy: IdentityPolicy,
  nowMs: number,
): { orgId: string; bodyDigest: string } | undefined {
  const check = verifyIdentity(
    req.headers[IDENTITY_HEADER],
    { method: req.method ?? 'GET', path: req.url ?? '/' },
    policy.secret,
    { nowMs, maxAgeMs: policy.maxAgeMs, maxFutureSkewMs: policy.maxFutureSkewMs },
  );
  return check.ok ? { orgId: check.orgId, bodyDigest: check.bodyDigest } : undefined;
}

/**
 * Why a request `vouchedFor` refused is refused. A signature of the gateway's that arrived after its freshness
 * bound means this process lagged behind (under load): the surface's retryable "unavailable", never an
 * authentication failure, which a client takes as final and would not retry. A replay is refused all the
 * same. Anything else was not signed by the gateway for this request: `NOT_FROM_GATEWAY`, 401.
 */
export function refusalOf(req: RequestHead, policy: IdentityPolicy, nowMs: number): RouterError {
  const check = verifyIdentity(
    req.headers[IDENTITY_HEADER],
    { method: req.method ?? 'GET', path: req.url ?? '/' },
    policy.secret,
    { nowMs, maxAgeMs: policy.maxAgeMs, maxFutureSkewMs: policy.maxFutureSkewMs },
  );
  return !check.ok && check.reason === 'expired'
    ? RouterError.unavailable(TOO_LATE)
    : RouterError.unauthorized(NOT_FROM_GATEWAY);
}

/** `vouchedFor` a request that has no body (a WebSocket upgrade): the org, or undefined. */
export function identifiedOrg(req: RequestHead, policy: IdentityPolicy, nowMs: number): string | undefined {
  const vouched = vouchedFor(req, policy, nowMs);
  return vouched?.bodyDigest === EMPTY_BODY_DIGEST ? vouched.orgId : undefined;
}

const wireDigests = new WeakMap<IncomingMessage, Promise<string | undefined>>();

/**
 * Express middleware, first in line: digests the request body as it arrives on the wire (before any body
 * parser inflates or decodes it; the gateway signed those bytes), without keeping it. Bodies no parser reads
 * are drained by it, which no route behind the gateway minds: the guard has to see a body whole before a
 * handler runs anyway.
 */
export function digestWireBody(req: IncomingMessage, _res: unknown, next: () => void): void {
  const digester = bodyDigester();
  wireDigests.set(
    req,
    new Promise((resolve) => {
      req.on('data', (chunk: Buffer) => digester.update(chunk));
      req.once('end', () => resolve(digester.digest()));
      // A body cut short has no digest to match (after 'end' this changes nothing); never rejects, as nobody
      // may be waiting.
      req.once('close', () => resolve(undefined));
    }),
  );
  next();
}

/** Every route of an app behind the gateway requires the gateway's fresh signature, unless marked public. */
@Injectable()
export class IdentityGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(IDENTITY_POLICY) private readonly policy: IdentityPolicy,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC, targets)) return true;
    const req = context.switchToHttp().getRequest<IdentifiedRequest>();
    const head = { method: req.method, url: req.originalUrl, headers: req.headers };
    const nowMs = this.clock.now();
    const vouched = vouchedFor(head, this.policy, nowMs);
    if (vouched === undefined) throw refusalOf(head, this.policy, nowMs);
    if ((await wireDigests.get(req)) !== vouched.bodyDigest) throw RouterError.unauthorized(NOT_FROM_GATEWAY);
    if (
      vouched.orgId === ANONYMOUS_ORG &&
      !this.reflector.getAllAndOverride<boolean>(ANONYMOUS_ALLOWED, targets)
    ) {
      throw RouterError.unauthorized();
    }
    req.orgId = vouched.orgId;
    return true;
  }
}
