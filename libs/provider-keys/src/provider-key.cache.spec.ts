import { ProviderKeyCache } from './provider-key.cache';

describe('ProviderKeyCache', () => {
  function setup(keys: Record<string, string | undefined>, outageStaleMs = 0) {
    let now = 0;
    const opened: string[] = [];
    const database = { down: false };
    const cache = new ProviderKeyCache(
      {
        open: (orgId, provider) => {
          opened.push(`${orgId}:${provider}`);
          if (database.down) return Promise.reject(Object.assign(new Error('refused'), { code: 'P1001' }));
          return Promise.resolve(keys[`${orgId}:${provider}`]);
        },
      },
      1000,
      () => now,
      outageStaleMs,
    );
    return { cache, opened, database, advance: (ms: number) => (now += ms) };
  }

  it('opens a key once within its TTL and again after it', async () => {
    const { cache, opened, advance } = setup({ 'o:vendor_c': 'k1' });
    expect(await cache.get('o', 'vendor_c')).toBe('k1');
    expect(await cache.get('o', 'vendor_c')).toBe('k1');
    expect(opened).toHaveLength(1);
    advance(1000);
    await cache.get('o', 'vendor_c');
    expect(opened).toHaveLength(2);
  });

  it('refuses with provider_key_missing naming the vendor when none is stored', async () => {
    const { cache } = setup({});
    await expect(cache.get('o', 'vendor_b')).rejects.toMatchObject({
      code: 'provider_key_missing',
      message: expect.stringContaining('vendor_b'),
    });
  });

  it('forgets one vendor of an org, or the whole org', async () => {
    const { cache, opened } = setup({ 'o:vendor_a': 'a', 'o:vendor_b': 'b' });
    await cache.get('o', 'vendor_a');
    await cache.get('o', 'vendor_b');
    cache.forget('o', 'vendor_a');
    await cache.get('o', 'vendor_a');
    await cache.get('o', 'vendor_b');
    expect(opened).toEqual(['o:vendor_a', 'o:vendor_b', 'o:vendor_a']);
    cache.forget('o');
    await cache.get('o', 'vendor_b');
    expect(opened).toHaveLength(4);
  });

  it('through a PostgreSQL outage uses the key it opened up to the staleness bound, then is unavailable', async () => {
    const { cache, database, advance } = setup({ 'o:vendor_a': 'a' }, 5000);
    expect(await cache.get('o', 'vendor_a')).toBe('a');
    database.down = true;
    advance(5000);
    expect(await cache.get('o', 'vendor_a')).toBe('a');
    advance(1);
    await expect(cache.get('o', 'vendor_a')).rejects.toMatchObject({ code: 'unavailable' });
    await expect(cache.get('o', 'vendor_b')).rejects.toMatchObject({ code: 'unavailable' });
    database.down = false;
    expect(await cache.get('o', 'vendor_a')).toBe('a');
  });
});
