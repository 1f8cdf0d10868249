import { CallLog } from './call-log';
import { FaultBook, type CallFacts, type FaultSpec } from './faults';
import type { Pacing } from './pacing';
import { ReadLog } from './read-log';
import { simKeyId } from './sim-keys';

export interface SimDefaults {
  readonly pacing: Pacing;
  /** Speaking rate of every take, in milliseconds of audio per character. */
  readonly msPerChar: number;
}

export interface SimObserver {
  call(vendor: string, endpoint: string): void;
  fault(vendor: string, kind: string): void;
}

/**
 * Everything a test can set or read while the simulator runs: pacing, idle timeouts, faults and the call
 * log. `reset()` brings it back to the start-up defaults, and vendors register hooks for their own state
 * (stored voice settings, added voices).
 */
export class SimState {
  readonly calls = new CallLog();
  readonly faults = new FaultBook();
  readonly reads = new ReadLog();
  private basePacing: Pacing;
  private readonly pacingByVendor = new Map<string, Pacing>();
  private readonly idleByVendor = new Map<string, number>();
  private baseIdleMs: number | undefined;
  private readonly resetHooks: (() => void)[] = [];

  constructor(
    readonly defaults: SimDefaults,
    private readonly observer?: SimObserver,
  ) {
    this.basePacing = defaults.pacing;
  }

  pacing(vendor: string): Pacing {
    return this.pacingByVendor.get(vendor) ?? this.basePacing;
  }

  /** `all` changes the base and every vendor's own setting alike. */
  setPacing(vendor: string, patch: Partial<Pacing>): void {
    if (vendor === 'all') {
      this.basePacing = { ...this.basePacing, ...patch };
      for (const [v, p] of this.pacingByVendor) this.pacingByVendor.set(v, { ...p, ...patch });
      return;
    }
    this.pacingByVendor.set(vendor, { ...this.pacing(vendor), ...patch });
  }

  pacingTable(): Record<string, Pacing> {
    return { all: this.basePacing, ...Object.fromEntries(this.pacingByVendor) };
  }

  /** A test's override of a socket's idle timeout; undefined = the vendor's own rule. */
  idleTimeoutMs(vendor: string): number | undefined {
    return this.idleByVendor.get(vendor) ?? this.baseIdleMs;
  }

  setIdleTimeout(vendor: string, ms: number | null): void {
    if (vendor === 'all') {
      this.baseIdleMs = ms ?? undefined;
      this.idleByVendor.clear();
    } else if (ms === null) this.idleByVendor.delete(vendor);
    else this.idleByVendor.set(vendor, ms);
  }

  onReset(hook: () => void): void {
    this.resetHooks.push(hook);
  }

  reset(): void {
    this.calls.clear();
    this.faults.clear();
    this.reads.clear();
    this.basePacing = this.defaults.pacing;
    this.pacingByVendor.clear();
    this.idleByVendor.clear();
    this.baseIdleMs = undefined;
    for (const hook of this.resetHooks) hook();
  }

  /** Counts one read that is not synthesis; `key` undefined for a public read. */
  recordRead(vendor: string, what: string, key: string | undefined): void {
    this.reads.record(vendor, what, key === undefined || key === '' ? 'public' : simKeyId(key));
  }

  /** Records one accepted synthesis call and returns the fault injected into it, if any. */
  startCall(call: CallFacts & { takeId: string }): FaultSpec | undefined {
    const fault = this.faults.take(call);
    this.calls.record({
      vendor: call.vendor,
      endpoint: call.endpoint,
      keyId: call.keyId,
      chars: Array.from(call.text).length,
      takeId: call.takeId,
      fault: fault?.kind ?? null,
    });
    this.observer?.call(call.vendor, call.endpoint);
    if (fault) this.observer?.fault(call.vendor, fault.kind);
    return fault;
  }
}
