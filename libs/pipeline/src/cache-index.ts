import type { Bus, Subscription } from '@router/bus';
import {
  addressedTo,
  type CachedTake,
  cacheCommittedV2,
  isCanonicalOrgId,
  type ResponseHead,
} from '@router/contracts';
import type { Sql } from '@router/db';
import type { Logger } from '@router/observability';
import type { VendorId } from '@router/vendors-core';
import { KeyFilter } from './key-filter';

/** The smallest filter an org gets (≈320 bytes), so a young org's first commits do not force a re-read. */
const MIN_CAPACITY = 256;
/**
 * An org with more entries than this is not filtered (each of its misses asks the index, as without a
 * filter): its filter would take over 1.2 MB in every serving process and a read of all its keys every
 * `keysReloadMs`.
 */
const MAX_FILTERED_KEYS = 1_000_000;
/** Keys read per statement when an org's filter is (re)built. */
const PAGE = 10_000;

export interface CacheIndexSettings {
  /**
   * An org's key filter is rebuilt from the index this often: it bounds what a lost `cache.committed.v2` event
   * can cost (that entry is taken for absent, so asked of a worker, until the rebuild).
   */
  keysReloadMs: number;
  /**
   * The vendors whose entries the app serves (native-api: every vendor; a mirror app: its own). Only their
   * commits are heard of: another vendor's key committed since a filter's read is taken for absent here,
   * which costs nothing since the app is never asked for it.
   */
  servedVendors: readonly VendorId[];
  now: () => number;
  /** Defaults to MAX_FILTERED_KEYS. */
  maxFilteredKeys?: number;
}

interface OrgKeys {
  /**
   * The filter lookups trust (null for an org with too many keys to filter), with when its read began; null
   * until the first read completes.
   */
  ready: { filter: KeyFilter | null; at: number } | null;
  /** A read in progress (commit events go into its filter too), or null. */
  loading: KeyFilter | 'counting' | null;
  /** After a failed read, the next one is not tried before this. */
  retryAt: number;
  /** The org's last lookup: an org idle for `keysReloadMs` is forgotten, so memory follows the active orgs. */
  usedAt: number;
}

const LOOKUP = `SELECT e.object_name AS "objectName", e.content_type AS "contentType", e.byte_size AS "byteSize",
    e.has_timings AS "hasTimings", e.response_head AS head
  FROM cache_entries e JOIN orgs o ON o.id = e.org_id
  WHERE e.org_id = $1::uuid AND e.cache_key = $2 AND o.retention_days > 0`;
const COUNT_KEYS = 'SELECT count(*)::int AS n FROM cache_entries WHERE org_id = $1::uuid';
const PAGE_OF_KEYS = `SELECT cache_key AS key FROM cache_entries WHERE org_id = $1::uuid AND cache_key > $2
  ORDER BY cache_key LIMIT ${PAGE}`;

/**
 * Whether this org's piece is cached, and where its audio is, read by the serving app itself (one prepared
 * statement on its own pool; asking cache-service over the bus cost two more hand-offs between processes on
 * every miss). Only reads: cache-service alone writes rows (commits, sweeps, last use).
 *
 * A miss is a sentence never said before, so most lookups before a vendor call find nothing; each org's keys
 * are therefore also held in a Bloom filter (`KeyFilter`), and a key the filter rules out is a miss without a
 * round trip to Postgres (one more wake-up of two processes on the path to the vendor's first byte). The
 * filter never rules out a key it was told of: it is read from the index on the org's first lookup (the
 * lookups ask Postgres meanwhile), every commit of a vendor the app serves adds its key
 * (`cache.committed.v2.<vendor>`, published by cache-service before it answers the worker, so before the
 * take's end reaches any requester; NATS does not deliver the other vendors' to this process at all), and it
 * is rebuilt every `keysReloadMs` or once past its capacity. Deleted entries stay in it until then: they cost
 * a lookup, never a wrong answer. Memory follows the active orgs (one idle for `keysReloadMs` is forgotten)
 * and is bounded per org: an org past MAX_FILTERED_KEYS entries is not filtered.
 *
 * An org at retention 0 has every sentence synthesized by the vendor, so its entries awaiting the sweep are
 * not served (the join reads the org's retention as it is now: a change applies at once). Last use is not
 * touched here: hits are reported with `cache.usage.v1`, batched by cache-service.
 */
export class CacheIndex {
  private readonly orgs = new Map<string, OrgKeys>();
  private readonly subscriptions: Subscription[];
  private readonly stopWatching: () => void;
  private sweptAt = 0;

