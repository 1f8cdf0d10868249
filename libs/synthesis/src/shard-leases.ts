import { performance } from 'node:perf_hooks';
import { type CachedTake, KEY_SHARDS, keyShard, shardOwner } from '@router/contracts';
import type { Sql } from '@router/db';
import type { Logger } from '@router/observability';

/** The SQL twin of keyShard(): a cache key's first byte. */
export const SHARD_OF = (column: string): string => `get_byte(decode(substr(${column}, 1, 2), 'hex'), 0)`;

/**
 * One round trip per beat: this worker is alive, its leases are renewed, and the other live workers are listed
 * (a worker is live while its last beat is younger than a lease). Workers gone for a hundred leases are
 * forgotten.
 */
const BEAT = `
  WITH beat AS (
    INSERT INTO synthesis_workers (worker_id, lease_group, seen_at) VALUES ($1, $3, now())
    ON CONFLICT (worker_id) DO UPDATE SET seen_at = now() RETURNING 1),
  forgotten AS (
    DELETE FROM synthesis_workers WHERE seen_at < now() - make_interval(secs => $2::float8 / 10)),
  renewed AS (
    UPDATE take_leases SET expires_at = now() + make_interval(secs => $2::float8 / 1000)
    WHERE lease_group = $3 AND worker_id = $1 RETURNING shard)
  SELECT ARRAY(SELECT shard FROM renewed) AS held,
    ARRAY(SELECT worker_id FROM synthesis_workers
      WHERE lease_group = $3 AND worker_id <> $1
        AND seen_at >= now() - make_interval(secs => $2::float8 / 1000)) AS others`;

/**
 * A group's lease rows, made by each worker's first beat. A claim locks its shard's row (see ACQUIRE), so the
 * rows must exist before a lease is taken: only a claim sent while the group's very first worker makes them
 * can go unseen by that worker's first leases (then the key may get a second take, and the first commit wins).
 */
const ROWS = `INSERT INTO take_leases (lease_group, shard) SELECT $1, generate_series(0, ${KEY_SHARDS - 1})
  ON CONFLICT DO NOTHING`;

/**
 * Takes free or expired shards (and `$4`'s, a worker found gone). The row lock orders this against every
 * claim statement that locked the shard's row (TakeClaims): one that locked it first has committed its claim
 * by the time FOREIGN reads, and one that locks it after sees this lease and claims nothing.
 */
const ACQUIRE = `
  UPDATE take_leases SET worker_id = $1, expires_at = now() + make_interval(secs => $3::float8 / 1000)
  WHERE lease_group = $5 AND shard = ANY($2::int[]) AND (worker_id IS NULL OR worker_id = $1 OR expires_at < now() OR worker_id = $4)
  RETURNING shard`;

/** The keys of newly leased shards that other workers claimed before and have not committed. */
const FOREIGN = `
  SELECT t.org_id AS "orgId", t.cache_key AS "cacheKey" FROM take_claims t
  WHERE ${SHARD_OF('t.cache_key')} = ANY($1::int[]) AND t.worker_id <> $2
    AND t.claimed_at >= now() - make_interval(secs => $3::float8 / 1000)
    AND NOT EXISTS (SELECT 1 FROM cache_entries e WHERE e.org_id = t.org_id AND e.cache_key = t.cache_key)`;

const RELEASE = `UPDATE take_leases SET worker_id = NULL, expires_at = NULL
  WHERE lease_group = $3 AND shard = ANY($1::int[]) AND worker_id = $2`;

const GONE = `WITH freed AS (UPDATE take_leases SET worker_id = NULL, expires_at = NULL WHERE worker_id = $1)
  DELETE FROM synthesis_workers WHERE worker_id = $1`;

/** How long a take this worker committed is remembered as its key's (a requester's lookup may lag the commit). */
const REMEMBER_COMMITS_MS = 10_000;
const MAX_REMEMBERED_COMMITS = 50_000;

/** What a lessee answers a claim on its shard's key with, or undefined when the database must be asked. */
export type LocalClaim = { kind: 'mine' } | { kind: 'committed'; take: CachedTake };

export interface ShardLeaseSettings {
  /** A lease's length in the database; renewed every fifth of it, trusted here for half of it. */
  leaseMs: number;
  /** The deployment's workers, which share the leases (its NATS subject prefix). */
  group: string;
  /** A claim older than this no longer holds (TakeClaims). */
  staleAfterMs: number;
}

