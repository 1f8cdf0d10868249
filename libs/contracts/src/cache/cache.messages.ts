import { check, type Checker } from '../core';
import { responseHead, type ResponseHead } from '../synthesis/synth-request.message';

const CANONICAL_ORG_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CANONICAL_CACHE_KEY = /^[0-9a-f]{64}$/;

/** A lower-case uuid, the form the index stores org ids in (PostgreSQL prints uuids in lower case). */
export function isCanonicalOrgId(orgId: string): boolean {
  return CANONICAL_ORG_ID.test(orgId);
}

/** 64 lower-case hex digits: the keyed hash from libs/cache-keys. */
export function isCanonicalCacheKey(cacheKey: string): boolean {
  return CANONICAL_CACHE_KEY.test(cacheKey);
}

const hex64 = check.string({ pattern: CANONICAL_CACHE_KEY });

export interface CacheEntryRef {
  orgId: string;
  cacheKey: string;
}

export const cacheEntryRef: Checker<CacheEntryRef> = check.object({
  orgId: check.string({ minLength: 1 }),
  cacheKey: hex64,
});

/** Where a cached take's audio is (an index row), for the serving app to read straight from the blob store. */
export interface CachedTake {
  objectName: string;
  contentType: string;
  byteSize: number;
  /** Word timings are stored beside the audio, under `wordsObjectNameOf(objectName)`. */
  hasTimings: boolean;
  /**
   * A whole-request take's status and kept response headers, replayed with its body; absent for a sentence
   * take (and for a request take committed through a cache-service older than the field: replayed as 200 with
   * its content type only).
   */
  head?: ResponseHead;
}

export const cachedTake: Checker<CachedTake> = check.object({
  objectName: check.string({ minLength: 1 }),
  contentType: check.string({ minLength: 1 }),
  byteSize: check.integer({ min: 0 }),
  hasTimings: check.boolean(),
  head: check.optional(responseHead),
});

/** Sent by a worker after the take's blob is written; the index row is written only if the blob exists. */
export interface CacheCommitRequest extends CacheEntryRef, CachedTake {
  provider: string;
  /** Characters the vendor synthesized for this take, for the usage counters. */
  chars: number;
  /**
   * The key's committed take whose blob the worker found gone: only a row naming it may be replaced. A key's
   * take is otherwise never replaced (the first commit wins).
   */
  replaces?: string;
  /** The sentence's key (`sentenceTextKey`) of a sentence take, kept beside the entry for evictions by sentence. */
  textKey?: string;
}

export const cacheCommitRequest: Checker<CacheCommitRequest> = check.object({
  orgId: check.string({ minLength: 1 }),
  cacheKey: hex64,
  provider: check.string({ minLength: 1 }),
  objectName: check.string({ minLength: 1 }),
  contentType: check.string({ minLength: 1 }),
  byteSize: check.integer({ min: 0 }),
  hasTimings: check.boolean(),
  head: check.optional(responseHead),
  chars: check.integer({ min: 0 }),
  replaces: check.optional(check.string({ minLength: 1 })),
  textKey: check.optional(hex64),
});

/**
 * Evict entries of one org: those of `cacheKeys`, every entry of the sentences of `textKeys` (whatever they were
 * said with), or with `all` every entry the org has. The rows go at once, their blobs after them, and the serving
 * apps drop them from their hot tiers (`cache.invalidated.v1`).
 */
export interface CacheEvictRequest {
  orgId: string;
  cacheKeys?: string[];
  textKeys?: string[];
  all?: boolean;
}

export const cacheEvictRequest: Checker<CacheEvictRequest> = check.object({
  orgId: check.string({ minLength: 1 }),
  cacheKeys: check.optional(check.array(hex64, { maxLength: 10_000 })),
  textKeys: check.optional(check.array(hex64, { maxLength: 10_000 })),
  all: check.optional(check.boolean()),
});

export interface CacheEvictReply {
  /** The entries removed. */
  evicted: number;
}

export const cacheEvictReply: Checker<CacheEvictReply> = check.object({ evicted: check.integer({ min: 0 }) });

export interface CacheCommitReply {
  committed: boolean;
}

export const cacheCommitReply: Checker<CacheCommitReply> = check.object({ committed: check.boolean() });

/** A hit served (refreshes last use in batches; counts characters served from cache) or a miss synthesized. */
export interface CacheUsage extends CacheEntryRef {
  provider: string;
  chars: number;
  kind: 'hit' | 'synthesized';
}

export const cacheUsage: Checker<CacheUsage> = check.object({
  orgId: check.string({ minLength: 1 }),
  cacheKey: hex64,
  provider: check.string({ minLength: 1 }),
  chars: check.integer({ min: 0 }),
  kind: check.literal('hit', 'synthesized'),
});

/** The most usage events in one batch message. */
export const USAGE_BATCH_MAX = 500;

/** Usage events gathered by the app that served them: one message per flush rather than one per hit. */
export interface CacheUsageBatch {
  events: CacheUsage[];
}

export const cacheUsageBatch: Checker<CacheUsageBatch> = check.object({
  events: check.array(cacheUsage, { maxLength: USAGE_BATCH_MAX }),
});

/** Entries of an org left the cache (sweep, retention change): serving apps drop them from their hot tier. */
export interface CacheInvalidated {
  orgId: string;
  /** The keys removed; absent means every entry of the org. */
  cacheKeys?: string[];
}

export const cacheInvalidated: Checker<CacheInvalidated> = check.object({
  orgId: check.string({ minLength: 1 }),
  cacheKeys: check.optional(check.array(hex64)),
});

/**
 * A take's own id: the time its blobs were written (ms since the epoch, the worker's clock) and 48 random bits.
 * Every take gets blobs of its own, so two takes of one key never write the same object, and the name says
 * how old a blob is without asking the blob store.
 */
export function newTakeId(writtenAt: number): string {
  const random = globalThis.crypto.getRandomValues(new Uint8Array(6));
  return `${writtenAt}-${Array.from(random, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

const TAKE_ID = /^(\d{13})-[0-9a-f]{12}$/;

/** When the take's blobs were written, from its id; null for a string that is not a take id. */
export function takeWrittenAt(takeId: string): number | null {
  const match = TAKE_ID.exec(takeId);
  return match ? Number(match[1]) : null;
}

/**
 * Where a take's audio and its word timings live in the blob store: `<orgId>/<cacheKey>/<takeId>.audio` and
 * `….words.json`. Written by workers, indexed by cache-service, read by serving apps, swept by cache-service.
 */
export function cacheObjectNames(
  orgId: string,
  cacheKey: string,
  takeId: string,
): { audio: string; words: string } {
  const base = `${orgId}/${cacheKey}/${takeId}`;
  return { audio: `${base}.audio`, words: `${base}.words.json` };
}

/** The timings blob beside an indexed audio blob (`CachedTake.objectName`). */
export function wordsObjectNameOf(audioObjectName: string): string {
  return `${audioObjectName.slice(0, -'.audio'.length)}.words.json`;
}
