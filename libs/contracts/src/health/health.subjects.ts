import { defineRequest } from '../core';
import { healthReply, healthRequest } from './health.messages';

/** Answered by cache-service: is it up and able to reach its stores. */
export const healthCacheV1 = defineRequest({
  subject: 'health.cache.v1',
  request: healthRequest,
  reply: healthReply,
});

/** Answered by synthesis-worker. */
export const healthSynthesisV1 = defineRequest({
  subject: 'health.synthesis.v1',
  request: healthRequest,
  reply: healthReply,
});
