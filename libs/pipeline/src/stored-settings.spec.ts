import { RouterError, type SynthSettings } from '@router/contracts';
import { createLogger } from '@router/observability';
import type { JsonValue, StoredReference, VendorAdapter } from '@router/vendors-core';
import { StoredSettings } from './stored-settings';

const settings = (options: Record<string, unknown>, vendor = 'vendor_c'): SynthSettings => ({
  vendor,
  model: 'm',
  voice: 'v1',
  language: null,
  speed: null,
  sampleRate: 24000,
  format: 'pcm',
  options,
});

/** A vendor whose stored things are `store[name]`; `refs` says what an option names. */
function setup(refreshMs = 1000) {
  let now = 0;
  const store: Record<string, JsonValue | Error> = {};
  const reads: string[] = [];
  const gates: (() => void)[] = [];
  let gated = false;
  const adapter = {
    vendor: 'vendor_c',
    storedSettings: {
      references: (s: SynthSettings): StoredReference[] =>
        Object.entries(s.options).flatMap(([name, kind]) =>
          kind === 'fingerprint' || kind === 'first-read' ? [{ name, kind }] : [],
        ),
      read: async (reference: StoredReference, call: { apiKey: string }) => {
        reads.push(`${call.apiKey}:${reference.name}`);
        if (gated) await new Promise<void>((resolve) => gates.push(resolve));
        const value = store[reference.name];
        if (value instanceof Error || value === undefined)
          throw new RouterError('provider_rejected', 'not found', { providerStatus: 404 });
        return value;
      },
    },
  } as unknown as VendorAdapter;
  const keys: Record<string, string> = { 'org:vendor_c': 'key-1' };
  const stored = new StoredSettings(
    {
      keys: {
        get: (orgId, vendor) => {
          const key = keys[`${orgId}:${vendor}`];
          return key ? Promise.resolve(key) : Promise.reject(new RouterError('provider_key_missing', 'none'));
        },
      },
      upstream: (vendor) => (vendor === 'vendor_c' ? adapter : undefined),
      logger: createLogger({ service: 'test', level: 'silent' }),
      now: () => now,
    },
    { refreshMs, readTimeoutMs: 1000, maxEntries: 3 },
  );
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return {
    stored,
    store,
    reads,
    keys,
    advance: (ms: number) => (now += ms),
    gate: () => (gated = true),
    open: () => {
      gated = false;
      gates.splice(0).forEach((g) => g());
    },
    settle,
  };
}

