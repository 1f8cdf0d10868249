import type { HotEntry } from '@router/stored-takes';

/**
 * Recently served takes in this process, answering a repeat without a bus round trip. Bounded by bytes,
 * least recently used first out; entries expire after a short TTL and on invalidation, so retention
 * promises still hold.
 */
export class HotTier {
  private readonly entries = new Map<string, { entry: HotEntry; at: number }>();
  private bytes = 0;

  constructor(private readonly options: { maxBytes: number; ttlMs: number; now: () => number }) {}

  get(orgId: string, cacheKey: string): HotEntry | undefined {
    const id = `${orgId}:${cacheKey}`;
    const found = this.entries.get(id);
    if (!found) return undefined;
    if (this.options.now() - found.at >= this.options.ttlMs) {
      this.remove(id);
      return undefined;
    }
    this.entries.delete(id);
    this.entries.set(id, found);
    return found.entry;
  }

  set(orgId: string, cacheKey: string, entry: HotEntry): void {
    if (entry.audio.length > this.options.maxBytes / 4) return;
    const id = `${orgId}:${cacheKey}`;
    this.remove(id);
    this.entries.set(id, { entry, at: this.options.now() });
    this.bytes += entry.audio.length;
    for (const key of this.entries.keys()) {
      if (this.bytes <= this.options.maxBytes) break;
      this.remove(key);
    }
  }

  /** Drops an org's entries (all of them, or the given keys). */
  invalidate(orgId: string, cacheKeys?: string[]): void {
    if (cacheKeys) {
      cacheKeys.forEach((key) => this.remove(`${orgId}:${key}`));
      return;
    }
    for (const id of [...this.entries.keys()]) if (id.startsWith(`${orgId}:`)) this.remove(id);
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  private remove(id: string): void {
    const found = this.entries.get(id);
    if (!found) return;
    this.entries.delete(id);
    this.bytes -= found.entry.audio.length;
  }
}
