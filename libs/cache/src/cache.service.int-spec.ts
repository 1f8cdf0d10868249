import { createBus, type Bus } from '@router/bus';
import { Health } from '@router/observability';
import {
  cacheCommitV1,
  cacheUsageV1,
  healthCacheV1,
  wordsObjectNameOf,
  type CacheCommitRequest,
} from '@router/contracts';
import type { BlobStore } from '@router/blob-store';
import { CacheIndex } from '@router/pipeline';
import { VENDOR_IDS } from '@router/vendors-core';
import {
  CacheTestKit,
  DAY_MS,
  cacheKeyOf,
  eventually,
  fsTestStore,
  openTestDatabase,
  settle,
} from './test/cache-test-kit';

// PGlite runs initdb on each start: seconds on a loaded two-core machine.
const START_TIMEOUT_MS = 90_000;
const GRACE_MS = 15 * 60 * 1000;

describe.each(['postgres', 'pglite'] as const)(
  'cache service (%s, in-process bus, filesystem blobs)',
  (dbKind) => {
    let db: Awaited<ReturnType<typeof openTestDatabase>>;
    let bus: Bus;
    let blobs: BlobStore;
    let cleanupBlobs: () => Promise<void>;
    let kit: CacheTestKit;
    let index: CacheIndex;

    beforeAll(async () => {
      db = await openTestDatabase(dbKind);
    }, START_TIMEOUT_MS);
    afterAll(async () => {
      await db?.drop();
    });

    beforeEach(async () => {
      bus = createBus({ kind: 'memory', requestTimeoutMs: 20_000 });
      ({ store: blobs, cleanup: cleanupBlobs } = await fsTestStore());
      kit = await new CacheTestKit({ db, bus, blobs }).ready();
      index = new CacheIndex(db.sql, bus, { keysReloadMs: 60_000, servedVendors: VENDOR_IDS, now: Date.now });
      await index.ready();
    });
    afterEach(async () => {
      index.close();
      await kit.close();
      await bus.close();
      await cleanupBlobs();
      // Neither sentence text nor keys are ever logged: cache keys stand in for both here.
      for (const line of kit.logs) expect(line).not.toMatch(/[0-9a-f]{64}/);
    });

    /** This test's service with other settings or stores; one at a time, since replicas share requests. */
    const replaceKit = async (options: Partial<ConstructorParameters<typeof CacheTestKit>[0]>) => {
      await kit.close();
      kit = await new CacheTestKit({ db, bus, blobs, ...options }).ready();
      return kit;
    };
    const commit = (request: CacheCommitRequest) => bus.request(cacheCommitV1, request);
    // The serving apps' own reader of the index (libs/pipeline), with its key filter fed by this service's
    // commit events: what it finds is what commits and sweeps left.
    const lookup = async (orgId: string, cacheKey: string) => ({ hit: await index.lookup(orgId, cacheKey) });
    const hit = (take: CacheCommitRequest, chars = take.chars) =>
      bus.publish(cacheUsageV1, {
        orgId: take.orgId,
        cacheKey: take.cacheKey,
        provider: take.provider,
        chars,
        kind: 'hit',
      });

    describe('health', () => {
      it('answers health.cache.v1 with its uptime by the injected clock', async () => {
        kit.clock.advance(1234);
        const reply = await bus.request(healthCacheV1, {});
        expect(reply).toEqual({ service: 'cache-service', ok: true, uptimeMs: 1234 });
      });
    });

    describe('commit and lookup', () => {
      it('indexes a written take, then the lookup hits with its metadata', async () => {
        const orgId = await kit.createOrg();
        const take = await kit.writeTake(orgId, 'hello', { bytes: 321, words: true });
        await expect(lookup(orgId, take.cacheKey)).resolves.toEqual({ hit: null });

        await expect(commit(take)).resolves.toEqual({ committed: true });

        await expect(lookup(orgId, take.cacheKey)).resolves.toEqual({
          hit: {
            objectName: take.objectName,
            contentType: 'audio/mpeg',
            byteSize: 321,
            hasTimings: true,
          },
        });
        const row = await kit.entry(orgId, take.cacheKey);
        expect(row).toMatchObject({ provider: 'vendor_a', byteSize: 321, hasTimings: true });
        expect(row?.createdAt.getTime()).toBe(kit.clock.value);
        expect(row?.lastUsedAt.getTime()).toBe(kit.clock.value);
      });

      it('keeps orgs apart: another org with the same key misses', async () => {
        const orgA = await kit.createOrg();
        const orgB = await kit.createOrg();
        const take = await kit.writeTake(orgA, 'shared');
        await commit(take);
        await expect(lookup(orgB, take.cacheKey)).resolves.toEqual({ hit: null });
      });

      it('counts a commit’s characters as synthesized for the org, day and provider', async () => {
        const orgId = await kit.createOrg();
        kit.clock.set(Date.parse('2026-03-01T12:00:00Z'));
        await commit(await kit.writeTake(orgId, 'one', { chars: 11, provider: 'vendor_c' }));
        await commit(await kit.writeTake(orgId, 'two', { chars: 5, provider: 'vendor_c' }));
        expect(await kit.counters(orgId)).toEqual([]);
        await kit.service.flushUsage();
        expect(await kit.counters(orgId)).toEqual([
          { day: '2026-03-01', provider: 'vendor_c', synthesizedChars: 16, servedFromCacheChars: 0 },
        ]);
        expect(await kit.takes(orgId)).toEqual([
          { day: '2026-03-01', provider: 'vendor_c', synthesized: 2, served: 0 },
        ]);
      });

      it('refuses a take written longer ago than the orphan grace, and deletes its blobs', async () => {
        const orgId = await kit.createOrg();
        const old = await kit.writeTake(orgId, 'late', {
          words: true,
          writtenAt: kit.clock.value - GRACE_MS - 1,
        });
        await expect(commit(old)).resolves.toEqual({ committed: false });
        expect(await kit.entry(orgId, old.cacheKey)).toBeNull();
        expect(await kit.blobExists(old.objectName)).toBe(false);
        expect(await kit.blobExists(wordsObjectNameOf(old.objectName))).toBe(false);
        expect(kit.logs.join('')).toContain('orphan grace');
        // At the grace exactly it is still indexed.
        const edge = await kit.writeTake(orgId, 'edge', { writtenAt: kit.clock.value - GRACE_MS });
        await expect(commit(edge)).resolves.toEqual({ committed: true });
      });

      it('refuses an object name that is not a take of that org and key, and leaves its blobs alone', async () => {
        const orgId = await kit.createOrg();
        const take = await kit.writeTake(orgId, 'elsewhere', { words: true });
        const other = await kit.writeTake(orgId, 'other');
        const otherOrg = await kit.writeTake(await kit.createOrg(), 'elsewhere');
        const base = take.objectName.slice(0, -'.audio'.length);
        for (const objectName of [
          other.objectName,
          otherOrg.objectName,
          wordsObjectNameOf(take.objectName),
          `${take.orgId}/${take.cacheKey}.audio`,
          `${base.replace(/\/[^/]+$/, '/not-a-take-id')}.audio`,
          `${base}.mp3`,
        ]) {
          await expect(commit({ ...take, objectName })).resolves.toEqual({ committed: false });
        }
        expect(await kit.entry(orgId, take.cacheKey)).toBeNull();
        for (const name of [take.objectName, wordsObjectNameOf(take.objectName), other.objectName])
          expect(await kit.blobExists(name)).toBe(true);
      });

      it('refuses an unknown org, and deletes the take’s blobs', async () => {
        const orgId = '00000000-0000-4000-8000-000000000000';
        const take = await kit.writeTake(orgId, 'nobody');
        await expect(commit(take)).resolves.toEqual({ committed: false });
        expect(await kit.blobExists(take.objectName)).toBe(false);
      });

      it('at retention 0 refuses the take and deletes its blobs', async () => {
        const orgId = await kit.createOrg(0);
        const take = await kit.writeTake(orgId, 'not kept', { words: true });
        await expect(commit(take)).resolves.toEqual({ committed: false });
        expect(await kit.entry(orgId, take.cacheKey)).toBeNull();
        expect(await kit.blobExists(take.objectName)).toBe(false);
        expect(await kit.blobExists(wordsObjectNameOf(take.objectName))).toBe(false);
        // Still counted: the vendor synthesized it.
        await kit.service.flushUsage();
        expect((await kit.counters(orgId))[0]?.synthesizedChars).toBe(take.chars);
      });

      it('keeps the first take of a key: a second one is refused and its blobs deleted at once', async () => {
        const orgId = await kit.createOrg();
        const first = await kit.writeTake(orgId, 'twice', { bytes: 100, words: true });
        await expect(commit(first)).resolves.toEqual({ committed: true });
        const firstRow = await kit.entry(orgId, first.cacheKey);

        kit.clock.advance(1000);
        const second = await kit.writeTake(orgId, 'twice', { bytes: 120 });
        expect(second.objectName).not.toBe(first.objectName);
        await expect(commit(second)).resolves.toEqual({ committed: false });
        // The first commit again (a retried request) is still committed, and changes nothing.
        await expect(commit(first)).resolves.toEqual({ committed: true });

        const rows = await kit.prisma.cacheEntry.findMany({ where: { orgId } });
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({
          id: firstRow?.id,
          objectName: first.objectName,
          byteSize: 100,
          hasTimings: true,
          createdAt: firstRow?.createdAt,
        });
        await expect(lookup(orgId, first.cacheKey)).resolves.toMatchObject({
          hit: { objectName: first.objectName, byteSize: 100 },
        });
        expect(await kit.blobExists(second.objectName)).toBe(false);
        expect(await kit.blobExists(first.objectName)).toBe(true);
        expect(await kit.blobExists(wordsObjectNameOf(first.objectName))).toBe(true);
      });

      it('replaces a take only when the committer names it (its blob was found gone)', async () => {
        const orgId = await kit.createOrg();
        const first = await kit.writeTake(orgId, 'lost', { bytes: 100 });
        await expect(commit(first)).resolves.toEqual({ committed: true });
        kit.clock.advance(1000);
        const other = await kit.writeTake(orgId, 'lost', { bytes: 90 });
        await expect(commit({ ...other, replaces: `${first.objectName}.not-it` })).resolves.toEqual({
          committed: false,
        });
        const second = await kit.writeTake(orgId, 'lost', { bytes: 120 });
        await expect(commit({ ...second, replaces: first.objectName })).resolves.toEqual({ committed: true });
        await expect(lookup(orgId, first.cacheKey)).resolves.toMatchObject({
          hit: { objectName: second.objectName, byteSize: 120 },
        });
        // The replaced take's blobs are the orphan sweep's once the grace has passed.
        kit.clock.advance(GRACE_MS + 10_000);
        await kit.service.sweepNow();
        expect(await kit.blobExists(first.objectName)).toBe(false);
        expect(await kit.blobExists(second.objectName)).toBe(true);
      });

      it('commits the same key concurrently into one row', async () => {
        const orgId = await kit.createOrg();
        const take = await kit.writeTake(orgId, 'racing');
        const replies = await Promise.all([commit(take), commit(take), commit(take)]);
        expect(replies).toEqual([{ committed: true }, { committed: true }, { committed: true }]);
        expect(await kit.prisma.cacheEntry.count({ where: { orgId } })).toBe(1);
      });

      it('misses for ids the index cannot hold', async () => {
        await expect(lookup('not-a-uuid', cacheKeyOf('x'))).resolves.toEqual({ hit: null });
        await expect(lookup('4F2C3B1A-0000-4000-8000-000000000000', cacheKeyOf('x'))).resolves.toEqual({
          hit: null,
        });
      });
    });

    describe('usage', () => {
      it('batches many hits into one flush: last use and served characters, nothing written before', async () => {
        const orgId = await kit.createOrg();
        const committedAt = kit.clock.value;
        const takes = [
          await kit.writeTake(orgId, 'a', { provider: 'vendor_b' }),
          await kit.writeTake(orgId, 'b', { provider: 'vendor_b' }),
          await kit.writeTake(orgId, 'c', { provider: 'vendor_b' }),
        ];
        for (const take of takes) await commit(take);
        await kit.service.flushUsage();

        kit.clock.advance(5 * DAY_MS);
        const hitAt = kit.clock.value;
        for (let i = 0; i < 60; i++) await hit(takes[i % 2], 7);
        await settle();

        for (const take of takes)
          expect((await kit.entry(orgId, take.cacheKey))?.lastUsedAt.getTime()).toBe(committedAt);
        const day = new Date(hitAt).toISOString().slice(0, 10);
        expect((await kit.counters(orgId)).find((c) => c.day === day)).toBeUndefined();

        await expect(kit.service.flushUsage()).resolves.toEqual({ refreshedEntries: 2, counters: 1 });

        expect((await kit.entry(orgId, takes[0].cacheKey))?.lastUsedAt.getTime()).toBe(hitAt);
        expect((await kit.entry(orgId, takes[1].cacheKey))?.lastUsedAt.getTime()).toBe(hitAt);
        expect((await kit.entry(orgId, takes[2].cacheKey))?.lastUsedAt.getTime()).toBe(committedAt);
        expect((await kit.counters(orgId)).find((c) => c.day === day)).toEqual({
          day,
          provider: 'vendor_b',
          synthesizedChars: 0,
          servedFromCacheChars: 60 * 7,
        });
        // Nothing left to write.
        await expect(kit.service.flushUsage()).resolves.toEqual({ refreshedEntries: 0, counters: 0 });
      });

      it('adds to existing counters, splits by UTC day and provider, and counts synthesized events', async () => {
        const orgId = await kit.createOrg();
        const take = await kit.writeTake(orgId, 'day', { chars: 4 });
        kit.clock.set(Date.parse('2026-06-30T23:59:59.000Z'));
        await commit(take);
        await hit(take, 10);
        await bus.publish(cacheUsageV1, { ...take, chars: 9, kind: 'synthesized', provider: 'vendor_h' });
        await settle();
        await kit.service.flushUsage();
        kit.clock.set(Date.parse('2026-07-01T00:00:00.000Z'));
        await hit(take, 3);
        await hit(take, 2);
        await settle();
        await kit.service.flushUsage();
        kit.clock.advance(60_000);
        await hit(take, 1);
        await settle();
        await kit.service.flushUsage();

        expect(await kit.counters(orgId)).toEqual([
          { day: '2026-06-30', provider: 'vendor_a', synthesizedChars: 4, servedFromCacheChars: 10 },
          { day: '2026-06-30', provider: 'vendor_h', synthesizedChars: 9, servedFromCacheChars: 0 },
          { day: '2026-07-01', provider: 'vendor_a', synthesizedChars: 0, servedFromCacheChars: 6 },
        ]);
        // One take per event: the dashboard's share of sentences served from cache.
        expect(await kit.takes(orgId)).toEqual([
          { day: '2026-06-30', provider: 'vendor_a', synthesized: 1, served: 1 },
          { day: '2026-06-30', provider: 'vendor_h', synthesized: 1, served: 0 },
          { day: '2026-07-01', provider: 'vendor_a', synthesized: 0, served: 3 },
        ]);
      });

      it("counts every take and its characters in the app's metrics, by kind and vendor", async () => {
        const metrics = new Health('cache-test').metrics;
        const counted = await replaceKit({ metrics });
        const orgId = await counted.createOrg();
        const take = await counted.writeTake(orgId, 'counted', { chars: 4, provider: 'vendor_d' });
        await commit(take);
        await hit(take, 10);
        await hit(take, 10);
        await bus.publish(cacheUsageV1, { ...take, chars: 9, kind: 'synthesized', provider: 'vendor_h' });
        await settle();
        const lines = (await metrics.metrics())
          .split('\n')
          .filter((line) => line.startsWith('router_cache_usage'));
        expect(lines.sort()).toEqual(
          [
            'router_cache_usage_total{kind="synthesized",vendor="vendor_d",service="cache-test"} 1',
            'router_cache_usage_total{kind="hit",vendor="vendor_d",service="cache-test"} 2',
            'router_cache_usage_total{kind="synthesized",vendor="vendor_h",service="cache-test"} 1',
            'router_cache_usage_chars_total{kind="synthesized",vendor="vendor_d",service="cache-test"} 4',
            'router_cache_usage_chars_total{kind="hit",vendor="vendor_d",service="cache-test"} 20',
            'router_cache_usage_chars_total{kind="synthesized",vendor="vendor_h",service="cache-test"} 9',
          ].sort(),
        );
      });

      it('never moves last use back, and ignores hits for entries or orgs that are not there', async () => {
        const orgId = await kit.createOrg();
        const take = await kit.writeTake(orgId, 'late');
        await commit(take);
        const committedAt = kit.clock.value;
        kit.clock.advance(-DAY_MS);
        await hit(take);
        await hit({ ...take, cacheKey: cacheKeyOf('absent') });
        await hit({ ...take, orgId: '00000000-0000-4000-8000-000000000001' });
        await settle();
        await expect(kit.service.flushUsage()).resolves.toMatchObject({ refreshedEntries: 1 });
        expect((await kit.entry(orgId, take.cacheKey))?.lastUsedAt.getTime()).toBe(committedAt);
      });

      it('flushes on its own every usageFlushMs', async () => {
        const timed = await replaceKit({ settings: { usageFlushMs: 30 } });
        const orgId = await timed.createOrg();
        const take = await timed.writeTake(orgId, 'timer');
        await commit(take);
        timed.clock.advance(DAY_MS);
        await hit(take);
        await eventually(async () => {
          expect((await timed.entry(orgId, take.cacheKey))?.lastUsedAt.getTime()).toBe(timed.clock.value);
        }, 3000);
      });

      it('writes buffered usage when it closes', async () => {
        const orgId = await kit.createOrg();
        const take = await kit.writeTake(orgId, 'closing');
        await commit(take);
        await hit(take, 8);
        await settle();
        await kit.close();
        expect((await kit.counters(orgId))[0]?.servedFromCacheChars).toBe(8);
      });
    });

    describe('retention sweep', () => {
      it('keeps an entry until its retention has passed since last use, then removes row, blobs and hot copies', async () => {
        const orgId = await kit.createOrg(30);
        const take = await kit.writeTake(orgId, 'aging', { words: true });
        await commit(take);
        const start = kit.clock.value;

        kit.clock.set(start + 30 * DAY_MS - 60_000);
        await expect(kit.service.sweepNow()).resolves.toMatchObject({ retention: { removedEntries: 0 } });
        expect(await kit.entry(orgId, take.cacheKey)).not.toBeNull();
        expect(kit.invalidations).toEqual([]);

        kit.clock.set(start + 31 * DAY_MS);
        await expect(kit.service.sweepNow()).resolves.toMatchObject({
          retention: { removedEntries: 1, orgs: 1 },
        });
        expect(await kit.entry(orgId, take.cacheKey)).toBeNull();
        expect(await kit.blobExists(take.objectName)).toBe(false);
        expect(await kit.blobExists(wordsObjectNameOf(take.objectName))).toBe(false);
        await expect(lookup(orgId, take.cacheKey)).resolves.toEqual({ hit: null });
        await settle();
        expect(kit.invalidations).toEqual([{ orgId, cacheKeys: [take.cacheKey] }]);
      });

      it('counts retention from the last use, including hits not yet flushed', async () => {
        const orgId = await kit.createOrg(10);
        const take = await kit.writeTake(orgId, 'used');
        await commit(take);
        const start = kit.clock.value;

        kit.clock.set(start + 9 * DAY_MS);
        await hit(take);
        await settle();
        kit.clock.set(start + 11 * DAY_MS);
        await kit.service.sweepNow();
        expect(await kit.entry(orgId, take.cacheKey)).not.toBeNull();

        kit.clock.set(start + 20 * DAY_MS);
        await kit.service.sweepNow();
        expect(await kit.entry(orgId, take.cacheKey)).toBeNull();
      });

      it('applies a retention change to entries already cached, per org', async () => {
        const orgId = await kit.createOrg(365);
        const otherOrg = await kit.createOrg(365);
        const take = await kit.writeTake(orgId, 'changed');
        const kept = await kit.writeTake(otherOrg, 'unchanged');
        await commit(take);
        await commit(kept);

        kit.clock.advance(40 * DAY_MS);
        await kit.service.sweepNow();
        expect(await kit.entry(orgId, take.cacheKey)).not.toBeNull();

        await kit.prisma.org.update({ where: { id: orgId }, data: { retentionDays: 30 } });
        await kit.service.sweepNow();
        expect(await kit.entry(orgId, take.cacheKey)).toBeNull();
        expect(await kit.blobExists(take.objectName)).toBe(false);
        expect(await kit.entry(otherOrg, kept.cacheKey)).not.toBeNull();
        expect(await kit.blobExists(kept.objectName)).toBe(true);
      });

      it('at retention 0 stops serving at once and removes every entry of the org at the next sweep', async () => {
        const orgId = await kit.createOrg(365);
        const takes: CacheCommitRequest[] = [];
        for (const label of ['x', 'y', 'z']) {
          const take = await kit.writeTake(orgId, label, { words: label === 'y' });
          await commit(take);
          takes.push(take);
        }
        await kit.prisma.org.update({ where: { id: orgId }, data: { retentionDays: 0 } });
        await expect(lookup(orgId, takes[0].cacheKey)).resolves.toEqual({ hit: null });

        // A take committed now is refused and its blobs deleted; the row already there keeps its own.
        const refused = await kit.writeTake(orgId, 'x');
        await expect(commit(refused)).resolves.toEqual({ committed: false });
        expect(await kit.blobExists(refused.objectName)).toBe(false);
        expect(await kit.blobExists(takes[0].objectName)).toBe(true);

        await expect(kit.service.sweepNow()).resolves.toMatchObject({
          retention: { removedEntries: 3, orgs: 1 },
        });
        expect(await kit.prisma.cacheEntry.count({ where: { orgId } })).toBe(0);
        for (const take of takes) {
          expect(await kit.blobExists(take.objectName)).toBe(false);
          expect(await kit.blobExists(wordsObjectNameOf(take.objectName))).toBe(false);
        }
        await settle();
        expect(kit.invalidations).toHaveLength(1);
        expect(kit.invalidations[0]?.orgId).toBe(orgId);
        expect([...(kit.invalidations[0]?.cacheKeys ?? [])].sort()).toEqual(
          takes.map((t) => t.cacheKey).sort(),
        );
      });

      it('works through more entries than one batch, one invalidation per org and batch', async () => {
        const small = await replaceKit({ settings: { sweepBatchSize: 2 } });
        const orgId = await small.createOrg(1);
        for (let i = 0; i < 5; i++) await commit(await small.writeTake(orgId, `n${i}`));
        small.clock.advance(2 * DAY_MS);
        await expect(small.service.sweepNow()).resolves.toMatchObject({ retention: { removedEntries: 5 } });
        expect(await small.prisma.cacheEntry.count({ where: { orgId } })).toBe(0);
        await settle();
        expect(small.invalidations.map((e) => e.cacheKeys?.length)).toEqual([2, 2, 1]);
      });
    });

    describe('request log sweep', () => {
      it('removes rows older than requestLogRetentionDays, in batches, and keeps the rest', async () => {
        const small = await replaceKit({ settings: { requestLogRetentionDays: 7, sweepBatchSize: 2 } });
        const orgId = await small.createOrg(30);
        const now = small.clock.value;
        const row = (ageDays: number) => ({
          orgId,
          startedAt: new Date(now - ageDays * DAY_MS),
          surface: 'speech',
          vendor: 'vendor_a',
          durationMs: 10,
          status: 'ok',
        });
        await small.prisma.requestLogEntry.createMany({
          data: [row(8), row(9), row(30), row(6), row(0)],
        });
        await expect(small.service.sweepNow()).resolves.toMatchObject({ requestLog: { removedRows: 3 } });
        const left = await small.prisma.requestLogEntry.findMany({
          where: { orgId },
          orderBy: { startedAt: 'asc' },
        });
        expect(left.map((r) => r.startedAt.getTime())).toEqual([now - 6 * DAY_MS, now]);
      });
    });

    describe('orphan sweep', () => {
      it('removes a blob a killed worker wrote but never committed, once older than the grace period', async () => {
        const orgId = await kit.createOrg();
        const take = await kit.writeTake(orgId, 'killed worker', { words: true });
        // The worker died here: no commit.
        expect(await kit.entry(orgId, take.cacheKey)).toBeNull();

        kit.clock.advance(GRACE_MS - 5000);
        await expect(kit.service.sweepNow()).resolves.toMatchObject({ orphans: { removedBlobs: 0 } });
        expect(await kit.blobExists(take.objectName)).toBe(true);

        kit.clock.advance(10_000);
        await expect(kit.service.sweepNow()).resolves.toMatchObject({ orphans: { removedBlobs: 2 } });
        expect(await kit.blobExists(take.objectName)).toBe(false);
        expect(await kit.blobExists(wordsObjectNameOf(take.objectName))).toBe(false);
        expect(await kit.entry(orgId, take.cacheKey)).toBeNull();
      });

      it('removes take claims older than the grace period (their takes could no longer commit)', async () => {
        const orgId = await kit.createOrg();
        const key = (c: string) => c.repeat(64);
        await kit.prisma.takeClaim.createMany({
          data: [
            {
              orgId,
              cacheKey: key('a'),
              workerId: 'w1',
              claimedAt: new Date(kit.clock.value - GRACE_MS - 1000),
            },
            {
              orgId,
              cacheKey: key('b'),
              workerId: 'w1',
              claimedAt: new Date(kit.clock.value - GRACE_MS + 5000),
            },
          ],
        });
        await expect(kit.service.sweepNow()).resolves.toMatchObject({ orphans: { removedClaims: 1 } });
        const left = await kit.prisma.takeClaim.findMany({ where: { orgId } });
        expect(left.map((c) => c.cacheKey)).toEqual([key('b')]);
        await kit.prisma.takeClaim.deleteMany({ where: { orgId } });
      });

      it('keeps blobs that have rows, however old, and removes names the cache never writes', async () => {
        const orgId = await kit.createOrg();
        const indexed = await kit.writeTake(orgId, 'indexed', { words: true });
        await commit(indexed);
        await kit.blobs.put('stray/leftover.bin', Buffer.from('x'));
        kit.clock.advance(GRACE_MS + 10_000);

        const report = await kit.service.sweepNow();
        expect(report.orphans).toEqual({ scannedBlobs: 3, removedBlobs: 1, removedClaims: 0 });
        expect(await kit.blobExists(indexed.objectName)).toBe(true);
        expect(await kit.blobExists(wordsObjectNameOf(indexed.objectName))).toBe(true);
        expect(await kit.blobExists('stray/leftover.bin')).toBe(false);
      });

      it('pages through the store a batch at a time', async () => {
        const small = await replaceKit({ settings: { sweepBatchSize: 3 } });
        const orgId = await small.createOrg();
        const committed: CacheCommitRequest[] = [];
        for (let i = 0; i < 4; i++) {
          const take = await small.writeTake(orgId, `kept${i}`);
          await commit(take);
          committed.push(take);
        }
        for (let i = 0; i < 7; i++) await small.writeTake(orgId, `orphan${i}`);
        small.clock.advance(GRACE_MS + 10_000);
        await expect(small.service.sweepNow()).resolves.toMatchObject({
          orphans: { scannedBlobs: 11, removedBlobs: 7 },
        });
        const left: string[] = [];
        for await (const blob of blobs.list('')) left.push(blob.name);
        expect(left.sort()).toEqual(committed.map((t) => t.objectName).sort());
      });
    });

    describe('races between a commit and a sweep', () => {
      it('never indexes a take whose blobs the orphan sweep may have removed', async () => {
        const orgId = await kit.createOrg();
        const take = await kit.writeTake(orgId, 'slow commit');
        // The worker's commit is held up past the grace; the sweep, seeing no row, removes the blob.
        kit.clock.advance(GRACE_MS + 10_000);
        await expect(kit.service.sweepNow()).resolves.toMatchObject({ orphans: { removedBlobs: 1 } });
        await expect(commit(take)).resolves.toEqual({ committed: false });
        expect(await kit.entry(orgId, take.cacheKey)).toBeNull();
      });

      it('keeps a take of the same key committed while the sweep deletes the expired one', async () => {
        const orgId = await kit.createOrg(1);
        const expired = await kit.writeTake(orgId, 'recommitted');
        await commit(expired);
        let fresh: CacheCommitRequest | undefined;
        await replaceKit({
          blobs: delegate(blobs, {
            delete: async (name) => {
              if (name === expired.objectName) {
                // A worker's commit landing after the sweep removed the row, before it removes the blob.
                fresh = await kit.writeTake(orgId, 'recommitted');
                await expect(commit(fresh)).resolves.toEqual({ committed: true });
              }
              return blobs.delete(name);
            },
          }),
        });
        kit.clock.advance(2 * DAY_MS);
        await expect(kit.service.sweepNow()).resolves.toMatchObject({ retention: { removedEntries: 1 } });
        expect(fresh).toBeDefined();
        expect(await kit.blobExists(expired.objectName)).toBe(false);
        expect(await kit.entry(orgId, expired.cacheKey)).toMatchObject({ objectName: fresh?.objectName });
        expect(await kit.blobExists(fresh?.objectName ?? '')).toBe(true);
        await expect(lookup(orgId, expired.cacheKey)).resolves.toMatchObject({
          hit: { objectName: fresh?.objectName },
        });
      });
    });

    it('shares one running sweep between callers', async () => {
      const [a, b] = await Promise.all([kit.service.sweepNow(), kit.service.sweepNow()]);
      expect(a).toBe(b);
    });
  },
);

/** The store with some methods replaced, to step into the middle of an operation. */
function delegate(store: BlobStore, overrides: Partial<BlobStore>): BlobStore {
  return {
    ready: () => store.ready(),
    ping: () => store.ping(),
    put: (name, data, meta) => store.put(name, data, meta),
    get: (name) => store.get(name),
    getStream: (name) => store.getStream(name),
    stat: (name) => store.stat(name),
    delete: (name) => store.delete(name),
    list: (prefix) => store.list(prefix),
    close: () => store.close(),
    ...overrides,
  };
}
