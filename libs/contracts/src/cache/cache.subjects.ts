import { defineEvent, defineRequest } from '../core';
import {
  cacheCommitReply,
  cacheCommitRequest,
  cacheEntryRef,
  cacheEvictReply,
  cacheEvictRequest,
  cacheInvalidated,
  cacheUsage,
  cacheUsageBatch,
} from './cache.messages';

/** Index a completed take whose blob has been written. */
export const cacheCommitV1 = defineRequest({
  subject: 'cache.commit.v1',
  request: cacheCommitRequest,
  reply: cacheCommitReply,
});

/**
 * An entry was indexed (sent by cache-service before it answers the commit), on its vendor's subject
 * (`addressedTo(cacheCommittedV2, provider)`: `cache.committed.v2.vendor_a`): each serving app subscribes to
 * the vendors it serves and adds the key to the org's key filter, so a later lookup of it goes to the index.
 * NATS delivers a commit only to the apps that can serve its key (a mirror app hears of its own vendor's).
 */
export const cacheCommittedV2 = defineEvent({ subject: 'cache.committed.v2', payload: cacheEntryRef });

/**
 * The same announcement for every vendor on one subject, as serving apps before `cacheCommittedV2` listen for
 * it: cache-service still sends it (see commit-take.ts), nothing here subscribes to it.
 */
export const cacheCommittedV1 = defineEvent({ subject: 'cache.committed.v1', payload: cacheEntryRef });

/** Fire-and-forget usage: last-use refresh and usage counters, batched by cache-service. */
export const cacheUsageV1 = defineEvent({ subject: 'cache.usage.v1', payload: cacheUsage });

/** The same, batched by the serving apps (their hits): one message per flush (UsageReporter). */
export const cacheUsageBatchV1 = defineEvent({ subject: 'cache.usage.batch.v1', payload: cacheUsageBatch });

export const cacheInvalidatedV1 = defineEvent({ subject: 'cache.invalidated.v1', payload: cacheInvalidated });

/** Evict an org's entries (by key, by sentence or all), served by cache-service: the org's API, the admin CLI. */
export const cacheEvictV1 = defineRequest({
  subject: 'cache.evict.v1',
  request: cacheEvictRequest,
  reply: cacheEvictReply,
});
