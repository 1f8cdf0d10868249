import { createHash, createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { sameSecret } from './same-secret';

/**
 * The gateway vouches for the caller's org to the apps behind it with this header: an HMAC under a secret only
 * the router's processes hold, over method, path, org, time and the SHA-256 of the request body as forwarded.
 * Apps refuse requests without a valid, fresh one whose body digest matches the bytes they read, so nothing that
 * bypasses the gateway is served, and a header captured on the internal network cannot carry another body.
 * The body digest (not a single-use cache) is what stops such a replay: it holds across every replica of an
 * app, where a per-process memory of used headers would not. Within the maximum age the same request can still
 * be replayed whole; the age is kept short for that.
 */
export const IDENTITY_HEADER = 'x-router-identity';
/**
 * The SHA-256 of the API key a forwarded request or socket came with (as stored in `api_keys.key_hash`), set by
 * the gateway on everything it forwards (a client's own is replaced or removed): the request log's key column.
 * It names a key, never opens one; it is not part of the signature, so nothing but the log may trust it.
 */
export const KEY_HASH_HEADER = 'x-router-key-hash';
const VERSION = 'v2';
/** Org id of requests the gateway lets through without a key (the catalogue, the OpenAPI document). */
export const ANONYMOUS_ORG = '-';

/** SHA-256 of a request body as sent on the wire (base64url), the form the identity header carries. */
export function digestBody(body: Uint8Array): string {
  const digester = bodyDigester();
  digester.update(body);
  return digester.digest();
}

/** `digestBody` over a body that arrives in chunks, for a reader that does not keep them. */
export function bodyDigester(): { update(chunk: Uint8Array): void; digest(): string } {
  const hash = createHash('sha256');
  return { update: (chunk) => void hash.update(chunk), digest: () => hash.digest('base64url') };
}

/** The digest of no body at all: GET requests and WebSocket upgrades. */
export const EMPTY_BODY_DIGEST = digestBody(new Uint8Array(0));

export interface IdentityClaims {
  method: string;
  /** The request target as forwarded: path and query. */
  path: string;
  orgId: string;
  /** `digestBody` of the body as forwarded; EMPTY_BODY_DIGEST without one. */
  bodyDigest: string;
}

export function signIdentity(claims: IdentityClaims, secret: string, nowMs: number): string {
  const ts = Math.floor(nowMs).toString(36);
  return `${VERSION}.${claims.orgId}.${ts}.${claims.bodyDigest}.${mac(claims, ts, secret)}`;
}

export interface IdentityFreshness {
  nowMs: number;
  /** How old a signature may be. */
  maxAgeMs: number;
  /** How far ahead of this host's clock a signature may be dated (another host's clock running fast). */
  maxFutureSkewMs: number;
}

export type IdentityCheck =
  | { ok: true; orgId: string; bodyDigest: string }
  | { ok: false; reason: 'missing' | 'malformed' | 'bad-signature' | 'expired' | 'from-the-future' };

/**
 * Checks the header against the request's method and path and the time. It does not see the body: the caller
 * compares `bodyDigest` with the digest of the bytes it read (see `bodyMatches`), once it has read them.
 */
export function verifyIdentity(
  header: string | string[] | undefined,
  request: { method: string; path: string },
  secret: string,
  freshness: IdentityFreshness,
): IdentityCheck {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return { ok: false, reason: 'missing' };
  const parts = value.split('.');
  if (parts.length !== 5 || parts[0] !== VERSION) return { ok: false, reason: 'malformed' };
  const [, orgId, ts, bodyDigest, signature] = parts as [string, string, string, string, string];
  const signedAt = parseInt(ts, 36);
  if (!orgId || !bodyDigest || !Number.isFinite(signedAt)) return { ok: false, reason: 'malformed' };
  if (!sameSecret(signature, mac({ ...request, orgId, bodyDigest }, ts, secret))) {
    return { ok: false, reason: 'bad-signature' };
  }
  if (freshness.nowMs - signedAt > freshness.maxAgeMs) return { ok: false, reason: 'expired' };
  if (signedAt - freshness.nowMs > freshness.maxFutureSkewMs) return { ok: false, reason: 'from-the-future' };
  return { ok: true, orgId, bodyDigest };
}

/** Whether the body an app read is the one the gateway signed (the digest travels in the signed header). */
export function bodyMatches(check: { bodyDigest: string }, body: Uint8Array): boolean {
  return sameSecret(digestBody(body), check.bodyDigest);
}

/**
 * The secret as a key object, made once per secret rather than on every request (a string key is converted
 * each time: ≈2 % of a hot hit's CPU in native-api). A process signs and checks with one secret; the last is kept.
 */
let lastKey: { secret: string; key: KeyObject } | undefined;
function keyOf(secret: string): KeyObject {
  if (lastKey?.secret !== secret) lastKey = { secret, key: createSecretKey(Buffer.from(secret, 'utf8')) };
  return lastKey.key;
}

function mac(claims: IdentityClaims, ts: string, secret: string): string {
  return createHmac('sha256', keyOf(secret))
    .update(`${claims.method.toUpperCase()}\n${claims.path}\n${claims.orgId}\n${ts}\n${claims.bodyDigest}`)
    .digest('base64url');
}
