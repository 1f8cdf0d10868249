import { byLength } from './sentence-pool';
import type { MirrorLane, MirrorLaneRecord } from './mirror-traffic';
import type { FaultWindows, VendorCall } from './soak-checks';

/** As in soak-checks: how long before a fault a take may have begun and still be hurt by it. */
const TAKE_SPAN_MS = 15_000;

export interface MirrorEvidence {
  lanes: ReadonlyArray<{ lane: MirrorLane; record: MirrorLaneRecord }>;
  /** Each vendor's synthesis calls, as the simulator logged them. */
  callsByVendor: ReadonlyMap<string, readonly VendorCall[]>;
  /** Take ids of the org's committed entries, where the blob's audio shows one. */
  committedTakes: ReadonlySet<string>;
  faults: FaultWindows;
}

export interface MirrorLaneFigures {
  vendor: string;
  surface: string;
  ok: number;
  /** Requests that got no whole answer, by how they ended (`refused 503`, `broken` …). */
  failures: Record<string, number>;
  hung: number;
  lost: number;
  sentencesAnswered: number;
  vendorCalls: number;
  /** Audio bytes of the successful replies, each compared with the other replies of its sentence. */
  bytesCompared: number;
}

export interface MirrorVerdict {
  violations: string[];
  lanes: MirrorLaneFigures[];
}

/**
 * The soak's checks on the mirrors' traffic, lane by lane (one surface of one vendor, with sentences of its
 * own): (b) the vendor was called once per sentence, besides the takes the faults explain, never committed (a
 * call while a store was down, one under way while NATS was down, or one a killed worker cut that nobody
 * heard); (a) every
 * successful reply of a sentence is one and the same take, byte for byte, besides fresh takes made while a
 * store was down; no refusal was one a client must not retry (a 4xx but 408 and 429); no request hung; and no reply that had begun was cut
 * unless a fault that cuts replies ran.
 */
export function judgeMirrors(evidence: MirrorEvidence): MirrorVerdict {
  const violations: string[] = [];
  const lanes: MirrorLaneFigures[] = [];
  const { faults } = evidence;
  const busDownAt = (at: number): boolean =>
    faults.busDown.some((w) => at >= w.from - TAKE_SPAN_MS && at <= w.to);
  const storeDownAt = (at: number): boolean =>
    faults.storeDown.some((w) => at >= w.from - TAKE_SPAN_MS && at <= w.to);
  const killedAfter = (at: number): boolean => faults.kills.some((k) => at <= k && at >= k - TAKE_SPAN_MS);

  for (const { lane, record } of evidence.lanes) {
    const { vendor, name } = lane.surface;
    const label = `${vendor} ${name}`;
    const sentenceOfLength = byLength(lane.pool);
    const calls = (evidence.callsByVendor.get(vendor) ?? []).filter((c) => sentenceOfLength.has(c.chars));
    const heard = new Set<string>();
    for (const variants of record.replies.values())
      for (const v of variants.values()) if (v.takeId) heard.add(v.takeId);

    // Takes the faults explain, as for the native traffic.
    const freshTakes = new Set<string>();
    const cutTakes = new Set<string>();
    const counted = new Map<string, number>();
    // When each counted call came, from the start of the traffic: a repeat can then be matched with the faults.
    const callTimes = new Map<string, number[]>();
    const secondsIn = (at: number): string => `${((at - faults.startedAt) / 1000).toFixed(1)} s`;
    for (const call of calls) {
      const committed = evidence.committedTakes.has(call.takeId);
      if (!committed && storeDownAt(call.at)) freshTakes.add(call.takeId);
      else if (!committed && (busDownAt(call.at) || (!heard.has(call.takeId) && killedAfter(call.at))))
        cutTakes.add(call.takeId);
      else {
        const sentence = sentenceOfLength.get(call.chars) ?? '';
        counted.set(sentence, (counted.get(sentence) ?? 0) + 1);
        callTimes.set(sentence, [...(callTimes.get(sentence) ?? []), call.at]);
      }
    }
    if (record.ok > 0 && calls.length === 0)
      violations.push(`(b) ${label}: ${record.ok} replies but no vendor call traced to its sentences`);
    const repeated = [...counted.entries()].filter(([, n]) => n > 1);
    if (repeated.length > 0)
      violations.push(
        `(b) ${label}: the vendor was called more than once for ${repeated.length} sentences (${repeated
          .map(
            ([s, n]) =>
              `#${lane.pool.indexOf(s) + 1} ×${n} (at ${(callTimes.get(s) ?? []).map(secondsIn).join(', ')})`,
          )
          .join(', ')})`,
      );

    let bytesCompared = 0;
    const differing: string[] = [];
    for (const [sentence, variants] of record.replies) {
      const kept = [...variants.values()].filter(
        (v) => !(v.takeId && (freshTakes.has(v.takeId) || cutTakes.has(v.takeId))),
      );
      for (const v of variants.values()) bytesCompared += v.bytes * v.count;
      if (kept.length > 1) differing.push(`#${lane.pool.indexOf(sentence) + 1} (${kept.length} takes)`);
    }
    if (differing.length > 0)
      violations.push(`(a) ${label}: replies of one sentence differ: ${differing.join(', ')}`);
    if (record.notRetryable > 0)
      violations.push(`${label}: ${record.notRetryable} refusals a client must not retry (a 4xx)`);
    if (record.hung > 0) violations.push(`${label}: ${record.hung} requests hung past the request timeout`);
    if (record.lost > 0 && !faults.cutsExplained)
      violations.push(
        `${label}: ${record.lost} replies that had begun were cut, with no fault that cuts replies`,
      );

    lanes.push({
      vendor,
      surface: name,
      ok: record.ok,
      failures: Object.fromEntries(record.failures),
      hung: record.hung,
      lost: record.lost,
      sentencesAnswered: record.replies.size,
      vendorCalls: calls.length,
      bytesCompared,
    });
  }
  return { violations, lanes };
}
