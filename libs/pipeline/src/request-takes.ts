import { randomBytes } from 'node:crypto';
import { type CacheKeySecret, requestCacheKey, requestSealKey, sentenceTextKey } from '@router/cache-keys';
import type { SynthRequestTake } from '@router/contracts';
import {
  type DropInKeying,
  type DropInRequest,
  FORWARDED_REQUEST_HEADERS,
  pickHeaders,
  type VendorMirror,
} from '@router/vendors-core';
import type { StoredSettings } from './stored-settings';

export interface RequestTakePlannerDeps {
  /** The server secret piece keys are HMACed with (`CACHE_KEY_SECRET`). */
  secret: CacheKeySecret;
  storedSettings: StoredSettings;
}

/**
 * Turns a drop-in REST/SSE request into its whole-request take (spec "What is cached": same body again, same
 * audio) for `PieceResolver.resolveRequest`. The mirror's `DropInWire` says whether it is cached, its
 * canonical form and the request headers that enter its key; the key is `requestCacheKey` of that form with
 * those headers and the fingerprint of any stored settings it names. A request that is never cached gets a key
 * of its own (random), so it is neither looked up nor shared with another in flight: each one reaches the
 * vendor (a voice added twice is added twice).
 */
export class RequestTakePlanner {
  constructor(private readonly deps: RequestTakePlannerDeps) {}

  /**
   * `orgCaches`: the org's cache switch (false at retention 0). `keying`: the wire's keying of the request, where
   * the caller has it already (the mirror reads the request log's labels from it).
   */
  async plan(
    orgId: string,
    mirror: Pick<VendorMirror, 'vendor' | 'dropIn'>,
    request: DropInRequest,
    orgCaches: boolean,
    keying: DropInKeying = mirror.dropIn.keying(request),
  ): Promise<SynthRequestTake> {
    const { vendor, dropIn } = mirror;
    const keyed = pickHeaders(request.headers, dropIn.headers.keyed);
    const wire = {
      method: request.method,
      path: request.path,
      query: request.query,
      // What the vendor reads goes with the request: the body's type and the keyed and sent headers.
      headers: {
        ...pickHeaders(request.headers, [...FORWARDED_REQUEST_HEADERS, ...(dropIn.headers.sent ?? [])]),
        ...keyed,
      },
      body: Buffer.from(request.body).toString('base64'),
    };
    if (!keying.cacheable) {
      return {
        orgId,
        cacheKey: randomBytes(32).toString('hex'),
        vendor,
        request: wire,
        chars: 0,
        cache: false,
      };
    }
    const stored = orgCaches
      ? await this.deps.storedSettings.resolveReferences(orgId, vendor, keying.stored)
      : { fingerprint: null, cacheable: false };
    const { method, path, query, body } = keying.canonical;
    const material = {
      orgId,
      vendor,
      method,
      path,
      query,
      body,
      headers: keyed,
      storedSettingsFingerprint: stored.fingerprint,
    };
    return {
      orgId,
      cacheKey: requestCacheKey(this.deps.secret, material),
      sealKey: requestSealKey(this.deps.secret, material),
      vendor,
      request: wire,
      chars: keying.chars,
      cache: orgCaches && stored.cacheable,
      ...(keying.text === undefined
        ? {}
        : { textKey: sentenceTextKey(this.deps.secret, { orgId, text: keying.text }) }),
    };
  }
}
