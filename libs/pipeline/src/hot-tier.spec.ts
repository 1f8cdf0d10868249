import { HotTier } from './hot-tier';

const entry = (bytes: number) => ({ audio: Buffer.alloc(bytes, 1), contentType: 'audio/pcm', words: null });

describe('HotTier', () => {
  it('answers within its TTL and forgets after it', () => {
    let now = 0;
    const hot = new HotTier({ maxBytes: 1000, ttlMs: 100, now: () => now });
    hot.set('o', 'k', entry(10));
    now = 99;
    expect(hot.get('o', 'k')?.audio.length).toBe(10);
    now = 100;
    expect(hot.get('o', 'k')).toBeUndefined();
    expect(hot.size).toEqual({ entries: 0, bytes: 0 });
  });

  it('stays within its byte bound, evicting the least recently used', () => {
    const hot = new HotTier({ maxBytes: 1000, ttlMs: 1000, now: () => 0 });
    hot.set('o', 'a', entry(200));
    hot.set('o', 'b', entry(200));
    hot.set('o', 'c', entry(200));
    hot.get('o', 'a');
    hot.set('o', 'd', entry(200));
    hot.set('o', 'e', entry(200));
    hot.set('o', 'f', entry(200));
    expect(hot.size.bytes).toBeLessThanOrEqual(1000);
    expect(hot.get('o', 'b')).toBeUndefined();
    expect(hot.get('o', 'a')).toBeDefined();
  });

  it('never holds an entry larger than a quarter of its bound', () => {
    const hot = new HotTier({ maxBytes: 1000, ttlMs: 1000, now: () => 0 });
    hot.set('o', 'big', entry(251));
    expect(hot.get('o', 'big')).toBeUndefined();
  });

  it("drops one org's entries, or only the named keys, on invalidation", () => {
    const hot = new HotTier({ maxBytes: 1000, ttlMs: 1000, now: () => 0 });
    hot.set('o1', 'a', entry(1));
    hot.set('o1', 'b', entry(1));
    hot.set('o2', 'a', entry(1));
    hot.invalidate('o1', ['a']);
    expect(hot.get('o1', 'a')).toBeUndefined();
    expect(hot.get('o1', 'b')).toBeDefined();
    hot.invalidate('o1');
    expect(hot.get('o1', 'b')).toBeUndefined();
    expect(hot.get('o2', 'a')).toBeDefined();
  });
});