  constructor(
    private readonly sql: Sql,
    bus: Bus,
    private readonly settings: CacheIndexSettings,
    private readonly logger?: Logger,
  ) {
    // One exact subject per vendor rather than a wildcard: the in-process bus (standalone) matches subjects
    // exactly, and each commit still matches one subscription of native-api's ten.
    this.subscriptions = settings.servedVendors.map((vendor) =>
      bus.subscribe(addressedTo(cacheCommittedV2, vendor), ({ orgId, cacheKey }) => {
        const org = this.orgs.get(orgId);
        org?.ready?.filter?.add(cacheKey);
        if (org?.loading instanceof KeyFilter) org.loading.add(cacheKey);
      }),
    );
    // Commits announced while this process was cut off from NATS never reach it: back on the bus, every filter
    // is read again (lookups ask Postgres meanwhile), so a filter never rules out a key committed before.
    this.stopWatching = bus.onStatusChange((status) => {
      if (status === 'connected') this.orgs.clear();
    });
  }

  /** Resolves once commit events are received (a filter built before that could miss one). */
  async ready(): Promise<void> {
    await Promise.all(this.subscriptions.map((subscription) => subscription.ready()));
  }

  close(): void {
    for (const subscription of this.subscriptions) subscription.unsubscribe();
    this.stopWatching();
  }

  async lookup(orgId: string, cacheKey: string): Promise<CachedTake | null> {
    // Rows hold org ids as PostgreSQL prints uuids; another spelling (or no uuid) can name no entry.
    if (!isCanonicalOrgId(orgId)) return null;
    const known = this.keysOf(orgId);
    if (known && !known.has(cacheKey)) return null;
    const [hit] = await this.sql.query<Omit<CachedTake, 'head'> & { head: ResponseHead | null }>(LOOKUP, [
      orgId,
      cacheKey,
    ]);
    if (!hit) return null;
    const { head, ...take } = hit;
    return head ? { ...take, head } : take;
  }

  /** The org's trusted filter (null while there is none yet), starting a read when one is due. */
  private keysOf(orgId: string): KeyFilter | null {
    const now = this.settings.now();
    if (now - this.sweptAt >= this.settings.keysReloadMs) this.forgetIdle(now);
    let org = this.orgs.get(orgId);
    if (!org) {
      org = { ready: null, loading: null, retryAt: 0, usedAt: now };
      this.orgs.set(orgId, org);
    }
    org.usedAt = now;
    const { ready } = org;
    const due =
      !ready ||
      now - ready.at >= this.settings.keysReloadMs ||
      (ready.filter !== null && ready.filter.count > ready.filter.capacity);
    if (due && org.loading === null && now >= org.retryAt) void this.load(orgId, org, now);
    return ready?.filter ?? null;
  }

  private forgetIdle(now: number): void {
    this.sweptAt = now;
    for (const [orgId, org] of this.orgs) {
      if (now - org.usedAt >= this.settings.keysReloadMs && org.loading === null) this.orgs.delete(orgId);
    }
  }

  /**
   * Reads the org's keys into a new filter. A commit racing with the read is not lost: its row is inserted
   * before its event is sent, so a row the pages miss (inserted behind their cursor) was inserted after the
   * filter was registered, and its event reaches the filter.
   */
  private async load(orgId: string, org: OrgKeys, startedAt: number): Promise<void> {
    org.loading = 'counting';
    try {
      const [counted] = await this.sql.query<{ n: number }>(COUNT_KEYS, [orgId]);
      const keys = counted?.n ?? 0;
      if (keys > (this.settings.maxFilteredKeys ?? MAX_FILTERED_KEYS)) {
        org.ready = { filter: null, at: startedAt };
        return;
      }
      const filter = new KeyFilter(Math.max(MIN_CAPACITY, 2 * keys));
      org.loading = filter;
      for (let after = ''; ;) {
        const rows = await this.sql.query<{ key: string }>(PAGE_OF_KEYS, [orgId, after]);
        for (const row of rows) filter.add(row.key);
        const last = rows[rows.length - 1];
        if (rows.length < PAGE || !last) break;
        after = last.key;
      }
      org.ready = { filter, at: startedAt };
    } catch (error) {
      // Lookups keep asking Postgres (or trust the older filter) until a read succeeds.
      org.retryAt = this.settings.now() + Math.min(this.settings.keysReloadMs, 5000);
      this.logger?.warn({ err: error }, 'cache keys of an org not read; lookups ask the index meanwhile');
    } finally {
      org.loading = null;
    }
  }
}
