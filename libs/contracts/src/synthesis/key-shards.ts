import { createHash } from 'node:crypto';

/**
 * Cache keys fall into KEY_SHARDS shards by their first byte. Requesters send a shard's takes to one worker
 * (rendezvous hashing on the shard), and that worker leases the shard in the database, so it can claim a key
 * of it without asking anyone (libs/synthesis, ShardLeases). Both ends must agree on both functions.
 */
export const KEY_SHARDS = 256;

/** The shard of a cache key (64 hex digits): its first byte. The SQL twin is `get_byte(decode(substr(cache_key, 1, 2), 'hex'), 0)`. */
export function keyShard(cacheKey: string): number {
  return parseInt(cacheKey.slice(0, 2), 16);
}

/** The worker a shard's takes go to among `workers`: the highest rendezvous score (undefined for none). */
export function shardOwner(shard: number, workers: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestScore = '';
  for (const workerId of workers) {
    const score = createHash('sha1').update(`${workerId}:${shard}`).digest('hex');
    if (score > bestScore) {
      best = workerId;
      bestScore = score;
    }
  }
  return best;
}
