import { createHash, createHmac } from 'node:crypto';
import type { JsonValue, VendorId } from '@router/vendors-core';
import { canonicalJson } from './canonical-json';
import type { CanonicalSettings } from './canonical-settings';
import { collapseWhitespace } from '@router/text';

/**
 * The layout version of the hashed material. Raising it gives every piece and request a new key, i.e.
 * starts an empty cache (old entries age out under retention); do that whenever the material or the
 * canonical form changes meaning, never silently.
 */
export const CACHE_KEY_VERSION = 1;

/** The server secret the keys are HMACed with; as bytes or a UTF-8 string. */
export type CacheKeySecret = string | Uint8Array;

export interface PieceKeyInput {
  /** Defaults to `CACHE_KEY_VERSION`. */
  readonly keyVersion?: number;
  readonly orgId: string;
  readonly settings: CanonicalSettings;
  /** The piece's text as the client sent it; whitespace runs are collapsed here. */
  readonly text: string;
  /**
   * Keeps surfaces apart only where the spec says they do not share entries; left out (the default) for
   * every surface that shares (native HTTP, `/v1/stream`, the vendor_c/vendor_h/vendor_i WebSockets).
   */
  readonly surfaceFamily?: string | null;
  /**
   * A fingerprint of settings stored at the vendor under a name (a vendor_c voice's stored settings, an
   * unversioned dictionary), e.g. from `storedSettingsFingerprint`; left out where none apply.
   */
  readonly storedSettingsFingerprint?: string | null;
}

/**
 * The cache key of one piece: hex HMAC-SHA256 under the server secret of a stable JSON of the key
 * version, org, canonical settings (vendor, model, voice, language, speed, sample rate, format, options),
 * surface family, stored-settings fingerprint and the text after whitespace collapse. Case and
 * punctuation count. Keyed, so that a leaked index cannot be brute-forced back to short sentences; the
 * text goes nowhere but into the HMAC.
 */
export function pieceCacheKey(secret: CacheKeySecret, input: PieceKeyInput): string {
  const s = input.settings;
  return hmacHex(
    secret,
    canonicalJson({
      kind: 'piece',
      version: keyVersion(input.keyVersion),
      org: orgId(input.orgId),
      vendor: s.vendor,
      model: s.model,
      voice: s.voice,
      language: s.language,
      speed: s.speed,
      sampleRate: s.sampleRate,
      format: s.format,
      options: s.options,
      surfaceFamily: input.surfaceFamily ?? null,
      storedSettings: input.storedSettingsFingerprint ?? null,
      text: collapseWhitespace(input.text),
    }),
  );
}

/**
 * The key of a sentence whatever it was said with (vendor, voice, format, surface): hex HMAC-SHA256 under the
 * server secret of the key version, org and the text after whitespace collapse, in a domain of its own (never
 * equal to a piece or request key). The index keeps it beside each entry of the sentence, so an org can evict
 * every entry of one sentence at once; like the cache key it cannot be read back into the text.
 */
export function sentenceTextKey(secret: CacheKeySecret, input: { orgId: string; text: string }): string {
  return hmacHex(
    secret,
    canonicalJson({
      kind: 'sentence',
      version: CACHE_KEY_VERSION,
      org: orgId(input.orgId),
      text: collapseWhitespace(input.text),
    }),
  );
}

export interface RequestKeyInput {
  /** Defaults to `CACHE_KEY_VERSION`. */
  readonly keyVersion?: number;
  readonly orgId: string;
  readonly vendor: VendorId;
  /** Compared case-insensitively (`post` is `POST`). */
  readonly method: string;
  /** The path as the vendor's client sent it (without the query string); compared exactly. */
  readonly path: string;
  /**
   * Parsed query parameters. Parameter order does not count; the order of a repeated parameter's values
   * does. A single value and a one-value list are the same; `undefined` or `[]` is the same as absent.
   */
  readonly query?: Readonly<Record<string, string | readonly string[] | undefined>>;
  /**
   * A JSON body as parsed JSON (key order and formatting then do not count), any other body as its raw
   * bytes (compared byte for byte). Left out for a request without a body.
   */
  readonly body?: JsonValue | Uint8Array;
  /**
   * The request headers that change the vendor's answer (`DropInHeaders.keyed`), lower-case names, as sent;
   * left out or empty for none (so a vendor that keys no header has the keys it had before the field).
   */
  readonly headers?: Readonly<Record<string, string>>;
  /** As `PieceKeyInput.storedSettingsFingerprint`: settings stored at the vendor that the request names. */
  readonly storedSettingsFingerprint?: string | null;
}

