import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether a secret a caller sent is the expected one, in time that depends on neither: both are hashed first,
 * so the comparison is of two 32-byte digests whatever their lengths (a plain `timingSafeEqual` needs equal
 * lengths, and a length check before it tells a caller how long the secret is). Every comparison of a secret
 * with what a request carries goes through here: the admin token, a CSRF token, a sign-in code's hash, an
 * internal identity's signature and the body digest it carries.
 */
export function sameSecret(given: string | Uint8Array, expected: string | Uint8Array): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

function digest(value: string | Uint8Array): Buffer {
  return createHash('sha256')
    .update(typeof value === 'string' ? Buffer.from(value, 'utf8') : value)
    .digest();
}
