import { createHash, createHmac, randomBytes, randomInt } from 'node:crypto';
import { sameSecret } from './same-secret';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * The dashboard's sign-in cookie. The gateway reads only its presence (to let a provider-key request with it
 * through to the app, which checks it); the apps behind check the session it names.
 */
export const SESSION_COOKIE = 'rtr_session';
/** The header that carries a session's CSRF token on every request that changes something. */
export const CSRF_HEADER = 'x-csrf-token';

/**
 * The sign-in cookie as an OpenAPI security scheme, named `session` in every surface's OpenAPI part that has
 * endpoints taking it (the dashboard's `/api/...`, native's provider-key endpoints), alike in each.
 */
export const SESSION_SECURITY_SCHEME = {
  type: 'apiKey',
  in: 'cookie',
  name: SESSION_COOKIE,
  description:
    'The dashboard sign-in cookie (POST /api/session). Requests that change something also send the ' +
    `session's CSRF token as ${CSRF_HEADER}.`,
} as const;

const SESSION_TOKEN = /^[A-Za-z0-9_-]{43}$/;
/** Crockford's base32: no I, L, O or U, so a code read aloud or retyped is not mistaken. */
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODE_LENGTH = 15;

/** A new session's token (256 random bits): the cookie's value, never stored (only its hash is). */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * A one-time sign-in code, `XXXXX-XXXXX-XXXXX` (75 random bits): far too many to guess, so an unkeyed hash of
 * it is as safe to store as an API key's. (A password, chosen by a person, would need a slow, memory-hard hash.)
 */
export function newSignInCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5, 10)}-${code.slice(10)}`;
}

/** A code as typed (any case, spaces or dashes anywhere, `O` for zero, `I`/`L` for one) in its one form. */
export function normalizeSignInCode(typed: string): string | undefined {
  const plain = typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (plain.length !== CODE_LENGTH || [...plain].some((c) => !CODE_ALPHABET.includes(c))) return undefined;
  return `${plain.slice(0, 5)}-${plain.slice(5, 10)}-${plain.slice(10)}`;
}

/** SHA-256 of a session token or sign-in code (both random and long), hex. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function looksLikeSessionToken(value: string): boolean {
  return SESSION_TOKEN.test(value);
}

/**
 * The session's CSRF token: derived from the cookie's token, so the server keeps nothing for it, and readable
 * only by the dashboard's own pages (it is in the sign-in answer and `GET /api/session`, which a page of
 * another site cannot read). A forged cross-site request carries the cookie but cannot know this.
 */
export function csrfTokenFor(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('router dashboard csrf v1').digest('base64url');
}

/** Whether `given` is the session's CSRF token, compared in constant time. */
export function csrfTokenMatches(sessionToken: string, given: string | string[] | undefined): boolean {
  if (typeof given !== 'string') return false;
  return sameSecret(given, csrfTokenFor(sessionToken));
}

/**
 * The session token from a request's cookies, or undefined. A cookie sent twice (a second one planted for a
 * narrower path or a parent domain) makes the session ambiguous, so neither is used.
 */
export function readSessionCookie(headers: IncomingHttpHeaders): string | undefined {
  const found: string[] = [];
  for (const part of (headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) found.push(part.slice(eq + 1).trim());
  }
  const [token] = found;
  return found.length === 1 && token !== undefined && looksLikeSessionToken(token) ? token : undefined;
}

/** Whether a request carries a session cookie at all (what the gateway looks at, nothing more). */
export function hasSessionCookie(headers: IncomingHttpHeaders): boolean {
  return (headers.cookie ?? '').split(';').some((part) => part.trim().startsWith(`${SESSION_COOKIE}=`));
}

export interface SessionCookieOptions {
  /** Seconds until the browser drops it: the session's own expiry. 0 clears it. */
  maxAgeSeconds: number;
  /** Set when the page was reached over TLS: the browser then never sends the cookie over plain HTTP. */
  secure: boolean;
}

/**
 * The `Set-Cookie` value: HTTP-only (no script reads it), SameSite=Strict (no other site's page makes the
 * browser send it), for every path (the dashboard's `/api/...` and `/v1/provider-keys` both take it).
 */
export function sessionCookie(token: string, options: SessionCookieOptions): string {
  return [
    `${SESSION_COOKIE}=${token}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`,
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}
