import { storedSettingsFingerprint } from '@router/cache-keys';
import { RouterError, type SynthSettings } from '@router/contracts';
import type { Logger } from '@router/observability';
import type { JsonValue, StoredReference, VendorAdapter } from '@router/vendors-core';

/** What a reply's settings mean for its pieces' cache entries. */
export interface StoredSettingsResolution {
  /**
   * What the vendor currently stores under the names the settings use (a voice's stored settings, an
   * unversioned dictionary), for `pieceCacheKey`'s `storedSettingsFingerprint`; null where the settings name
   * nothing of the kind, so every other key stays as it was.
   */
  readonly fingerprint: string | null;
  /**
   * False while something the settings name has not been read (a dictionary read only once, used for the
   * first time) or could not be read: the pieces are synthesized and played, neither looked up nor cached.
   */
  readonly cacheable: boolean;
}

export interface StoredSettingsDeps {
  /** The org's vendor key (a `ProviderKeyCache`); throws `provider_key_missing` when none is stored. */
  keys: { get(orgId: string, vendor: string): Promise<string> };
  upstream: (vendor: string) => VendorAdapter | undefined;
  logger: Logger;
  now?: () => number;
}

export interface StoredSettingsConfig {
  /**
   * A fingerprint is re-read when it is this old ("re-read about once a minute"), used ones from half of it; a
   * value whose re-read failed serves until twice this old, then the pieces are uncacheable until a read works.
   */
  refreshMs: number;
  /** One read at the vendor longer than this has failed. */
  readTimeoutMs: number;
  /** Remembered (org, stored thing) pairs; the least recently used go first. */
  maxEntries?: number;
}

interface Entry {
  /** The last successful read, and when it was made. */
  value?: JsonValue;
  readAt?: number;
  /** When the last read failed; reads are not retried for a while after. */
  failedAt?: number;
  reading?: Promise<void>;
}

const NOTHING_STORED: StoredSettingsResolution = Object.freeze({ fingerprint: null, cacheable: true });
const UNREADABLE: StoredSettingsResolution = Object.freeze({ fingerprint: null, cacheable: false });
const DEFAULT_MAX_ENTRIES = 10_000;
/** After a failed read, the next waits at least this long (at most the refresh interval). */
const RETRY_AFTER_MS = 5000;

/**
 * Settings stored at the vendor under a name (spec: What is cached), for every surface that makes pieces:
 * call `resolve` once per reply (or per settings change), not per piece. A voice's stored settings and an
 * unversioned dictionary are read with the org's key on first use and re-read at least every `refreshMs`,
 * and what was read enters the cache key, so new sentences are synthesized afresh within that time of a
 * change at the vendor. A dictionary that is read only once is read in the background on its first use; its
 * pieces are cached (by the dictionary's name) only once that read has succeeded. Vendors without stored
 * settings cost one lookup and no I/O.
 */
export class StoredSettings {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;
  private readonly maxEntries: number;

  constructor(
    private readonly deps: StoredSettingsDeps,
    private readonly config: StoredSettingsConfig,
  ) {
    this.now = deps.now ?? Date.now;
    this.maxEntries = config.maxEntries ?? DEFAULT_MAX_ENTRIES;
  }

  /** Never throws: what cannot be read makes the pieces uncacheable, and the vendor call reports the cause. */
  async resolve(orgId: string, settings: SynthSettings): Promise<StoredSettingsResolution> {
    const reader = this.deps.upstream(settings.vendor)?.storedSettings;
    return this.resolveReferences(orgId, settings.vendor, reader?.references(settings) ?? []);
  }

  /** The same for references named otherwise (a drop-in request's, from its vendor's `DropInWire`). */
  async resolveReferences(
    orgId: string,
    vendor: string,
    references: readonly StoredReference[],
  ): Promise<StoredSettingsResolution> {
    if (references.length === 0) return NOTHING_STORED;
    const values = await Promise.all(references.map((reference) => this.current(orgId, vendor, reference)));
    if (values.some((value) => value === undefined)) return UNREADABLE;
    const fingerprinted = references
      .map((reference, i) => [reference, values[i]] as const)
      .filter(([reference]) => reference.kind === 'fingerprint');
    if (fingerprinted.length === 0) return NOTHING_STORED;
    return {
      fingerprint: storedSettingsFingerprint(
        Object.fromEntries(fingerprinted.map(([reference, value]) => [reference.name, value ?? null])),
      ),
      cacheable: true,
    };
  }

