import { hashApiKey, looksLikeApiKey, type OrgStanding } from '@router/auth';
import { heldThroughOutage } from '@router/contracts';
import type { OrgLimitOverrides } from './org-limiter';

export interface KeyRecord {
  orgId: string;
  revoked: boolean;
  /** When the key stops working (epoch ms), checked at every use against the clock; absent: never. */
  expiresAt?: number;
}

/** An org as the directory holds it: its standing (libs/auth, read as the dashboard reads it) and more. */
export interface OrgRecord extends OrgStanding {
  /** The vendors the org has stored a key for (a mirror refuses the others); absent when none is stored. */
  vendorKeys?: readonly string[];
  /** The org's own limits (set through the admin API); a limit left out is the gateway's default. */
  limits?: OrgLimitOverrides;
}

/** Where the directory loads what it does not hold; Postgres in the gateway, a map in unit tests. */
export interface AuthSource {
  findKey(keyHash: string): Promise<KeyRecord | null>;
  findOrg(orgId: string): Promise<OrgRecord | null>;
}

export type AuthVerdict =
  | { ok: true; orgId: string; outOfCredit: boolean; limits?: OrgLimitOverrides }
  | { ok: false; reason: 'unknown-key' | 'revoked' | 'expired' | 'org-disabled' | 'no-vendor-key' };

export interface KeyDirectoryOptions {
  /** After this, an entry is refreshed in the background while it keeps answering. */
  ttlMs: number;
  /** After this, an entry is no longer trusted at all and the request waits for a fresh read. */
  maxStaleMs: number;
  /**
   * While the source cannot be reached (PostgreSQL down), an entry read no longer ago than this still answers
   * (the outage's staleness bound); a key or org not held is then `unavailable`.
   */
  outageStaleMs: number;
  maxEntries: number;
  now: () => number;
}

/**
 * The gateway's memory of keys and orgs. A request is answered from here; Postgres is read only on a miss,
 * in the background when an entry ages past its TTL, and after a change event drops the entry, so key,
 * org, credit and stored-vendor-key changes take effect within seconds without a database round trip per
 * request.
 */
export class KeyDirectory {
  private readonly keys: RefreshingCache<KeyRecord | null>;
  private readonly orgs: RefreshingCache<OrgRecord | null>;

  constructor(
    source: AuthSource,
    private readonly options: KeyDirectoryOptions,
  ) {
    this.keys = new RefreshingCache((hash) => source.findKey(hash), options);
    this.orgs = new RefreshingCache((orgId) => source.findOrg(orgId), options);
  }

  /**
   * The verdict for a router key. With `vendor` (a mirror's request), an org without a stored key for that
   * vendor is refused too, from the same memory: the vendor could only refuse the request later.
   */
  async authenticate(key: string | undefined, vendor?: string): Promise<AuthVerdict> {
    if (key === undefined || !looksLikeApiKey(key)) return { ok: false, reason: 'unknown-key' };
    return this.authenticateHash(hashApiKey(key), vendor);
  }

  /**
   * The verdict for a key known by its hash alone: an open socket's, re-checked while it lasts (the gateway
   * keeps no key once a socket is admitted). Answered from the same memory, refreshed the same way.
   */
  async authenticateHash(keyHash: string, vendor?: string): Promise<AuthVerdict> {
    const record = await this.keys.get(keyHash);
    if (!record) return { ok: false, reason: 'unknown-key' };
    if (record.revoked) return { ok: false, reason: 'revoked' };
    // An expiry is a fact of the record, not a change: it holds from its moment, with no event to wait for.
    if (record.expiresAt !== undefined && this.options.now() >= record.expiresAt) {
      return { ok: false, reason: 'expired' };
    }
    let org = await this.orgs.get(record.orgId);
    if (!org || org.disabled) return { ok: false, reason: 'org-disabled' };
    if (vendor !== undefined && !org.vendorKeys?.includes(vendor)) {
      // A key stored a moment ago may not have reached this memory yet (its change event still on its way, or
      // stored through another gateway): the org is read again before refusing, at most once a second.
      org = await this.orgs.reread(record.orgId, RECHECK_MS);
      if (!org || org.disabled) return { ok: false, reason: 'org-disabled' };
      if (!org.vendorKeys?.includes(vendor)) return { ok: false, reason: 'no-vendor-key' };
    }
    return {
      ok: true,
      orgId: record.orgId,
      outOfCredit: org.outOfCredit,
      ...(org.limits ? { limits: org.limits } : {}),
    };
  }

  forgetKey(keyHash: string): void {
    this.keys.forget(keyHash);
  }

  forgetOrg(orgId: string): void {
    this.orgs.forget(orgId);
  }

  forgetAll(): void {
    this.keys.clear();
    this.orgs.clear();
  }
}

/** How often a refusal for a missing vendor key may read the org again. */
const RECHECK_MS = 1000;

/** A bounded map whose entries load once, answer until stale, and refresh in the background in between. */
class RefreshingCache<T> {
  private readonly entries = new Map<string, { value: T; loadedAt: number; reread?: boolean }>();
  private readonly loading = new Map<string, Promise<T>>();

  constructor(
    private readonly load: (id: string) => Promise<T>,
    private readonly options: KeyDirectoryOptions,
  ) {}

  get(id: string): T | Promise<T> {
    const entry = this.entries.get(id);
    if (entry) {
      const age = this.options.now() - entry.loadedAt;
      if (age < this.options.ttlMs) return entry.value;
      if (age < this.options.maxStaleMs) {
        this.refresh(id).catch(() => undefined); // the next request retries; this one is answered already
        return entry.value;
      }
    }
    return this.refresh(id).catch((error: unknown) => this.held(error, entry));
  }

  /**
   * The entry read again now, unless it was so read within `withinMs` (then it answers as it is): for a
   * caller about to refuse on what the entry says.
   */
  async reread(id: string, withinMs: number): Promise<T> {
    const entry = this.entries.get(id);
    if (entry?.reread && this.options.now() - entry.loadedAt < withinMs) return entry.value;
    const value = await this.refresh(id).catch((error: unknown) => this.held(error, entry));
    const stored = this.entries.get(id);
    if (stored) stored.reread = true;
    return value;
  }

  /** The entry's value through an outage of the source, within its bound; else the failure. */
  private held(error: unknown, entry: { value: T; loadedAt: number } | undefined): T {
    const held = entry && { value: entry.value, at: entry.loadedAt };
    return heldThroughOutage(error, held, this.options.now(), this.options.outageStaleMs);
  }

  forget(id: string): void {
    this.entries.delete(id);
    this.loading.delete(id);
  }

  clear(): void {
    this.entries.clear();
    this.loading.clear();
  }

  private refresh(id: string): Promise<T> {
    const running = this.loading.get(id);
    if (running) return running;
    // A load that raced a forget() must not bring back what the change event dropped: only the load
    // still registered for the id may store its result.
    const pending: Promise<T> = this.load(id).then(
      (value) => {
        if (this.loading.get(id) === pending) {
          this.loading.delete(id);
          this.store(id, value);
        }
        return value;
      },
      (error: unknown) => {
        if (this.loading.get(id) === pending) this.loading.delete(id);
        throw error;
      },
    );
    this.loading.set(id, pending);
    return pending;
  }

  private store(id: string, value: T): void {
    this.entries.delete(id);
    this.entries.set(id, { value, loadedAt: this.options.now() });
    if (this.entries.size > this.options.maxEntries) {
      // Maps iterate in insertion order: the first key is the least recently loaded.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }
}
