import { randomBytes, randomUUID } from 'node:crypto';
import { createBus, type Bus } from '@router/bus';
import type { BlobStore } from '@router/blob-store';
import {
  cacheCommitV1,
  cacheInvalidatedV1,
  cacheUsageBatchV1,
  cacheUsageV1,
  wordsObjectNameOf,
  type CacheCommitRequest,
} from '@router/contracts';
import type { Sql } from '@router/db';
import { CacheIndex } from '@router/pipeline';
import { servicesEnv } from '@router/testing';
import { VENDOR_IDS, type VendorId } from '@router/vendors-core';
import { CacheTestKit, DAY_MS, eventually, openTestDatabase, s3TestStore } from './test/cache-test-kit';

const GRACE_MS = 15 * 60 * 1000;

/** The index's statements as sent, counting its lookups: a key its filter rules out sends none. */
class CountedSql implements Sql {
  lookups = 0;

  constructor(private readonly sql: Sql) {}

  query<Row>(text: string, params?: readonly unknown[]): Promise<Row[]> {
    if (text.includes('JOIN orgs')) this.lookups += 1;
    return this.sql.query<Row>(text, params);
  }
}

/** The distributed shape: NATS between processes, the S3 emulator for blobs, PostgreSQL for the index. */
describe('cache service over NATS with the S3 store', () => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  let serviceBus: Bus;
  let clientBus: Bus;
  let blobs: BlobStore;
  let cleanupBlobs: () => Promise<void>;
  let kit: CacheTestKit;
  let prefix: string;

  beforeAll(async () => {
    db = await openTestDatabase('postgres');
    // A small listing page and sweep batch, so a few blobs already take several pages.
    ({ store: blobs, cleanup: cleanupBlobs } = await s3TestStore(2));
    prefix = `cachetest${randomUUID().slice(0, 8)}`;
    const url = servicesEnv().natsUrl;
    // Generous deadlines: the test machine is shared and often busy.
    const requestTimeoutMs = 20_000;
    serviceBus = createBus({ kind: 'nats', url, prefix, name: 'cache-test-service', requestTimeoutMs });
    clientBus = createBus({ kind: 'nats', url, prefix, name: 'cache-test-client', requestTimeoutMs });
    // One delete at a time: s3rver fails concurrent deletes of sibling keys now and then.
    kit = await new CacheTestKit({
      db,
      bus: serviceBus,
      blobs,
      settings: { sweepBatchSize: 2, deleteConcurrency: 1 },
    }).ready();
  });
  afterAll(async () => {
    await kit?.close();
    await clientBus?.close();
    await serviceBus?.close();
    await cleanupBlobs?.();
    await db?.drop();
  });

  it('commits a take written to S3, sent from another connection, and the index reader finds it', async () => {
    const orgId = await kit.createOrg();
    const take = await kit.writeTake(orgId, 'over nats', { bytes: 2048, words: true });
    const index = new CacheIndex(db.sql, clientBus, {
      keysReloadMs: 60_000,
      servedVendors: ['vendor_a'],
      now: Date.now,
    });
    await index.ready();
    await expect(index.lookup(orgId, take.cacheKey)).resolves.toBeNull();
    await expect(clientBus.request(cacheCommitV1, take)).resolves.toEqual({ committed: true });
    await expect(index.lookup(orgId, take.cacheKey)).resolves.toEqual({
      objectName: take.objectName,
      contentType: 'audio/mpeg',
      byteSize: 2048,
      hasTimings: true,
    });
    index.close();
  });

  it("tells a mirror's key filter of its vendor's commits only, and native-api's of every vendor's", async () => {
    const orgId = await kit.createOrg();
    // Each serving app on its own connection, as in production. A clock that stands still keeps the filters
    // from being read again, which would bring in the keys without their events.
    const serving = async (name: string, servedVendors: readonly VendorId[]) => {
      const sql = new CountedSql(db.sql);
      const bus = createBus({ kind: 'nats', url: servicesEnv().natsUrl, prefix, name });
      const index = new CacheIndex(sql, bus, { keysReloadMs: 60_000, servedVendors, now: () => 0 });
      await index.ready();
      return { sql, bus, index };
    };
    const mirror = await serving('cache-test-mirror-vendor-b', ['vendor_b']);
    const native = await serving('cache-test-native-api', VENDOR_IDS);
    const apps = [mirror, native];
    try {
      // The org's filters read: a key they rule out is answered without a lookup.
      for (const { sql, index } of apps) {
        await eventually(async () => {
          const before = sql.lookups;
          await expect(index.lookup(orgId, randomBytes(32).toString('hex'))).resolves.toBeNull();
          expect(sql.lookups).toBe(before);
        }, 20_000);
      }
      const saidByA = await kit.writeTake(orgId, 'said by vendor_a', { provider: 'vendor_a' });
      const saidByB = await kit.writeTake(orgId, 'said by vendor_b', { provider: 'vendor_b' });
      await expect(clientBus.request(cacheCommitV1, saidByA)).resolves.toEqual({ committed: true });
      await expect(clientBus.request(cacheCommitV1, saidByB)).resolves.toEqual({ committed: true });
      for (const { index } of apps) {
        await eventually(async () => {
          await expect(index.lookup(orgId, saidByB.cacheKey)).resolves.toMatchObject({
            objectName: saidByB.objectName,
          });
        }, 20_000);
      }
      // vendor_a's event left cache-service before vendor_b's, and NATS keeps a publisher's order: had the
      // mirror's connection been sent it, it would have come first. Its row is there; the filter rules it out.
      expect(await kit.entry(orgId, saidByA.cacheKey)).not.toBeNull();
      const before = mirror.sql.lookups;
      await expect(mirror.index.lookup(orgId, saidByA.cacheKey)).resolves.toBeNull();
      expect(mirror.sql.lookups).toBe(before);
      await expect(native.index.lookup(orgId, saidByA.cacheKey)).resolves.toMatchObject({
        objectName: saidByA.objectName,
      });
    } finally {
      for (const { bus, index } of apps) {
        index.close();
        await bus.close();
      }
    }
  });

  it('refuses at retention 0 and removes the blob from S3', async () => {
    const orgId = await kit.createOrg(0);
    const take = await kit.writeTake(orgId, 'zero');
    await expect(clientBus.request(cacheCommitV1, take)).resolves.toEqual({ committed: false });
    expect(await kit.blobExists(take.objectName)).toBe(false);
  });

  it("takes usage events published over NATS, one by one (a worker's) and in batches (a serving app's hits), into batched counters and last use", async () => {
    const orgId = await kit.createOrg();
    const take = await kit.writeTake(orgId, 'popular', { chars: 12 });
    await clientBus.request(cacheCommitV1, take);
    const committedDay = new Date(kit.clock.value).toISOString().slice(0, 10);
    kit.clock.advance(3 * DAY_MS);
    const hitDay = new Date(kit.clock.value).toISOString().slice(0, 10);
    for (let i = 0; i < 5; i++) {
      await clientBus.publish(cacheUsageV1, { ...take, chars: 12, kind: 'hit' });
    }
    const hit = { orgId, cacheKey: take.cacheKey, provider: take.provider, chars: 12, kind: 'hit' as const };
    await clientBus.publish(cacheUsageBatchV1, { events: Array.from({ length: 20 }, () => hit) });
    await eventually(async () => {
      await kit.service.flushUsage();
      expect(await kit.counters(orgId)).toEqual([
        { day: committedDay, provider: 'vendor_a', synthesizedChars: 12, servedFromCacheChars: 0 },
        { day: hitDay, provider: 'vendor_a', synthesizedChars: 0, servedFromCacheChars: 25 * 12 },
      ]);
    });
    expect((await kit.entry(orgId, take.cacheKey))?.lastUsedAt.getTime()).toBe(kit.clock.value);
  });

  it('sweeps expired entries out of S3 and publishes the invalidation over NATS', async () => {
    const orgId = await kit.createOrg(7);
    const takes: CacheCommitRequest[] = [];
    for (const label of ['p', 'q', 'r']) {
      const take = await kit.writeTake(orgId, label, { words: true });
      await clientBus.request(cacheCommitV1, take);
      takes.push(take);
    }
    const received: string[] = [];
    const sub = clientBus.subscribe(cacheInvalidatedV1, (event) => {
      if (event.orgId === orgId) received.push(...(event.cacheKeys ?? []));
    });
    await sub.ready();
    try {
      kit.clock.advance(8 * DAY_MS);
      await expect(kit.service.sweepNow()).resolves.toMatchObject({ retention: { removedEntries: 3 } });
      for (const take of takes) {
        expect(await kit.blobExists(take.objectName)).toBe(false);
        expect(await kit.blobExists(wordsObjectNameOf(take.objectName))).toBe(false);
      }
      await eventually(async () => {
        expect(received.sort()).toEqual(takes.map((t) => t.cacheKey).sort());
      });
    } finally {
      sub.unsubscribe();
    }
  });

  it('removes uncommitted blobs past the grace period, page by page, and keeps indexed ones', async () => {
    kit.clock.set(Date.now());
    const orgId = await kit.createOrg();
    const indexed = await kit.writeTake(orgId, 'indexed');
    await clientBus.request(cacheCommitV1, indexed);
    const orphans = [];
    for (let i = 0; i < 5; i++) orphans.push(await kit.writeTake(orgId, `orphan${i}`));

    kit.clock.set(Date.now() + GRACE_MS - 10_000);
    await kit.service.sweepNow();
    for (const orphan of orphans) expect(await kit.blobExists(orphan.objectName)).toBe(true);

    kit.clock.set(Date.now() + GRACE_MS + 10_000);
    const report = await kit.service.sweepNow();
    expect(report.orphans.removedBlobs).toBeGreaterThanOrEqual(5);
    for (const orphan of orphans) expect(await kit.blobExists(orphan.objectName)).toBe(false);
    expect(await kit.blobExists(indexed.objectName)).toBe(true);
  });
});
