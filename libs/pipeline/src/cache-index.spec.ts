import { randomBytes } from 'node:crypto';
import { createBus, type Bus } from '@router/bus';
import { addressedTo, cacheCommittedV2 } from '@router/contracts';
import type { Sql } from '@router/db';
import { CacheIndex } from './cache-index';

const ORG = '4f2c3b1a-0000-4000-8000-000000000001';
const randomKey = (): string => randomBytes(32).toString('hex');
const committedByVendorA = addressedTo(cacheCommittedV2, 'vendor_a');

/**
 * The index as the statements see it: rows per org, answered by what each statement asks for. `hold` keeps
 * the next key-page read waiting until released, to put events in the middle of a filter's read.
 */
class FakeIndex implements Sql {
  readonly rows = new Map<string, Set<string>>();
  readonly asked: Array<'lookup' | 'count' | 'page'> = [];
  failReads = false;
  private held: Array<() => void> | undefined;

  put(orgId: string, cacheKey: string): void {
    const keys = this.rows.get(orgId) ?? new Set<string>();
    keys.add(cacheKey);
    this.rows.set(orgId, keys);
  }

  hold(): () => void {
    this.held = [];
    return () => {
      const waiting = this.held ?? [];
      this.held = undefined;
      waiting.forEach((go) => go());
    };
  }

  async query<Row>(text: string, params: readonly unknown[] = []): Promise<Row[]> {
    const [orgId, arg] = params as [string, string];
    const keys = [...(this.rows.get(orgId) ?? [])].sort();
    if (text.includes('JOIN orgs')) {
      this.asked.push('lookup');
      return (keys.includes(arg) ? [{ objectName: `${orgId}/${arg}.audio` }] : []) as Row[];
    }
    if (this.failReads) throw new Error('database unavailable');
    if (text.includes('count(*)')) {
      this.asked.push('count');
      return [{ n: keys.length }] as Row[];
    }
    this.asked.push('page');
    if (this.held) await new Promise<void>((go) => this.held?.push(go));
    return keys.filter((key) => key > arg).map((key) => ({ key })) as Row[];
  }
}