/**
 * The shards of the cache keys this worker leases. Requesters send a shard's takes to the live worker that wins
 * it by rendezvous hashing (WorkerDirectory); each worker leases the shards it wins among the workers alive in
 * the database, and gives up those it no longer wins once its claims on them are over. While a lease holds, a
 * claim on one of its keys is answered here, with no round trip: every other worker's claim on the shard is
 * refused by the database and follows this one. The exceptions go to the database: keys another worker claimed
 * before the lease was taken (read once when it is), and every key of a shard being given up.
 *
 * A lease is trusted for half its length after the beat that renewed it was sent, so a worker cut off from the
 * database stops claiming locally well before another can lease the shard. A worker that stalls longer than
 * that can find its shard taken while a take of it runs: the next take of that key is then made elsewhere too,
 * and the first commit wins, as it does for two claims.
 */
export class ShardLeases {
  /** Leased shards, each trusted until then (performance.now()). */
  private readonly trusted = new Map<number, number>();
  /** Shards leased here that this worker no longer wins: released once their local claims are over. */
  private readonly leaving = new Set<number>();
  /** Per leased shard, `org:key`s claimed by another worker before the lease was taken. */
  private readonly foreign = new Map<number, Set<string>>();
  /** Local claims in progress, by `org:key`, and how many per shard. */
  private readonly claimed = new Set<string>();
  private readonly claimsPerShard = new Map<number, number>();
  /** Takes this worker committed lately, by `org:key`, oldest first. */
  private readonly commits = new Map<string, { take: CachedTake; at: number }>();
  private rowsMade = false;
  /** The worker is going away: it wins no shard any more (see depart). */
  private departing = false;
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;