describe('StoredSettings', () => {
  it('leaves vendors and settings without stored things alone, without reading', async () => {
    const t = setup();
    expect(await t.stored.resolve('org', settings({}, 'vendor_b'))).toEqual({
      fingerprint: null,
      cacheable: true,
    });
    expect(await t.stored.resolve('org', settings({ x: 'plain' }))).toEqual({
      fingerprint: null,
      cacheable: true,
    });
    expect(t.reads).toEqual([]);
  });

  it('fingerprints what is stored, reads it once while fresh, and changes the fingerprint after a change', async () => {
    const t = setup(1000);
    t.store['voice'] = { stability: 0.5 };
    const first = await t.stored.resolve('org', settings({ voice: 'fingerprint' }));
    expect(first.cacheable).toBe(true);
    expect(first.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    t.advance(400);
    expect(await t.stored.resolve('org', settings({ voice: 'fingerprint' }))).toEqual(first);
    expect(t.reads).toEqual(['key-1:voice']);

    t.store['voice'] = { stability: 0.9 };
    t.advance(600); // the read is now refreshMs old: the next resolve waits for a new one
    const changed = await t.stored.resolve('org', settings({ voice: 'fingerprint' }));
    expect(changed.fingerprint).not.toBe(first.fingerprint);
    expect(t.reads).toHaveLength(2);
  });

  it('re-reads a half-stale value in the background while answering with it', async () => {
    const t = setup(1000);
    t.store['voice'] = 1;
    const first = await t.stored.resolve('org', settings({ voice: 'fingerprint' }));
    t.store['voice'] = 2;
    t.advance(600);
    expect(await t.stored.resolve('org', settings({ voice: 'fingerprint' }))).toEqual(first);
    await t.settle();
    expect(t.reads).toHaveLength(2);
    t.advance(100);
    expect((await t.stored.resolve('org', settings({ voice: 'fingerprint' }))).fingerprint).not.toBe(
      first.fingerprint,
    );
    expect(t.reads).toHaveLength(2);
  });

  it('shares one read among concurrent replies', async () => {
    const t = setup();
    t.store['voice'] = 1;
    t.gate();
    const pending = [1, 2, 3].map(() => t.stored.resolve('org', settings({ voice: 'fingerprint' })));
    await t.settle();
    t.open();
    const results = await Promise.all(pending);
    expect(new Set(results.map((r) => r.fingerprint)).size).toBe(1);
    expect(t.reads).toHaveLength(1);
  });

  it('makes pieces uncacheable when a read fails, and waits before reading again', async () => {
    const t = setup(60_000);
    expect(await t.stored.resolve('org', settings({ voice: 'fingerprint' }))).toEqual({
      fingerprint: null,
      cacheable: false,
    });
    t.store['voice'] = 1;
    expect((await t.stored.resolve('org', settings({ voice: 'fingerprint' }))).cacheable).toBe(false);
    expect(t.reads).toHaveLength(1);
    t.advance(5000);
    expect((await t.stored.resolve('org', settings({ voice: 'fingerprint' }))).cacheable).toBe(true);
    expect(t.reads).toHaveLength(2);
  });

  it('keeps the last value through failed re-reads for one more refresh interval, then is uncacheable', async () => {
    const t = setup(1000);
    t.store['voice'] = 1;
    const first = await t.stored.resolve('org', settings({ voice: 'fingerprint' }));
    t.store['voice'] = new Error('the vendor refuses for a moment');
    t.advance(1000); // stale: the re-read is waited for, fails, and the last value serves
    expect(await t.stored.resolve('org', settings({ voice: 'fingerprint' }))).toEqual(first);
    expect(t.reads).toHaveLength(2);
    t.advance(500); // within the retry pause: no read, the last value again
    expect(await t.stored.resolve('org', settings({ voice: 'fingerprint' }))).toEqual(first);
    expect(t.reads).toHaveLength(2);
    t.advance(400); // 1.9 refresh intervals old
    expect(await t.stored.resolve('org', settings({ voice: 'fingerprint' }))).toEqual(first);
    t.advance(100); // twice the refresh interval: nothing to trust
    expect(await t.stored.resolve('org', settings({ voice: 'fingerprint' }))).toEqual({
      fingerprint: null,
      cacheable: false,
    });
    t.store['voice'] = 2;
    t.advance(1000);
    const changed = await t.stored.resolve('org', settings({ voice: 'fingerprint' }));
    expect(changed.cacheable).toBe(true);
    expect(changed.fingerprint).not.toBe(first.fingerprint);
  });

  it('is uncacheable without a stored vendor key', async () => {
    const t = setup();
    expect(await t.stored.resolve('other-org', settings({ voice: 'fingerprint' }))).toEqual({
      fingerprint: null,
      cacheable: false,
    });
    expect(t.reads).toEqual([]);
  });

  it('plays a first-read thing uncached until it has been read in the background, then caches by name', async () => {
    const t = setup();
    t.store['dict'] = { entries: 1 };
    t.gate();
    expect(await t.stored.resolve('org', settings({ dict: 'first-read' }))).toEqual({
      fingerprint: null,
      cacheable: false,
    });
    expect(await t.stored.resolve('org', settings({ dict: 'first-read' }))).toEqual({
      fingerprint: null,
      cacheable: false,
    });
    t.open();
    await t.settle();
    expect(t.reads).toHaveLength(1);
    t.store['dict'] = { entries: 2 }; // content does not count: keyed by name
    t.advance(10_000);
    expect(await t.stored.resolve('org', settings({ dict: 'first-read' }))).toEqual({
      fingerprint: null,
      cacheable: true,
    });
    expect(t.reads).toHaveLength(1);
  });

  it('keeps a first-read thing the vendor does not know uncacheable', async () => {
    const t = setup();
    await t.stored.resolve('org', settings({ dict: 'first-read' }));
    await t.settle();
    expect((await t.stored.resolve('org', settings({ dict: 'first-read' }))).cacheable).toBe(false);
  });

  it('combines every fingerprinted thing and keeps orgs apart', async () => {
    const t = setup();
    t.keys['org2:vendor_c'] = 'key-2';
    t.store['voice'] = 1;
    t.store['dictionary'] = 'v1';
    const both = await t.stored.resolve('org', settings({ voice: 'fingerprint', dictionary: 'fingerprint' }));
    const one = await t.stored.resolve('org', settings({ voice: 'fingerprint' }));
    expect(both.fingerprint).not.toBe(one.fingerprint);
    await t.stored.resolve('org2', settings({ voice: 'fingerprint' }));
    expect(t.reads).toEqual(['key-1:voice', 'key-1:dictionary', 'key-2:voice']);
  });

  it('forgets an org (its vendor key changed) and keeps a bounded number of entries', async () => {
    const t = setup();
    t.store['a'] = 1;
    t.store['b'] = 2;
    t.store['c'] = 3;
    t.store['d'] = 4;
    await t.stored.resolve('org', settings({ a: 'fingerprint' }));
    t.stored.forget('org', 'vendor_c');
    await t.stored.resolve('org', settings({ a: 'fingerprint' }));
    expect(t.reads).toHaveLength(2);
    for (const name of ['b', 'c', 'd']) await t.stored.resolve('org', settings({ [name]: 'fingerprint' }));
    await t.stored.resolve('org', settings({ a: 'fingerprint' })); // dropped as the least recently used
    expect(t.reads).toHaveLength(6);
  });
});