  /** Drops what was read for an org (its vendor key changed: another account may store other settings). */
  forget(orgId: string, vendor?: string): void {
    const prefix = vendor === undefined ? `${orgId}\u0000` : `${orgId}\u0000${vendor}\u0000`;
    for (const id of this.entries.keys()) if (id.startsWith(prefix)) this.entries.delete(id);
  }

  /**
   * The value to use now, or undefined when there is none to trust: a fingerprint read within `refreshMs`
   * (waiting for a read when there is none), or within twice that when the re-reads since have failed; a
   * first-read reference once it has been read at all.
   */
  private async current(
    orgId: string,
    vendor: string,
    reference: StoredReference,
  ): Promise<JsonValue | undefined> {
    const entry = this.entry(`${orgId}\u0000${vendor}\u0000${reference.name}`);
    const now = this.now();
    const age = entry.readAt === undefined ? Infinity : now - entry.readAt;
    const recentlyFailed = entry.failedAt !== undefined && now - entry.failedAt < this.retryAfterMs();
    if (reference.kind === 'first-read') {
      if (entry.readAt === undefined && !recentlyFailed) void this.read(entry, orgId, vendor, reference);
      return entry.readAt === undefined ? undefined : (entry.value ?? null);
    }
    if (age < this.config.refreshMs) {
      // Used and half-way stale: read again in the background, so a busy voice rarely waits for a read.
      if (age >= this.config.refreshMs / 2 && !recentlyFailed)
        void this.read(entry, orgId, vendor, reference);
      return entry.value;
    }
    if (entry.failedAt !== undefined && age < this.graceMs()) {
      // A re-read failed (the vendor slow or refusing for a moment): the last value read serves a while
      // longer, and reads go on in the background, rather than every sentence becoming a vendor call.
      if (!recentlyFailed) void this.read(entry, orgId, vendor, reference);
      return entry.value;
    }
    if (recentlyFailed && entry.reading === undefined) return undefined;
    await this.read(entry, orgId, vendor, reference);
    return entry.readAt !== undefined && this.now() - entry.readAt < this.graceMs() ? entry.value : undefined;
  }

  /** One read at a time per entry; later callers share it. */
  private read(entry: Entry, orgId: string, vendor: string, reference: StoredReference): Promise<void> {
    entry.reading ??= this.readOnce(entry, orgId, vendor, reference).finally(() => {
      entry.reading = undefined;
    });
    return entry.reading;
  }

  private async readOnce(
    entry: Entry,
    orgId: string,
    vendor: string,
    reference: StoredReference,
  ): Promise<void> {
    const reader = this.deps.upstream(vendor)?.storedSettings;
    if (!reader) return;
    const started = this.now();
    try {
      const apiKey = await this.deps.keys.get(orgId, vendor);
      const value = await reader.read(reference, {
        apiKey,
        signal: AbortSignal.timeout(this.config.readTimeoutMs),
      });
      entry.value = value;
      entry.readAt = started;
      entry.failedAt = undefined;
    } catch (error) {
      entry.failedAt = this.now();
      this.deps.logger.warn(
        {
          orgId,
          vendor,
          reference: reference.name,
          code: error instanceof RouterError ? error.code : 'internal',
          providerStatus: error instanceof RouterError ? error.providerStatus : undefined,
        },
        'stored vendor settings could not be read; pieces with them are not cached',
      );
    }
  }

  /** The entry, made the most recently used; the least recently used beyond the bound is dropped. */
  private entry(id: string): Entry {
    const entry = this.entries.get(id) ?? {};
    this.entries.delete(id);
    this.entries.set(id, entry);
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    return entry;
  }

  /** How old a value may get when its re-reads fail: one more refresh interval than a fresh one. */
  private graceMs(): number {
    return 2 * this.config.refreshMs;
  }

  private retryAfterMs(): number {
    return Math.min(RETRY_AFTER_MS, this.config.refreshMs);
  }
}
