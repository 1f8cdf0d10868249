import { isCanonicalCacheKey } from '@router/contracts';

/** Bits per key at capacity and probes per key: about 1 % false positives once `capacity` keys are in. */
const BITS_PER_KEY = 10;
const PROBES = 7;

/**
 * A Bloom filter over cache keys: `has` is false only for a key never added (no false negatives), and true
 * for about 1 % of the others at capacity. Cache keys are keyed hashes (HMAC-SHA256, libs/cache-keys), so their
 * hex digits are already uniform: each probe is 32 bits of the key itself, no hashing needed.
 */
export class KeyFilter {
  private readonly bits: Uint32Array;
  private readonly size: number;
  private added = 0;

  constructor(readonly capacity: number) {
    this.size = Math.max(32, Math.ceil((capacity * BITS_PER_KEY) / 32) * 32);
    this.bits = new Uint32Array(this.size / 32);
  }

  /** Keys added so far (repeats counted): past `capacity`, false positives grow. */
  get count(): number {
    return this.added;
  }

  add(cacheKey: string): void {
    if (!isCanonicalCacheKey(cacheKey)) return;
    this.added += 1;
    for (let probe = 0; probe < PROBES; probe++) {
      const bit = this.position(cacheKey, probe);
      this.bits[bit >>> 5] = (this.bits[bit >>> 5] ?? 0) | (1 << (bit & 31));
    }
  }

  /** False means the key was never added; a key that is not a cache key is never ruled out. */
  has(cacheKey: string): boolean {
    if (!isCanonicalCacheKey(cacheKey)) return true;
    for (let probe = 0; probe < PROBES; probe++) {
      const bit = this.position(cacheKey, probe);
      if (((this.bits[bit >>> 5] ?? 0) & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }

  private position(cacheKey: string, probe: number): number {
    return parseInt(cacheKey.slice(probe * 8, probe * 8 + 8), 16) % this.size;
  }
}
