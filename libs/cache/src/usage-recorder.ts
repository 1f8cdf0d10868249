import { type CacheUsage, isCanonicalCacheKey, isCanonicalOrgId } from '@router/contracts';
import type { Prisma, PrismaClient } from '@router/db';
import type { Logger } from '@router/observability';
import { describeError } from './cache.context';

interface LastUse {
  orgId: string;
  cacheKey: string;
  at: number;
}

const AMOUNTS = ['synthesized', 'served', 'synthesizedTakes', 'servedTakes'] as const;
type Amounts = Record<(typeof AMOUNTS)[number], number>;

interface Counter extends Amounts {
  orgId: string;
  /** UTC date, `YYYY-MM-DD`. */
  day: string;
  provider: string;
}

export interface UsageFlushReport {
  /** Entries whose last use was refreshed (those still in the index). */
  refreshedEntries: number;
  /** Org/day/provider counters added to. */
  counters: number;
}

/**
 * Collects last-use refreshes and usage counters in memory and writes them in one transaction of two
 * statements per flush, whatever the number of events: a hit must never cost a database write of its own.
 */
/** Told of every take counted: a hit or a synthesis, its vendor and its characters (the app's metrics). */
export type UsageObserver = (kind: 'hit' | 'synthesized', vendor: string, chars: number) => void;

export class UsageRecorder {
  private lastUses = new Map<string, LastUse>();
  private counters = new Map<string, Counter>();
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly prisma: PrismaClient,
    private readonly logger: Logger,
    private readonly now: () => number,
    private readonly observe?: UsageObserver,
  ) {}

  /** Events for ids the index cannot hold are dropped: one bad event must not fail a whole batch. */
  record(event: CacheUsage): void {
    if (!isCanonicalOrgId(event.orgId) || !isCanonicalCacheKey(event.cacheKey)) return;
    const at = this.now();
    if (event.kind === 'hit') {
      const id = `${event.orgId}/${event.cacheKey}`;
      const known = this.lastUses.get(id);
      if (!known || known.at < at)
        this.lastUses.set(id, { orgId: event.orgId, cacheKey: event.cacheKey, at });
      this.count(event.orgId, event.provider, at, { served: event.chars, servedTakes: 1 });
      this.observe?.('hit', event.provider, event.chars);
    } else {
      this.count(event.orgId, event.provider, at, { synthesized: event.chars, synthesizedTakes: 1 });
      this.observe?.('synthesized', event.provider, event.chars);
    }
  }

  addSynthesized(orgId: string, provider: string, chars: number): void {
    if (!isCanonicalOrgId(orgId)) return;
    this.count(orgId, provider, this.now(), { synthesized: chars, synthesizedTakes: 1 });
    this.observe?.('synthesized', provider, chars);
  }

  /** Buffered last uses and counters not yet written. */
  get pending(): number {
    return this.lastUses.size + this.counters.size;
  }

  /**
   * Writes everything recorded before this call. Flushes run one after another; a failed flush puts its
   * batch back for the next one and rejects.
   */
  flush(): Promise<UsageFlushReport> {
    const run = this.chain.then(() => this.flushOnce());
    this.chain = run.catch(() => undefined);
    return run;
  }

  private count(orgId: string, provider: string, at: number, add: Partial<Amounts>): void {
    const day = new Date(at).toISOString().slice(0, 10);
    const id = `${orgId}|${day}|${provider}`;
    let counter = this.counters.get(id);
    if (!counter) {
      counter = { orgId, day, provider, synthesized: 0, served: 0, synthesizedTakes: 0, servedTakes: 0 };
      this.counters.set(id, counter);
    }
    for (const field of AMOUNTS) counter[field] += add[field] ?? 0;
  }

  private async flushOnce(): Promise<UsageFlushReport> {
    const lastUses = [...this.lastUses.values()];
    const counters = [...this.counters.values()].filter((c) => AMOUNTS.some((field) => c[field] > 0));
    this.lastUses = new Map();
    this.counters = new Map();
    if (lastUses.length === 0 && counters.length === 0) return { refreshedEntries: 0, counters: 0 };
    try {
      const statements: Prisma.PrismaPromise<number>[] = [];
      if (lastUses.length > 0) statements.push(this.refreshLastUses(lastUses));
      if (counters.length > 0) statements.push(this.addToCounters(counters));
      const [first = 0, second = 0] = await this.prisma.$transaction(statements);
      return lastUses.length > 0
        ? { refreshedEntries: first, counters: second }
        : { refreshedEntries: 0, counters: first };
    } catch (error) {
      this.putBack(lastUses, counters);
      this.logger.warn(
        { error: describeError(error), lastUses: lastUses.length, counters: counters.length },
        'usage flush failed; kept for the next one',
      );
      throw error;
    }
  }

  private refreshLastUses(lastUses: LastUse[]): Prisma.PrismaPromise<number> {
    // GREATEST: a slower replica's older refresh must not move last use back.
    return this.prisma.$executeRaw`
      UPDATE cache_entries AS e
      SET last_used_at = GREATEST(e.last_used_at, u.used_at)
      FROM unnest(
        ${lastUses.map((u) => u.orgId)}::uuid[],
        ${lastUses.map((u) => u.cacheKey)}::text[],
        ${lastUses.map((u) => new Date(u.at).toISOString())}::timestamptz[]
      ) AS u(org_id, cache_key, used_at)
      WHERE e.org_id = u.org_id AND e.cache_key = u.cache_key`;
  }

  private addToCounters(counters: Counter[]): Prisma.PrismaPromise<number> {
    // The join drops orgs deleted meanwhile, which would otherwise fail the whole batch on the foreign key.
    return this.prisma.$executeRaw`
      INSERT INTO usage_counters (org_id, day, provider, synthesized_chars, served_from_cache_chars,
        synthesized_takes, served_from_cache_takes)
      SELECT c.org_id, c.day, c.provider, c.synthesized, c.served, c.synthesized_takes, c.served_takes
      FROM unnest(
        ${counters.map((c) => c.orgId)}::uuid[],
        ${counters.map((c) => c.day)}::date[],
        ${counters.map((c) => c.provider)}::text[],
        ${counters.map((c) => String(c.synthesized))}::bigint[],
        ${counters.map((c) => String(c.served))}::bigint[],
        ${counters.map((c) => String(c.synthesizedTakes))}::bigint[],
        ${counters.map((c) => String(c.servedTakes))}::bigint[]
      ) AS c(org_id, day, provider, synthesized, served, synthesized_takes, served_takes)
      JOIN orgs o ON o.id = c.org_id
      ON CONFLICT (org_id, day, provider) DO UPDATE SET
        synthesized_chars = usage_counters.synthesized_chars + EXCLUDED.synthesized_chars,
        served_from_cache_chars = usage_counters.served_from_cache_chars + EXCLUDED.served_from_cache_chars,
        synthesized_takes = usage_counters.synthesized_takes + EXCLUDED.synthesized_takes,
        served_from_cache_takes = usage_counters.served_from_cache_takes + EXCLUDED.served_from_cache_takes`;
  }

  private putBack(lastUses: LastUse[], counters: Counter[]): void {
    for (const use of lastUses) {
      const id = `${use.orgId}/${use.cacheKey}`;
      const known = this.lastUses.get(id);
      if (!known || known.at < use.at) this.lastUses.set(id, use);
    }
    for (const c of counters) this.count(c.orgId, c.provider, Date.parse(`${c.day}T00:00:00Z`), c);
  }
}
