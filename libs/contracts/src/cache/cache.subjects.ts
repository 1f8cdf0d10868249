import { defineEvent, defineRequest } from '../core';
import {
  cacheCommitReply,
  cacheCommitRequest,
  cacheEntryRef,
  cacheInvalidated,
  cacheUsage,
} from './cache.messages';

/** Index a completed take whose blob has been written. */
export const cacheCommitV1 = defineRequest({
  subject: 'cache.commit.v1',
  request: cacheCommitRequest,
  reply: cacheCommitReply,
});

/**
 * An entry was indexed (sent by cache-service before it answers the commit): the serving apps add its key to
 * the org's key filter, so a later lookup of it goes to the index.
 */
export const cacheCommittedV1 = defineEvent({ subject: 'cache.committed.v1', payload: cacheEntryRef });

/** Fire-and-forget usage: last-use refresh and usage counters, batched by cache-service. */
export const cacheUsageV1 = defineEvent({ subject: 'cache.usage.v1', payload: cacheUsage });

export const cacheInvalidatedV1 = defineEvent({ subject: 'cache.invalidated.v1', payload: cacheInvalidated });
