import { createHash, randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'rtr_';
/** How much of a key is kept to tell keys apart in listings: the prefix plus 6 characters, useless alone. */
const SHOWN_LENGTH = API_KEY_PREFIX.length + 6;
const KEY_BODY = /^rtr_[A-Za-z0-9_-]{20,200}$/;

export interface IssuedApiKey {
  /** The whole key, shown once to whoever asked for it and never stored. */
  key: string;
  prefix: string;
  keyHash: string;
}

export function issueApiKey(): IssuedApiKey {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { key, prefix: key.slice(0, SHOWN_LENGTH), keyHash: hashApiKey(key) };
}

/** SHA-256 of the whole key: API keys are long random strings, so an unkeyed hash cannot be reversed. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** A cheap shape check before any lookup, so junk never reaches the key directory. */
export function looksLikeApiKey(value: string): boolean {
  return KEY_BODY.test(value);
}

/** The key from `Authorization: Bearer rtr_…`, or undefined when the header is absent or another scheme. */
export function readBearer(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(value);
  return match?.[1];
}
