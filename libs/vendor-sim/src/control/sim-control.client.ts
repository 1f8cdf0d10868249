import type { CallCounts, CallRecord } from '../kit/call-log';
import type { FaultKind, FaultState } from '../kit/faults';
import type { Pacing } from '../kit/pacing';
import type { ReadCounts } from '../kit/read-log';
import { simKeyId } from '../kit/sim-keys';
import { CONTROL_PREFIX } from './control.routes';

/** A fault as a test writes it: `key` is hashed here, so the key itself never travels to the simulator. */
export interface InjectFault {
  vendor: string;
  kind: FaultKind;
  key?: string;
  endpoint?: string;
  nth?: number;
  textIncludes?: string;
  status?: number;
  code?: string;
  message?: string;
  /** Absent or null: stall forever. */
  stallMs?: number | null;
  afterBytes?: number;
  /** `trickle`: the pause before each piece. */
  trickleMs?: number;
  times?: number | 'always';
}

export interface CallQuery {
  key?: string;
  endpoint?: string;
}

/**
 * Typed client of the simulator's control API (`/__sim/...`), for tests. `baseUrl` is the simulator's root,
 * e.g. `http://127.0.0.1:4010` (not a vendor's mount).
 */
export class SimControl {
  private readonly root: string;

  constructor(baseUrl: string) {
    this.root = `${baseUrl.replace(/\/+$/, '')}${CONTROL_PREFIX}`;
  }

  /** Accepted synthesis calls, oldest first (optionally for one vendor, key and endpoint). */
  async calls(vendor?: string, query: CallQuery = {}): Promise<CallRecord[]> {
    const params = new URLSearchParams();
    if (vendor) params.set('vendor', vendor);
    if (query.key !== undefined) params.set('key_id', simKeyId(query.key));
    if (query.endpoint) params.set('endpoint', query.endpoint);
    const body = await this.request<{ calls: CallRecord[] }>('GET', `/calls?${params.toString()}`);
    return body.calls;
  }

  /** How many synthesis calls `vendor` accepted (from `key`, at `endpoint`, when given). */
  async callCount(vendor: string, query: CallQuery = {}): Promise<number> {
    const { counts } = await this.request<{ counts: CallCounts }>('GET', '/calls/counts');
    const byKey = counts[vendor] ?? {};
    const keys = query.key !== undefined ? [simKeyId(query.key)] : Object.keys(byKey);
    let total = 0;
    for (const keyId of keys) {
      for (const [endpoint, n] of Object.entries(byKey[keyId] ?? {})) {
        if (query.endpoint === undefined || query.endpoint === endpoint) total += n;
      }
    }
    return total;
  }

  /** Per vendor, per key id (`simKeyId(key)`), per endpoint. */
  async callCounts(): Promise<CallCounts> {
    return (await this.request<{ counts: CallCounts }>('GET', '/calls/counts')).counts;
  }

  /**
   * How many reads that are not synthesis `vendor` answered (voice list pages, stored settings, dictionaries),
   * from `key` (or without a key: `public: true`), of one kind when `what` is given.
   */
  async readCount(
    vendor: string,
    query: { key?: string; public?: boolean; what?: string } = {},
  ): Promise<number> {
    const { reads } = await this.request<{ reads: ReadCounts }>('GET', '/reads');
    const byKey = reads[vendor] ?? {};
    const keys =
      query.key !== undefined ? [simKeyId(query.key)] : query.public ? ['public'] : Object.keys(byKey);
    let total = 0;
    for (const keyId of keys) {
      for (const [what, n] of Object.entries(byKey[keyId] ?? {})) {
        if (query.what === undefined || query.what === what) total += n;
      }
    }
    return total;
  }

  /** Changes a vendor_c voice's stored settings in `key`'s account (as an edit at the vendor would). */
  async setVendorCVoiceSettings(
    key: string,
    voiceId: string,
    settings: Record<string, unknown>,
  ): Promise<void> {
    await this.request('PUT', `/vendor_c/voices/${encodeURIComponent(voiceId)}/settings`, {
      key_id: simKeyId(key),
      settings,
    });
  }

  /** Adds a version to a vendor_c pronunciation dictionary of `key`'s account (creating it); returns its id. */
  async addVendorCDictionaryVersion(key: string, dictionaryId: string): Promise<string> {
    const body = await this.request<{ version_id: string }>(
      'POST',
      `/vendor_c/dictionaries/${encodeURIComponent(dictionaryId)}/versions`,
      { key_id: simKeyId(key) },
    );
    return body.version_id;
  }

  /** Replaces the entries of a vendor_a pronunciation dictionary in `key`'s account. */
  async setVendorADictionary(
    key: string,
    dictId: string,
    entries: { word: string; pronunciation: string }[],
  ): Promise<void> {
    await this.request('PUT', `/vendor_a/dictionaries/${encodeURIComponent(dictId)}`, {
      key_id: simKeyId(key),
      entries,
    });
  }

  async pacing(): Promise<Record<string, Pacing>> {
    return (await this.request<{ pacing: Record<string, Pacing> }>('GET', '/pacing')).pacing;
  }

  async setPacing(vendor: string, pacing: Partial<Pacing>): Promise<void> {
    await this.request('PUT', '/pacing', { vendor, ...pacing });
  }

  /** Overrides socket idle timeouts (`all` or one vendor); null restores the vendor's own rule. */
  async setIdleTimeout(vendor: string, idleMs: number | null): Promise<void> {
    await this.request('PUT', '/timeouts', { vendor, idleMs });
  }

  async injectFault(fault: InjectFault): Promise<FaultState> {
    const { key, ...rest } = fault;
    const spec = key !== undefined ? { ...rest, keyId: simKeyId(key) } : rest;
    return (await this.request<{ fault: FaultState }>('POST', '/faults', spec)).fault;
  }

  async faults(): Promise<FaultState[]> {
    return (await this.request<{ faults: FaultState[] }>('GET', '/faults')).faults;
  }

  async removeFault(id: string): Promise<void> {
    await this.request('DELETE', `/faults/${encodeURIComponent(id)}`);
  }

  async clearFaults(): Promise<void> {
    await this.request('DELETE', '/faults');
  }

  /** Clears calls, faults, pacing and timeout overrides and every vendor's stored state. */
  async reset(): Promise<void> {
    await this.request('POST', '/reset');
  }

  private async request<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.root}${path}`, {
      method,
      ...(body !== undefined
        ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
        : {}),
    });
    if (!response.ok) {
      throw new Error(`vendor-sim control ${method} ${path}: ${response.status} ${await response.text()}`);
    }
    return (response.status === 204 ? {} : await response.json()) as T;
  }
}
