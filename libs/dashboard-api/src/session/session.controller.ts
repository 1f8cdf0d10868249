import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Post,
  Req,
  Res,
  UseGuards,
  UsePipes,
} from '@nestjs/common';
import {
  ApiCookieAuth,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import {
  MEMBERS_SERVICE,
  type MembersService,
  SessionGuard,
  type SessionRequest,
  type SignedIn,
  normalizeEmail,
} from '@router/admin';
import { csrfTokenFor, sessionCookie } from '@router/auth';
import { RouterError } from '@router/contracts';
import type { PrismaClient } from '@router/db';
import { Anonymous, validationPipe } from '@router/service-kit';
import { PRISMA_CLIENT, SIGN_IN_LIMITER } from '../tokens';
import { SessionDto, SignInBody } from './session.dto';
import { type SignInLimiter, SignInRefused } from './sign-in-limits';

/**
 * Signing in and out. A sign-in sets the session cookie (HTTP-only, SameSite=Strict, Secure when the page came
 * over TLS); the answer carries the CSRF token the pages send with every change.
 */
@ApiTags('dashboard')
@Controller('api/session')
@Anonymous()
@UsePipes(validationPipe())
export class SessionController {
  constructor(
    @Inject(MEMBERS_SERVICE) private readonly members: MembersService,
    @Inject(PRISMA_CLIENT) private readonly prisma: PrismaClient,
    @Inject(SIGN_IN_LIMITER) private readonly limiter: SignInLimiter,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign in with an email address and a one-time code; sets the session cookie' })
  @ApiOkResponse({ type: SessionDto })
  @ApiTooManyRequestsResponse({
    description: 'Too many sign-ins for the address or from the client; Retry-After says when to try again',
  })
  async signIn(
    @Body() body: SignInBody,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SessionDto> {
    const address = normalizeEmail(body.email);
    try {
      this.limiter.admit(address, clientAddress(req));
    } catch (error) {
      if (error instanceof SignInRefused) res.setHeader('retry-after', String(error.retryAfterSeconds));
      throw error;
    }
    const { token, session } = await this.members.signIn(body.email, body.code);
    this.limiter.succeeded(address);
    res.setHeader(
      'set-cookie',
      sessionCookie(token, { maxAgeSeconds: secondsLeft(session), secure: cameOverTls(req) }),
    );
    return this.describe(session, token);
  }

  @Get()
  @UseGuards(SessionGuard)
  @ApiCookieAuth('session')
  @ApiOperation({ summary: 'The signed-in member, their org and the CSRF token; 401 when not signed in' })
  @ApiOkResponse({ type: SessionDto })
  current(@Req() req: SessionRequest): Promise<SessionDto> {
    return this.describe(signedIn(req), req.sessionToken ?? '');
  }

  @Delete()
  @HttpCode(204)
  @UseGuards(SessionGuard)
  @ApiCookieAuth('session')
  @ApiOperation({ summary: 'Sign out: ends the session and clears the cookie' })
  @ApiNoContentResponse()
  async signOut(@Req() req: SessionRequest, @Res({ passthrough: true }) res: Response): Promise<void> {
    await this.members.signOut(signedIn(req).sessionId);
    res.setHeader('set-cookie', sessionCookie('', { maxAgeSeconds: 0, secure: cameOverTls(req) }));
  }

  private async describe(session: SignedIn, token: string): Promise<SessionDto> {
    const org = await this.prisma.org.findUniqueOrThrow({ where: { id: session.orgId } });
    return {
      email: session.email,
      role: session.role,
      org: { id: org.id, name: org.name },
      csrf_token: csrfTokenFor(token),
      expires_at: session.expiresAt.toISOString(),
    };
  }
}

export function signedIn(req: SessionRequest): SignedIn {
  if (!req.session) throw RouterError.unauthorized('Not signed in: sign in to the dashboard first.');
  return req.session;
}

function secondsLeft(session: SignedIn): number {
  return (session.expiresAt.getTime() - Date.now()) / 1000;
}

/** The client's address as the gateway saw it (it sets `X-Forwarded-For` to its peer's), else this peer's. */
function clientAddress(req: Request): string {
  const forwarded = req.headers['x-forwarded-for'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
  return first || req.socket.remoteAddress || 'unknown';
}

/** Whoever ended TLS says so: the gateway's own TLS port, or a proxy in front of it (a client's own claim only affects its cookie). */
function cameOverTls(req: Request): boolean {
  const proto = req.headers['x-forwarded-proto'];
  return (Array.isArray(proto) ? proto[0] : proto)?.split(',')[0]?.trim().toLowerCase() === 'https';
}
