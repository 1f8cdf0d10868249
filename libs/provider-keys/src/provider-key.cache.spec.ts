import { ProviderKeyCache } from './provider-key.cache';

describe('ProviderKeyCache', () => {
  function setup(keys: Record<string, string | undefined>) {
    let now = 0;
    const opened: string[] = [];
    const cache = new ProviderKeyCache(
      {
        open: (orgId, provider) => {
          opened.push(`${orgId}:${provider}`);
          return Promise.resolve(keys[`${orgId}:${provider}`]);
        },
      },
      1000,
      () => now,
    );
    return { cache, opened, advance: (ms: number) => (now += ms) };
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
});
