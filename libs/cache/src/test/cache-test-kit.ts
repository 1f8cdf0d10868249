import { createHash, randomUUID } from 'node:crypto';
import type { Registry } from 'prom-client';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'minio';
import { Agent } from 'node:http';
import { createBlobStore, type BlobStore } from '@router/blob-store';
import type { Bus } from '@router/bus';
import {
  cacheInvalidatedV1,
  cacheObjectNames,
  newTakeId,
  type CacheCommitRequest,
  type CacheInvalidated,
} from '@router/contracts';
import { createDatabase, type Database } from '@router/db';
import { createLogger } from '@router/observability';
// Tests only: the boundary rule has no exemption for test helpers, and copying these would duplicate them.
import { createScratchDatabase, servicesEnv, type ScratchDatabase } from '@router/testing';
import { serveCache, type CacheService } from '../cache.service';
import type { CacheServiceSettings } from '../cache.settings';

export const DAY_MS = 24 * 60 * 60 * 1000;

/** A database for one test file: a scratch PostgreSQL database, or an in-memory PGlite (standalone mode). */
export async function openTestDatabase(
  kind: 'postgres' | 'pglite',
): Promise<Database & { drop(): Promise<void> }> {
  let scratch: ScratchDatabase | undefined;
  const db =
    kind === 'postgres'
      ? await createDatabase({ url: (scratch = await createScratchDatabase('cache')).url })
      : await createDatabase({ pgliteDataDir: 'memory://' });
  await db.migrate();
  return Object.assign(db, {
    drop: async () => {
      await db.close();
      await scratch?.drop();
    },
  });
}

