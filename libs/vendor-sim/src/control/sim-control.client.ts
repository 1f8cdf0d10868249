import type { CallCounts, CallRecord } from '../kit/call-log';
import type { FaultKind, FaultState } from '../kit/faults';
import type { Pacing } from '../kit/pacing';
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
