import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The gateway vouches for the caller's org to the apps behind it with this header: an HMAC over method,
 * path, org and time under a secret only the router's processes hold. Apps refuse requests without a
 * valid, fresh one, so nothing that bypasses the gateway is served.
 */
export const IDENTITY_HEADER = 'x-router-identity';
const VERSION = 'v1';
/** Org id of requests the gateway lets through without a key (the catalogue, the OpenAPI document). */
export const ANONYMOUS_ORG = '-';

export interface IdentityClaims {
  method: string;
  /** The request target as forwarded: path and query. */
  path: string;
  orgId: string;
}

export function signIdentity(claims: IdentityClaims, secret: string, nowMs: number): string {
  const ts = Math.floor(nowMs).toString(36);
  return `${VERSION}.${claims.orgId}.${ts}.${mac(claims, ts, secret)}`;
}

export type IdentityCheck =
  { ok: true; orgId: string } | { ok: false; reason: 'missing' | 'malformed' | 'bad-signature' | 'expired' };

export function verifyIdentity(
  header: string | string[] | undefined,
  request: { method: string; path: string },
  secret: string,
  options: { nowMs: number; maxAgeMs: number },
): IdentityCheck {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return { ok: false, reason: 'missing' };
  const parts = value.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION) return { ok: false, reason: 'malformed' };
  const [, orgId, ts, signature] = parts as [string, string, string, string];
  const signedAt = parseInt(ts, 36);
  if (!orgId || !Number.isFinite(signedAt)) return { ok: false, reason: 'malformed' };
  const expected = Buffer.from(mac({ ...request, orgId }, ts, secret));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return { ok: false, reason: 'bad-signature' };
  }
  // A little tolerance for clocks of separate hosts running slightly ahead.
  if (options.nowMs - signedAt > options.maxAgeMs || signedAt - options.nowMs > options.maxAgeMs) {
    return { ok: false, reason: 'expired' };
  }
  return { ok: true, orgId };
}

function mac(claims: IdentityClaims, ts: string, secret: string): string {
  return createHmac('sha256', secret)
    .update(`${claims.method.toUpperCase()}\n${claims.path}\n${claims.orgId}\n${ts}`)
    .digest('base64url');
}