/**
 * The cache key of a whole drop-in REST/SSE request (spec "What is cached": same body again, same audio):
 * hex HMAC-SHA256 under the server secret of the key version, org, vendor, method, path, canonical query,
 * canonical body, keyed request headers and stored-settings fingerprint. Never equal to a piece key for any input (the material names its kind).
 */
export function requestCacheKey(secret: CacheKeySecret, input: RequestKeyInput): string {
  return hmacHex(secret, requestMaterial('request', input));
}

/**
 * The key a whole request's stored answer is sealed with (`sealStored`): an answer can echo the request's
 * text (character timings), and the text is never stored readable. Derived from the whole request, text
 * included, under the server secret, in a domain of its own: neither the index (which holds the cache key)
 * nor the blob store can give it; only the same request again can.
 */
export function requestSealKey(secret: CacheKeySecret, input: RequestKeyInput): string {
  return hmacHex(secret, requestMaterial('request-seal', input));
}

function requestMaterial(kind: 'request' | 'request-seal', input: RequestKeyInput): string {
  return canonicalJson({
    kind,
    version: keyVersion(input.keyVersion),
    org: orgId(input.orgId),
    vendor: input.vendor,
    method: input.method.toUpperCase(),
    path: input.path,
    query: canonicalQuery(input.query ?? {}),
    body: bodyMaterial(input.body),
    ...(input.headers && Object.keys(input.headers).length > 0 ? { headers: { ...input.headers } } : {}),
    storedSettings: input.storedSettingsFingerprint ?? null,
  });
}

/**
 * A short fingerprint (hex SHA-256 of the canonical JSON) of settings stored at the vendor, for
 * `PieceKeyInput.storedSettingsFingerprint`. Key order does not count; any value change does.
 */
export function storedSettingsFingerprint(stored: JsonValue): string {
  return createHash('sha256').update(canonicalJson(stored), 'utf8').digest('hex');
}

function canonicalQuery(
  query: Readonly<Record<string, string | readonly string[] | undefined>>,
): Record<string, string[]> {
  const entries: [string, string[]][] = [];
  for (const [name, value] of Object.entries(query)) {
    const values = value === undefined ? [] : typeof value === 'string' ? [value] : [...value];
    if (values.length > 0) entries.push([name, values]);
  }
  return Object.fromEntries(entries);
}

function bodyMaterial(body: JsonValue | Uint8Array | undefined): JsonValue {
  if (body === undefined) return { type: 'none' };
  if (body instanceof Uint8Array) {
    return { type: 'bytes', sha256: createHash('sha256').update(body).digest('hex') };
  }
  return { type: 'json', value: body };
}

function keyVersion(version: number | undefined): number {
  const v = version ?? CACHE_KEY_VERSION;
  if (!Number.isSafeInteger(v) || v < 1) throw new RangeError('cache key version must be a positive integer');
  return v;
}

function orgId(org: string): string {
  // An empty org would silently make one cache for every caller that lost its org on the way.
  if (typeof org !== 'string' || org === '') throw new TypeError('cache key needs an org id');
  return org;
}

function hmacHex(secret: CacheKeySecret, material: string): string {
  const key = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret;
  // An empty key would make the keyed hash a bare one (ARCHITECTURE: "a keyed hash, not a bare one").
  if (key.length === 0) throw new TypeError('cache key secret must not be empty');
  return createHmac('sha256', key).update(material, 'utf8').digest('hex');
}
