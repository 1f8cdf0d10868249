import { check, type Checker } from '../core';

/**
 * The vendor-native settings of one piece, as every surface resolves them (catalogue defaults filled in).
 * The vendor receives exactly these; the cache key is built from them.
 */
export interface SynthSettings {
  vendor: string;
  model: string;
  voice: string;
  language: string | null;
  speed: number | null;
  sampleRate: number;
  format: string;
  options: Record<string, unknown>;
}

export const synthSettings: Checker<SynthSettings> = check.object({
  vendor: check.string({ minLength: 1 }),
  model: check.string({ minLength: 1 }),
  voice: check.string({ minLength: 1 }),
  language: check.nullable(check.string({ minLength: 1 })),
  speed: check.nullable(check.number()),
  sampleRate: check.integer({ min: 1 }),
  format: check.string({ minLength: 1 }),
  options: check.record(check.unknown()),
});

/** One piece to synthesize. The text goes to the worker only to be sent to the vendor; it is never stored. */
export interface SynthTakeRequest {
  orgId: string;
  /** Keyed hash of the canonical request (libs/cache-keys): names the cache entry and coalesces takes. */
  cacheKey: string;
  settings: SynthSettings;
  text: string;
  /** False when the org's retention is 0 or the piece must not be cached yet (a dictionary used first). */
  cache: boolean;
  /** Sent on by the worker that was asked, to the one making the key's take; such a request is never sent on again. */
  forwarded?: boolean;
  /** The sentence's own key (`sentenceTextKey`), kept in the index so the org can evict the sentence's entries. */
  textKey?: string;
}

export const synthTakeRequest: Checker<SynthTakeRequest> = check.object({
  orgId: check.string({ minLength: 1 }),
  cacheKey: check.string({ pattern: /^[0-9a-f]{64}$/ }),
  settings: synthSettings,
  text: check.string({ minLength: 1 }),
  cache: check.boolean(),
  forwarded: check.optional(check.boolean()),
  textKey: check.optional(check.string({ pattern: /^[0-9a-f]{64}$/ })),
});

/** Sent before the first audio chunk. */
export interface SynthTakeHeader {
  contentType: string;
}

export const synthTakeHeader: Checker<SynthTakeHeader> = check.object({
  contentType: check.string({ minLength: 1 }),
});

/** Word timings as offsets into the piece's text (never the words themselves) with times in ms. */
export interface WordTiming {
  start: number;
  end: number;
  startMs: number;
  endMs: number;
}

export const wordTiming: Checker<WordTiming> = check.object({
  start: check.integer({ min: 0 }),
  end: check.integer({ min: 0 }),
  startMs: check.number({ min: 0 }),
  endMs: check.number({ min: 0 }),
});

/**
 * An error the vendor reported about a take it still spoke whole (a setting it could not apply and spoke
 * without): the listener gets it with the audio; such a take is never cached. `code` is the vendor's own.
 */
export interface TakeWarning {
  code?: string;
  message: string;
}

export const takeWarning: Checker<TakeWarning> = check.object({
  code: check.optional(check.string({ minLength: 1 })),
  message: check.string(),
});

/** Sent after the last chunk of a completed take. */
export interface SynthTakeTrailer {
  /** Word timings where the vendor gives them. */
  words: WordTiming[] | null;
  /** Each character's timing, where the vendor times characters (absent from a worker older than the field). */
  chars?: WordTiming[] | null;
  /** Whether this take is now in the cache (false at retention 0, or when the commit failed). */
  cached: boolean;
  /** The vendor's error about a take it still spoke (absent from a worker older than the field): never cached. */
  warning?: TakeWarning | null;
}

export const synthTakeTrailer: Checker<SynthTakeTrailer> = check.object({
  words: check.nullable(check.array(wordTiming)),
  chars: check.optional(check.nullable(check.array(wordTiming))),
  cached: check.boolean(),
  warning: check.optional(check.nullable(takeWarning)),
});

/** A worker announcing it is alive, so requesters route a key's takes to one worker (rendezvous hashing). */
export interface SynthWorkerHeartbeat {
  workerId: string;
  /**
   * The take subjects the worker serves besides `synth.take.v1` (`synth.request.v1`). Absent from a worker
   * older than the field: such a worker is asked for sentence takes only.
   */
  serves?: string[];
  /**
   * The worker is going away (it drains): requesters send it nothing new from now on; it still finishes its
   * takes and answers requests already addressed to it.
   */
  leaving?: boolean;
}

export const synthWorkerHeartbeat: Checker<SynthWorkerHeartbeat> = check.object({
  workerId: check.string({ pattern: /^[a-z0-9]{8,32}$/ }),
  serves: check.optional(check.array(check.string({ minLength: 1 }), { maxLength: 32 })),
  leaving: check.optional(check.boolean()),
});

/**
 * A requester interrupted a piece (the listener barged in): the worker stops the vendor call once nobody else
 * follows the take, so the piece is not cached. Sent to the worker the take was addressed to.
 */
export interface SynthStop {
  orgId: string;
  cacheKey: string;
  cache: boolean;
}

export const synthStop: Checker<SynthStop> = check.object({
  orgId: check.string({ minLength: 1 }),
  cacheKey: check.string({ pattern: /^[0-9a-f]{64}$/ }),
  cache: check.boolean(),
});
