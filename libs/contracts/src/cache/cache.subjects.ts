import { defineEvent, defineRequest } from '../core';
import {
  cacheCommitReply,
  cacheCommitRequest,
  cacheEntryRef,
  cacheInvalidated,
  cacheLookupReply,
  cacheUsage,
} from './cache.messages';

/** Is this org's piece cached, and where is its audio. */
export const cacheLookupV1 = defineRequest({
  subject: 'cache.lookup.v1',
  request: cacheEntryRef,
  reply: cacheLookupReply,
});

/** Index a completed take whose blob has been written. */
export const cacheCommitV1 = defineRequest({
  subject: 'cache.commit.v1',
  request: cacheCommitRequest,
  reply: cacheCommitReply,
});

/** Fire-and-forget usage: last-use refresh and usage counters, batched by cache-service. */
export const cacheUsageV1 = defineEvent({ subject: 'cache.usage.v1', payload: cacheUsage });

export const cacheInvalidatedV1 = defineEvent({ subject: 'cache.invalidated.v1', payload: cacheInvalidated });