  constructor(
    private readonly sql: Sql,
    private readonly workerId: string,
    private readonly settings: ShardLeaseSettings,
    private readonly logger?: Logger,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** The shards whose lease this worker holds and trusts now. */
  get held(): number {
    const now = this.clock();
    let held = 0;
    for (const until of this.trusted.values()) if (until > now) held++;
    return held;
  }
  /** Beats at once and then every fifth of a lease. */
  start(): void {
    if (this.timer) return;
    // A database outage fails every beat (a fifth of a lease apart): it is said once, and when it ends.
    let failing = false;
    const beat = (): void => {
      this.beating ??= this.beat()
        .then(
          () => {
            if (failing) this.logger?.info('shard lease beats succeed again');
            failing = false;
          },
          (error: unknown) => {
            if (failing) this.logger?.debug({ err: error }, 'shard lease beat failed');
            else this.logger?.warn({ err: error }, 'shard lease beat failed; said again once one succeeds');
            failing = true;
          },
        )
        .finally(() => {
          this.beating = undefined;
        });
    };
    beat();
    this.timer = setInterval(beat, Math.max(10, this.settings.leaseMs / 5));
    this.timer.unref();
  }

  /** Stops beating and frees every lease (after the local claims are over: the caller stops its takes first). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.beating;
    this.trusted.clear();
    this.leaving.clear();
    await this.sql.query(GONE, [this.workerId]);
  }

  /**
   * The worker is going away: every shard it leases is given up as one it no longer wins (its keys are claimed
   * in the database from now on, and each lease is released once the takes claimed under it are over), and
   * none is taken again.
   */
  depart(): Promise<void> {
    this.departing = true;
    for (const shard of this.trusted.keys()) this.leaving.add(shard);
    return this.beating ?? Promise.resolve();
  }

  /** Whether this worker leases the shard now. */
  holds(shard: number): boolean {
    const until = this.trusted.get(shard);
    return until !== undefined && this.clock() < until;
  }

  /** The claim on a key of a shard leased here, or undefined when the database must be asked. */
  claim(orgId: string, cacheKey: string): LocalClaim | undefined {
    const shard = keyShard(cacheKey);
    const id = `${orgId}:${cacheKey}`;
    if (!this.holds(shard) || this.leaving.has(shard) || this.foreign.get(shard)?.has(id)) return undefined;
    const commit = this.commits.get(id);
    if (commit && this.clock() - commit.at < REMEMBER_COMMITS_MS)
      return { kind: 'committed', take: commit.take };
    if (!this.claimed.has(id)) {
      this.claimed.add(id);
      this.claimsPerShard.set(shard, (this.claimsPerShard.get(shard) ?? 0) + 1);
    }
    return { kind: 'mine' };
  }

  /**
   * Ends a local claim (false when the key has none: it was claimed in the database); `take` is the key's
   * take when this worker committed it.
   */
  settle(orgId: string, cacheKey: string, take?: CachedTake): boolean {
    const id = `${orgId}:${cacheKey}`;
    if (take) this.remember(id, take);
    if (!this.claimed.delete(id)) return false;
    const shard = keyShard(cacheKey);
    const left = (this.claimsPerShard.get(shard) ?? 1) - 1;
    if (left > 0) this.claimsPerShard.set(shard, left);
    else this.claimsPerShard.delete(shard);
    return true;
  }

  /**
   * Leases the key's shard from a worker found gone, and claims the key here; false when that worker does not
   * lease it (then nobody holds the key but through its claim row).
   */
  async takeOver(orgId: string, cacheKey: string, from: string): Promise<boolean> {
    if (this.departing) return false;
    const shard = keyShard(cacheKey);
    const taken = await this.acquire([shard], from);
    return taken.length > 0 && this.claim(orgId, cacheKey)?.kind === 'mine';
  }

  /**
   * One beat (start() repeats it): renews the leases, then gives up the shards this worker no longer wins and
   * leases those it now wins.
   */
  async beat(): Promise<void> {
    if (!this.rowsMade) {
      await this.sql.query(ROWS, [this.settings.group]);
      this.rowsMade = true;
    }
    const sentAt = this.clock();
    const [row] = await this.sql.query<{ held: number[]; others: string[] }>(BEAT, [
      this.workerId,
      this.settings.leaseMs,
      this.settings.group,
    ]);
    const held = new Set(row.held);
    for (const shard of this.trusted.keys()) if (!held.has(shard)) this.forget(shard);
    for (const shard of held) this.trusted.set(shard, sentAt + this.settings.leaseMs / 2);
    const live = [this.workerId, ...row.others];
    const wanted: number[] = [];
    const unwanted: number[] = [];
    for (let shard = 0; shard < KEY_SHARDS; shard++) {
      const mine = !this.departing && shardOwner(shard, live) === this.workerId;
      if (mine && !held.has(shard)) wanted.push(shard);
      if (mine) this.leaving.delete(shard);
      else if (held.has(shard)) unwanted.push(shard);
    }
    // A shard given up keeps its lease until the takes claimed under it are over: until then its keys are
    // claimed in the database, so that the next lessee finds them.
    for (const shard of unwanted) this.leaving.add(shard);
    const free = unwanted.filter((shard) => !this.claimsPerShard.has(shard));
    if (free.length > 0) {
      await this.sql.query(RELEASE, [free, this.workerId, this.settings.group]);
      free.forEach((shard) => this.forget(shard));
    }
    if (wanted.length > 0) await this.acquire(wanted);
  }

  /** Leases what it can of `shards` (free, expired, or `from`'s) and reads their keys claimed elsewhere. */
  private async acquire(shards: number[], from: string | null = null): Promise<number[]> {
    const sentAt = this.clock();
    const rows = await this.sql.query<{ shard: number }>(ACQUIRE, [
      this.workerId,
      shards,
      this.settings.leaseMs,
      from,
      this.settings.group,
    ]);
    const taken = rows.map((r) => r.shard);
    if (taken.length === 0) return taken;
    const claims = await this.sql.query<{ orgId: string; cacheKey: string }>(FOREIGN, [
      taken,
      this.workerId,
      this.settings.staleAfterMs,
    ]);
    for (const shard of taken) this.foreign.set(shard, new Set());
    for (const { orgId, cacheKey } of claims)
      this.foreign.get(keyShard(cacheKey))?.add(`${orgId}:${cacheKey}`);
    for (const shard of taken) {
      this.leaving.delete(shard);
      this.trusted.set(shard, sentAt + this.settings.leaseMs / 2);
    }
    return taken;
  }

  private forget(shard: number): void {
    this.trusted.delete(shard);
    this.leaving.delete(shard);
    this.foreign.delete(shard);
  }

  private remember(id: string, take: CachedTake): void {
    this.commits.delete(id);
    this.commits.set(id, { take, at: this.clock() });
    const oldest = this.clock() - REMEMBER_COMMITS_MS;
    for (const [key, commit] of this.commits) {
      if (this.commits.size <= MAX_REMEMBERED_COMMITS && commit.at >= oldest) break;
      this.commits.delete(key);
    }
  }
}