/** Lets every pending promise chain (a filter read, an event handler) run to its end. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 5));

describe('CacheIndex', () => {
  let bus: Bus;
  let sql: FakeIndex;
  let now: number;
  let index: CacheIndex;

  beforeEach(async () => {
    bus = createBus({ kind: 'memory' });
    sql = new FakeIndex();
    now = 0;
    index = new CacheIndex(sql, bus, { keysReloadMs: 1000, servedVendors: ['vendor_a'], now: () => now });
    await index.ready();
  });
  afterEach(async () => {
    index.close();
    await bus.close();
  });

  const lookups = (): number => sql.asked.filter((q) => q === 'lookup').length;

  it("asks the index until the org's keys are read, then only for keys the filter holds", async () => {
    const cached = randomKey();
    sql.put(ORG, cached);
    await expect(index.lookup(ORG, randomKey())).resolves.toBeNull();
    expect(lookups()).toBe(1);
    await settle();
    await expect(index.lookup(ORG, randomKey())).resolves.toBeNull();
    expect(lookups()).toBe(1);
    await expect(index.lookup(ORG, cached)).resolves.toEqual({ objectName: `${ORG}/${cached}.audio` });
    expect(lookups()).toBe(2);
  });

  it('finds an entry committed after the read through its commit event', async () => {
    await index.lookup(ORG, randomKey());
    await settle();
    const key = randomKey();
    sql.put(ORG, key);
    await bus.publish(committedByVendorA, { orgId: ORG, cacheKey: key });
    await settle();
    await expect(index.lookup(ORG, key)).resolves.not.toBeNull();
  });

  it('reads the filter again once back on the bus, so a commit announced while cut off is not ruled out', async () => {
    const listeners: Array<(status: 'connected' | 'reconnecting') => void> = [];
    const watched: Bus = Object.create(bus) as Bus;
    watched.onStatusChange = (listener) => {
      listeners.push(listener);
      return () => undefined;
    };
    const cutOff = new CacheIndex(sql, watched, {
      keysReloadMs: 1000,
      servedVendors: ['vendor_a'],
      now: () => now,
    });
    try {
      await cutOff.lookup(ORG, randomKey());
      await settle();
      const key = randomKey();
      sql.put(ORG, key); // committed, its announcement lost
      await expect(cutOff.lookup(ORG, key)).resolves.toBeNull();
      listeners.forEach((listener) => listener('reconnecting'));
      listeners.forEach((listener) => listener('connected'));
      await expect(cutOff.lookup(ORG, key)).resolves.not.toBeNull();
    } finally {
      cutOff.close();
    }
  });

  it('does not hear of commits of a vendor it does not serve, and hears of each one it serves', async () => {
    const both = new CacheIndex(sql, bus, {
      keysReloadMs: 1000,
      servedVendors: ['vendor_a', 'vendor_b'],
      now: () => now,
    });
    await both.ready();
    try {
      await index.lookup(ORG, randomKey());
      await both.lookup(ORG, randomKey());
      await settle();
      const [byB, byC] = [randomKey(), randomKey()];
      sql.put(ORG, byB);
      sql.put(ORG, byC);
      await bus.publish(addressedTo(cacheCommittedV2, 'vendor_b'), { orgId: ORG, cacheKey: byB });
      await bus.publish(addressedTo(cacheCommittedV2, 'vendor_c'), { orgId: ORG, cacheKey: byC });
      await settle();
      await expect(index.lookup(ORG, byB)).resolves.toBeNull(); // vendor_a's alone: ruled out
      await expect(both.lookup(ORG, byB)).resolves.not.toBeNull();
      await expect(both.lookup(ORG, byC)).resolves.toBeNull();
    } finally {
      both.close();
    }
  });

  it('keeps a commit whose event comes while the keys are being read', async () => {
    const release = sql.hold();
    await index.lookup(ORG, randomKey());
    await settle(); // counted; the first page is held
    const key = randomKey();
    await bus.publish(committedByVendorA, { orgId: ORG, cacheKey: key }); // its row is behind the held page
    await settle();
    release();
    await settle();
    await expect(index.lookup(ORG, key)).resolves.toBeNull(); // the fake has no row: asked, not ruled out
    expect(lookups()).toBe(2);
  });

  it('reads the keys again once they are older than keysReloadMs', async () => {
    await index.lookup(ORG, randomKey());
    await settle();
    const key = randomKey();
    sql.put(ORG, key); // a commit whose event was lost
    await expect(index.lookup(ORG, key)).resolves.toBeNull();
    now = 1000;
    await index.lookup(ORG, randomKey()); // due: answered by the old filter, starts a read
    await settle();
    await expect(index.lookup(ORG, key)).resolves.not.toBeNull();
    expect(sql.asked.filter((q) => q === 'count')).toHaveLength(2);
  });

  it('reads page after page of a large org', async () => {
    const keys = Array.from({ length: 10_001 }, randomKey);
    keys.forEach((key) => sql.put(ORG, key));
    await index.lookup(ORG, randomKey());
    await settle();
    expect(sql.asked.filter((q) => q === 'page')).toHaveLength(2);
    const last = keys.sort()[10_000];
    await expect(index.lookup(ORG, last)).resolves.not.toBeNull();
  });

  it('keeps asking the index while the keys cannot be read, and tries again later', async () => {
    sql.failReads = true;
    const key = randomKey();
    await index.lookup(ORG, key);
    await settle();
    await index.lookup(ORG, key);
    expect(lookups()).toBe(2);
    expect(sql.asked.filter((q) => q === 'count')).toHaveLength(0);
    sql.failReads = false;
    await index.lookup(ORG, key); // not yet: a failed read is retried after a pause
    await settle();
    expect(sql.asked.filter((q) => q === 'count')).toHaveLength(0);
    now = 5000;
    await index.lookup(ORG, key);
    await settle();
    expect(sql.asked.filter((q) => q === 'count')).toHaveLength(1);
  });

  it('forgets an org idle for keysReloadMs, and reads its keys again when it comes back', async () => {
    const other = '4f2c3b1a-0000-4000-8000-000000000002';
    await index.lookup(ORG, randomKey());
    await settle();
    now = 999;
    await index.lookup(other, randomKey()); // ORG was used 999 ms ago: kept
    await settle();
    await index.lookup(ORG, randomKey());
    expect(lookups()).toBe(2); // ORG still filtered
    now = 2000;
    await index.lookup(other, randomKey()); // ORG idle for 1001 ms: forgotten
    await settle();
    const before = lookups();
    await index.lookup(ORG, randomKey());
    expect(lookups()).toBe(before + 1); // asked again until its keys are read again
    await settle();
    expect(sql.asked.filter((q) => q === 'count')).toHaveLength(4);
  });

  it('does not filter an org with more keys than a filter may hold, and counts again when due', async () => {
    const capped = new CacheIndex(sql, bus, {
      keysReloadMs: 1000,
      servedVendors: ['vendor_a'],
      now: () => now,
      maxFilteredKeys: 3,
    });
    await capped.ready();
    try {
      for (let i = 0; i < 4; i++) sql.put(ORG, randomKey());
      await capped.lookup(ORG, randomKey());
      await settle();
      await capped.lookup(ORG, randomKey());
      await capped.lookup(ORG, randomKey());
      expect(lookups()).toBe(3); // every miss asks the index
      expect(sql.asked.filter((q) => q === 'page')).toHaveLength(0);
      sql.rows.set(ORG, new Set([randomKey()]));
      now = 1000;
      await capped.lookup(ORG, randomKey()); // due: counted again, now small enough
      await settle();
      await capped.lookup(ORG, randomKey());
      expect(lookups()).toBe(4);
    } finally {
      capped.close();
    }
  });

  it('finds nothing for an org id the index cannot hold, without a query', async () => {
    await expect(index.lookup(ORG.toUpperCase(), randomKey())).resolves.toBeNull();
    await expect(index.lookup('not-a-uuid', randomKey())).resolves.toBeNull();
    expect(sql.asked).toEqual([]);
  });
});