export async function fsTestStore(): Promise<{ store: BlobStore; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'cache-blobs-'));
  const store = createBlobStore({ kind: 'fs', root });
  await store.ready();
  return { store, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** A fresh bucket on the S3 emulator that tools/services/ensure.sh runs; removed with its blobs afterwards. */
export async function s3TestStore(
  listPageSize: number,
): Promise<{ store: BlobStore; cleanup: () => Promise<void> }> {
  const { endpoint, accessKey, secretKey } = servicesEnv().s3;
  const bucket = `cache-test-${randomUUID().slice(0, 12)}`;
  const store = createBlobStore({ kind: 's3', endpoint, accessKey, secretKey, bucket, listPageSize });
  await store.ready();
  return {
    store,
    cleanup: async () => {
      const names: string[] = [];
      for await (const entry of store.list('')) names.push(entry.name);
      // One at a time: s3rver fails concurrent deletes of sibling keys now and then.
      for (const name of names) await store.delete(name);
      await store.close();
      const url = new URL(endpoint);
      const client = new Client({
        endPoint: url.hostname,
        port: Number(url.port),
        useSSL: url.protocol === 'https:',
        accessKey,
        secretKey,
        pathStyle: true,
        transportAgent: new Agent({ keepAlive: false }),
      });
      await client.removeBucket(bucket);
    },
  };
}

export function cacheKeyOf(label: string): string {
  return createHash('sha256').update(label).digest('hex');
}

/** A clock the test moves by hand; it starts at the real time so blob ages (set by the store) make sense. */
export class TestClock {
  value = Date.now();
  readonly now = (): number => this.value;
  advance(ms: number): void {
    this.value += ms;
  }
  set(ms: number): void {
    this.value = ms;
  }
}

export interface TakeOptions {
  provider?: string;
  bytes?: number;
  words?: boolean;
  chars?: number;
  /** When the worker wrote the take, by the kit's clock; now if absent. */
  writtenAt?: number;
}

export interface CacheTestKitOptions {
  db: Database;
  bus: Bus;
  blobs: BlobStore;
  settings?: Partial<CacheServiceSettings>;
  /** The app's metrics, where usage is counted. */
  metrics?: Registry;
}

/** One cache service on the given stores with a hand-moved clock, a log capture and an invalidation capture. */
export class CacheTestKit {
  readonly clock = new TestClock();
  readonly logs: string[] = [];
  readonly invalidations: CacheInvalidated[] = [];
  readonly service: CacheService;
  private readonly invalidationSub;

  constructor(private readonly options: CacheTestKitOptions) {
    const logger = createLogger({
      service: 'cache-test',
      level: 'debug',
      destination: { write: (line: string) => void this.logs.push(line) },
    });
    this.service = serveCache(
      {
        bus: options.bus,
        prisma: options.db.prisma,
        sql: options.db.sql,
        blobs: options.blobs,
        logger,
        now: this.clock.now,
        ...(options.metrics ? { metrics: options.metrics } : {}),
      },
      { usageFlushMs: 0, sweepIntervalMs: 0, ...options.settings },
    );
    this.invalidationSub = options.bus.subscribe(cacheInvalidatedV1, (event) => {
      this.invalidations.push(event);
    });
  }

  get prisma(): Database['prisma'] {
    return this.options.db.prisma;
  }

  get blobs(): BlobStore {
    return this.options.blobs;
  }

  async ready(): Promise<this> {
    await Promise.all([...this.service.subscriptions, this.invalidationSub].map((s) => s.ready()));
    return this;
  }

  async createOrg(retentionDays = 365): Promise<string> {
    const org = await this.prisma.org.create({ data: { name: `cache-test-${randomUUID()}`, retentionDays } });
    return org.id;
  }

  /** What a worker does before committing: writes the take's audio (and timings) under the cache's names. */
  async writeTake(orgId: string, label: string, options: TakeOptions = {}): Promise<CacheCommitRequest> {
    const cacheKey = cacheKeyOf(`${orgId}:${label}`);
    const bytes = options.bytes ?? 64;
    const names = cacheObjectNames(orgId, cacheKey, newTakeId(options.writtenAt ?? this.clock.now()));
    const objectName = names.audio;
    await this.blobs.put(objectName, Buffer.alloc(bytes, 7), { contentType: 'audio/mpeg' });
    if (options.words) await this.blobs.put(names.words, Buffer.from('[]'));
    return {
      orgId,
      cacheKey,
      provider: options.provider ?? 'vendor_a',
      objectName,
      contentType: 'audio/mpeg',
      byteSize: bytes,
      hasTimings: options.words ?? false,
      chars: options.chars ?? 20,
    };
  }

  async blobExists(name: string): Promise<boolean> {
    return (await this.blobs.stat(name)) !== null;
  }

  async entry(orgId: string, cacheKey: string) {
    return this.prisma.cacheEntry.findUnique({ where: { orgId_cacheKey: { orgId, cacheKey } } });
  }

  async counters(orgId: string) {
    const rows = await this.prisma.usageCounter.findMany({
      where: { orgId },
      orderBy: [{ day: 'asc' }, { provider: 'asc' }],
    });
    return rows.map((r) => ({
      day: r.day.toISOString().slice(0, 10),
      provider: r.provider,
      synthesizedChars: Number(r.synthesizedChars),
      servedFromCacheChars: Number(r.servedFromCacheChars),
    }));
  }

  /** The counters' takes (sentences or whole requests), beside their characters. */
  async takes(orgId: string) {
    const rows = await this.prisma.usageCounter.findMany({
      where: { orgId },
      orderBy: [{ day: 'asc' }, { provider: 'asc' }],
    });
    return rows.map((r) => ({
      day: r.day.toISOString().slice(0, 10),
      provider: r.provider,
      synthesized: Number(r.synthesizedTakes),
      served: Number(r.servedFromCacheTakes),
    }));
  }

  async close(): Promise<void> {
    this.invalidationSub.unsubscribe();
    await this.service.close();
  }
}

/** Polls `check` until it stops throwing or `timeoutMs` passes (then its last error is thrown). */
export async function eventually(check: () => Promise<void>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

/** Lets the in-process bus deliver what was published (it hands events on through promise chains). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
