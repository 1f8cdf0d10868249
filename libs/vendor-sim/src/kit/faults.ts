import { randomUUID } from 'node:crypto';

export const FAULT_KINDS = ['error', 'stall', 'cut', 'end', 'garbage', 'trickle'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/**
 * One injected fault. It applies to synthesis calls of `vendor` that match every given filter; `nth` skips
 * the first nth-1 matching calls; it then fires `times` times (default once, `'always'` = until removed).
 *
 * - `error`: the vendor's own error (`status`, default 500; `code` and `message` override the body's) before
 *   any audio, or after `afterBytes` of audio where the protocol can carry an error mid-stream (an SSE error
 *   event, a socket error message); a raw audio stream can only be cut there.
 * - `stall`: no audio for `stallMs` (absent or null = never) before any audio, or after `afterBytes`.
 * - `cut`: the connection is destroyed (TCP, no close frame, no final chunk) after `afterBytes` of audio.
 * - `end`: after `afterBytes` of audio the HTTP body ends as a whole one would (its last chunk sent, the
 *   connection kept), with the rest of the piece that carries that byte sent only in part (half of its
 *   frame: a JSON line or an event cut inside) and no end marker (no done event): a stream a proxy or the
 *   vendor's server ended early. A one-shot body is its first `afterBytes` bytes, sent as the whole answer.
 *   Where an answer has no HTTP body to end (a socket), it is a cut.
 * - `garbage`: after `afterBytes` of audio (0: instead of any, under a 200 head) the body goes on with
 *   `GARBAGE_BYTES`, bytes that are no frame of the protocol nor of its audio (a proxy's error page, an odd
 *   number of bytes so that not even raw 16-bit samples stay whole), then ends as a whole one would, with no end
 *   marker. A one-shot body is its first `afterBytes` bytes and those. Where there is no body (a socket), a cut.
 * - `trickle`: from `afterBytes` of audio on, each piece comes `trickleMs` (default 250) later than the one
 *   before: a vendor sending slower than the audio plays. A one-shot body is sent in ten slices so.
 *
 * `afterBytes` counts audio bytes (the decoded audio of base64 protocols), or the body's bytes for a one-shot
 * response.
 */
export interface FaultSpec {
  readonly vendor: string;
  /** `simKeyId(key)`; absent = any key. */
  readonly keyId?: string;
  /** The vendor's endpoint name as the call log shows it; absent = any. */
  readonly endpoint?: string;
  readonly nth?: number;
  /** Only calls whose text contains this (test-only matching; the text is never logged). */
  readonly textIncludes?: string;
  readonly kind: FaultKind;
  readonly status?: number;
  readonly code?: string;
  readonly message?: string;
  readonly stallMs?: number | null;
  readonly afterBytes?: number;
  /** `trickle` only: the pause before each piece. */
  readonly trickleMs?: number;
  readonly times?: number | 'always';
}

/** What a `garbage` fault sends: a proxy's error page, 51 bytes (odd: no whole 16-bit samples). */
export const GARBAGE_BYTES: Buffer = Buffer.from(
  '<html><body>502 Bad Gateway from a proxy</body></html>',
  'latin1',
).subarray(0, 51);

export interface FaultState extends FaultSpec {
  readonly id: string;
  /** Matching calls seen so far. */
  readonly matched: number;
  /** Times it fired. */
  readonly fired: number;
}

export interface CallFacts {
  readonly vendor: string;
  readonly keyId: string;
  readonly endpoint: string;
  readonly text: string;
}

export class FaultBook {
  private readonly faults: { spec: FaultSpec; id: string; matched: number; fired: number }[] = [];

  add(spec: FaultSpec): FaultState {
    const entry = { spec, id: randomUUID(), matched: 0, fired: 0 };
    this.faults.push(entry);
    return this.view(entry);
  }

  list(): FaultState[] {
    return this.faults.map((f) => this.view(f));
  }

  remove(id: string): boolean {
    const index = this.faults.findIndex((f) => f.id === id);
    if (index === -1) return false;
    this.faults.splice(index, 1);
    return true;
  }

  clear(): void {
    this.faults.length = 0;
  }

  /** The first fault that fires for this call, counting the call against every fault it matches. */
  take(call: CallFacts): FaultSpec | undefined {
    let firing: FaultSpec | undefined;
    for (const entry of this.faults) {
      const { spec } = entry;
      if (spec.vendor !== call.vendor) continue;
      if (spec.keyId !== undefined && spec.keyId !== call.keyId) continue;
      if (spec.endpoint !== undefined && spec.endpoint !== call.endpoint) continue;
      if (spec.textIncludes !== undefined && !call.text.includes(spec.textIncludes)) continue;
      entry.matched++;
      if (firing) continue;
      if (entry.matched < (spec.nth ?? 1)) continue;
      const times = spec.times ?? 1;
      if (times !== 'always' && entry.fired >= times) continue;
      entry.fired++;
      firing = spec;
    }
    return firing;
  }

  private view(entry: { spec: FaultSpec; id: string; matched: number; fired: number }): FaultState {
    return { ...entry.spec, id: entry.id, matched: entry.matched, fired: entry.fired };
  }
}

/** Checks a fault spec from a control request; returns an error message or null. */
export function faultProblem(value: Record<string, unknown>): string | null {
  const known = [
    'vendor',
    'keyId',
    'endpoint',
    'nth',
    'textIncludes',
    'kind',
    'status',
    'code',
    'message',
    'stallMs',
    'afterBytes',
    'trickleMs',
    'times',
  ];
  const unknown = Object.keys(value).find((k) => !known.includes(k));
  if (unknown) return `unknown fault field ${unknown}`;
  if (typeof value['vendor'] !== 'string') return 'vendor is required';
  if (!(FAULT_KINDS as readonly unknown[]).includes(value['kind']))
    return `kind must be one of ${FAULT_KINDS.join(', ')}`;
  for (const name of ['keyId', 'endpoint', 'textIncludes', 'code', 'message']) {
    if (value[name] !== undefined && typeof value[name] !== 'string') return `${name} must be a string`;
  }
  const nonNegative = (name: string): boolean =>
    value[name] === undefined || (Number.isInteger(value[name]) && (value[name] as number) >= 0);
  if (!nonNegative('afterBytes')) return 'afterBytes must be an integer >= 0';
  if (!nonNegative('trickleMs')) return 'trickleMs must be an integer >= 0';
  if (value['stallMs'] !== null && !nonNegative('stallMs')) return 'stallMs must be an integer >= 0 or null';
  if (value['nth'] !== undefined && !(Number.isInteger(value['nth']) && (value['nth'] as number) >= 1)) {
    return 'nth must be an integer >= 1';
  }
  const status = value['status'];
  if (
    status !== undefined &&
    !(Number.isInteger(status) && (status as number) >= 400 && (status as number) <= 599)
  ) {
    return 'status must be an HTTP error status (400..599)';
  }
  const times = value['times'];
  if (times !== undefined && times !== 'always' && !(Number.isInteger(times) && (times as number) >= 1)) {
    return "times must be an integer >= 1 or 'always'";
  }
  return null;
}
