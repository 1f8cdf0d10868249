/** Per vendor, per key id (`public` for reads without a key), per kind of read: how many. */
export type ReadCounts = Record<string, Record<string, Record<string, number>>>;

/**
 * Counts the reads that are not synthesis (voice list pages, stored voice settings, dictionaries), apart from
 * the call log, so a test can see that a list was read live and page by page, or that a dictionary was read,
 * without those reads counting as vendor calls.
 */
export class ReadLog {
  private counts: ReadCounts = {};

  record(vendor: string, what: string, keyId: string): void {
    const byKey = (this.counts[vendor] ??= {});
    const byWhat = (byKey[keyId] ??= {});
    byWhat[what] = (byWhat[what] ?? 0) + 1;
  }

  totals(): ReadCounts {
    return structuredClone(this.counts);
  }

  clear(): void {
    this.counts = {};
  }
}
