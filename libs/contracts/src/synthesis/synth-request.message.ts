import { check, type Checker } from '../core';

/**
 * A vendor drop-in request as the client sent it (spec: Vendor drop-ins), to be sent on verbatim with the
 * org's key. The body may hold sentence text: it goes to the worker only to be sent to the vendor.
 */
export interface DropInRequestWire {
  method: string;
  /** Under the vendor's API base, without the query. */
  path: string;
  /** Without the `?`; empty for none. */
  query: string;
  /** Only the request headers the vendor reads (`content-type`, `accept`, the wire's keyed ones), lower-case. */
  headers: Record<string, string>;
  /** The body bytes, base64. */
  body: string;
}

export const dropInRequestWire: Checker<DropInRequestWire> = check.object({
  method: check.string({ pattern: /^[A-Z]+$/ }),
  path: check.string({ pattern: /^\// }),
  query: check.string(),
  headers: check.record(check.string()),
  body: check.string({ pattern: /^[A-Za-z0-9+/]*={0,2}$/ }),
});

/** One whole-request take: a drop-in REST/SSE request, coalesced and cached whole under its key. */
export interface SynthRequestTake {
  orgId: string;
  /** `requestCacheKey` of the canonical request (libs/cache-keys): names the cache entry, coalesces takes. */
  cacheKey: string;
  vendor: string;
  request: DropInRequestWire;
  /** Characters the vendor synthesizes for it, for the usage counters. */
  chars: number;
  /** False when the answer must not be stored: a never-cached endpoint, retention 0, unreadable stored settings. */
  cache: boolean;
  /** Sent on by the worker that was asked, to the one making the key's take; never sent on again. */
  forwarded?: boolean;
  /**
   * `requestSealKey` of the request (hex): the stored answer is sealed with it, since an answer can echo the
   * request's text. Present whenever `cache` is.
   */
  sealKey?: string;
  /** The request's text as one sentence's key (`sentenceTextKey`), committed beside its entry for evictions. */
  textKey?: string;
}

export const synthRequestTake: Checker<SynthRequestTake> = check.object({
  orgId: check.string({ minLength: 1 }),
  cacheKey: check.string({ pattern: /^[0-9a-f]{64}$/ }),
  vendor: check.string({ minLength: 1 }),
  request: dropInRequestWire,
  chars: check.integer({ min: 0 }),
  cache: check.boolean(),
  forwarded: check.optional(check.boolean()),
  sealKey: check.optional(check.string({ pattern: /^[0-9a-f]{64}$/ })),
  textKey: check.optional(check.string({ pattern: /^[0-9a-f]{64}$/ })),
});

/**
 * The vendor's status and the response headers its drop-in wire passes on; sent before the first body chunk.
 * Stored without the wire's live-only headers.
 */
export interface ResponseHead {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
}

export const responseHead: Checker<ResponseHead> = check.object({
  status: check.integer({ min: 100, max: 599 }),
  headers: check.record(check.string()),
});

/** Sent after the last body chunk of an answer the vendor completed (refusals included). */
export interface SynthRequestTrailer {
  /** Whether this answer is now in the cache (never a refusal). */
  cached: boolean;
}

export const synthRequestTrailer: Checker<SynthRequestTrailer> = check.object({ cached: check.boolean() });
