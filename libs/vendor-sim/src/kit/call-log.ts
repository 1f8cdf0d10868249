import type { FaultKind } from './faults';

/** One synthesis call a simulated vendor accepted (after auth and validation). Never holds the text. */
export interface CallRecord {
  readonly seq: number;
  readonly vendor: string;
  readonly endpoint: string;
  /** `simKeyId(key)`. */
  readonly keyId: string;
  /** Characters (code points) of the text. */
  readonly chars: number;
  /** The take's id (the one `readTakeId` finds in its audio). */
  readonly takeId: string;
  /** The fault injected into this call, if any. */
  readonly fault: FaultKind | null;
  readonly at: string;
}

export interface CallFilter {
  readonly vendor?: string;
  readonly keyId?: string;
  readonly endpoint?: string;
}

/** Per vendor, per key id, per endpoint: how many calls. */
export type CallCounts = Record<string, Record<string, Record<string, number>>>;

/** The newest records are kept for listing; the counts are kept whole. */
const MAX_RECORDS = 10_000;

export class CallLog {
  private readonly records: CallRecord[] = [];
  private counts: CallCounts = {};
  private seq = 0;

  record(call: Omit<CallRecord, 'seq' | 'at'>): CallRecord {
    const record: CallRecord = { ...call, seq: ++this.seq, at: new Date().toISOString() };
    this.records.push(record);
    if (this.records.length > MAX_RECORDS) this.records.shift();
    const byKey = (this.counts[call.vendor] ??= {});
    const byEndpoint = (byKey[call.keyId] ??= {});
    byEndpoint[call.endpoint] = (byEndpoint[call.endpoint] ?? 0) + 1;
    return record;
  }

  list(filter: CallFilter = {}): CallRecord[] {
    return this.records.filter(
      (r) =>
        (filter.vendor === undefined || r.vendor === filter.vendor) &&
        (filter.keyId === undefined || r.keyId === filter.keyId) &&
        (filter.endpoint === undefined || r.endpoint === filter.endpoint),
    );
  }

  totals(): CallCounts {
    return structuredClone(this.counts);
  }

  clear(): void {
    this.records.length = 0;
    this.counts = {};
    this.seq = 0;
  }
}
