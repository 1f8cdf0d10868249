import { type CanActivate, type ExecutionContext, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { IncomingHttpHeaders } from 'node:http';
import {
  ANONYMOUS_ORG,
  CSRF_HEADER,
  csrfTokenMatches,
  originIsRequestHost,
  readSessionCookie,
} from '@router/auth';
import { RouterError } from '@router/contracts';
import type { IdentifiedRequest } from '@router/service-kit';
import type { MembersService, SignedIn } from './members.service';

export const MEMBERS_SERVICE = Symbol('MEMBERS_SERVICE');
const API_KEY_TOO = 'router:session-or-api-key';
const OWNERS_ONLY = 'router:owners-only';

/** Methods that change nothing: the only ones a session may use without its CSRF token. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface SessionRequest extends IdentifiedRequest {
  session?: SignedIn;
  /** The cookie's token, for what is derived from it (the CSRF token). */
  sessionToken?: string;
}

/**
 * The session a request's cookie names: 401 when there is none or it has expired, 403 for a request that
 * changes something without the session's CSRF token (a page of another site can make the browser send the
 * cookie, never the token).
 */
export async function authenticateSession(
  members: MembersService,
  req: { method?: string; headers: IncomingHttpHeaders },
): Promise<{ session: SignedIn; token: string }> {
  const token = readSessionCookie(req.headers);
  if (token === undefined) throw RouterError.unauthorized('Not signed in: sign in to the dashboard first.');
  const session = await members.session(token);
  if (!session) throw RouterError.unauthorized('The session has expired or was ended: sign in again.');
  if (!SAFE_METHODS.has(req.method ?? 'GET') && !csrfTokenMatches(token, req.headers[CSRF_HEADER])) {
    throw new RouterError(
      'forbidden',
      `A signed-in request that changes something must carry the session's ${CSRF_HEADER} header.`,
    );
  }
  return { session, token };
}

/**
 * The session a WebSocket handshake's cookie names (`/v1/stream` opened by the dashboard's playground), and the
 * org it speaks for. A browser cannot send the CSRF header on a handshake, but always sends `Origin`: one that
 * is missing or names another host than the one the handshake was sent to is refused with 403 (a page of
 * another site could otherwise speak, and spend, as the member). Then the session as on any request (401 when
 * missing or expired), and the org as the gateway checks a key's: 401 when disabled, 402 when out of credit.
 */
export async function authenticateSocketSession(
  members: MembersService,
  headers: IncomingHttpHeaders,
): Promise<SignedIn> {
  if (!originIsRequestHost(headers.origin, headers)) {
    const named = typeof headers.origin === 'string' ? ` (Origin: ${headers.origin})` : '';
    throw new RouterError(
      'forbidden',
      `Refused: a socket opened with a dashboard session must come from the router's own pages${named}.`,
    );
  }
  const { session } = await authenticateSession(members, { method: 'GET', headers });
  const standing = await members.orgStanding(session.orgId);
  if (!standing || standing.disabled) throw RouterError.unauthorized('The org is disabled.');
  if (standing.outOfCredit) throw RouterError.outOfCredit();
  return session;
}

/** Routes that take an API key (through the gateway) as well as a dashboard session. */
export const SessionOrApiKey = (): MethodDecorator & ClassDecorator => SetMetadata(API_KEY_TOO, true);

/**
 * Routes that only an org's owners may use with a session (members, vendor keys, retention, the cache); a
 * member gets 403. An API key, where the route takes one, speaks for the whole org.
 */
export const OwnersOnly = (): MethodDecorator & ClassDecorator => SetMetadata(OWNERS_ONLY, true);

/**
 * A dashboard session's org for the request (`req.orgId`, `req.session`), on routes the gateway forwards
 * without a key (`@Anonymous()`); with `@SessionOrApiKey()` an org the gateway vouched for by its key is
 * taken as it is. Runs after the identity guard, which has checked the gateway's signature.
 */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(MEMBERS_SERVICE) private readonly members: MembersService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<SessionRequest>();
    const keyAccepted = this.reflector.getAllAndOverride<boolean>(API_KEY_TOO, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (keyAccepted && req.orgId !== undefined && req.orgId !== ANONYMOUS_ORG) return true;
    const { session, token } = await authenticateSession(this.members, req);
    req.session = session;
    req.sessionToken = token;
    req.orgId = session.orgId;
    const ownersOnly = this.reflector.getAllAndOverride<boolean>(OWNERS_ONLY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (ownersOnly && session.role !== 'owner') {
      throw new RouterError(
        'forbidden',
        "Only an owner of the org can do this: ask one of the org's owners.",
      );
    }
    return true;
  }
}
