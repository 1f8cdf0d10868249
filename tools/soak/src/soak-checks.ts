import { percentile } from '@router/testing';
import { byLength } from './sentence-pool';
import type { ErrorCount, SoakRecord, Surface } from './soak-record';

/** An index row of the soak's org, with what the blob store holds under its object name. */
export interface CommittedTake {
  objectName: string;
  byteSize: number;
  /** Null when the blob store has no object of that name. */
  blob: { size: number; sha256: string; takeId: string | null } | null;
}

/** A synthesis call the simulated vendor accepted: the take it made, the text's length and when (ms). */
export interface VendorCall {
  takeId: string;
  chars: number;
  at: number;
}

/** Times (ms) the faults hit: the S3 store down, NATS down, and synthesis workers killed. */
export interface FaultWindows {
  /** When the traffic began (ms): violations name the times of the calls they cite from it. */
  startedAt: number;
  /** While the store was down (and a moment after), a committed take could not be read. */
  storeDown: ReadonlyArray<{ from: number; to: number }>;
  /**
   * While NATS was down (and a moment after): a take under way at a worker could neither reach its listener
   * nor be committed through the cache service, so it was dropped, and the sentence was asked again.
   */
  busDown: ReadonlyArray<{ from: number; to: number }>;
  kills: readonly number[];
  /**
   * Whether a fault that may cut a reply under way ran (a worker killed, NATS or S3 stopped). A rolling restart
   * alone may not: every app drains, so no reply that had begun is lost.
   */
  cutsExplained: boolean;
}

/**
 * How long before a fault a take may have begun and still be cut by it (a kill), or fail its blob write (the
 * store down). Far above a take's length on a quiet machine: on a loaded one (CI beside other work) a take from
 * its vendor call to its commit has been seen to outlast 5 s, and its cut then read as a second call for the key.
 */
const TAKE_SPAN_MS = 15_000;

export interface SoakEvidence {
  pool: readonly string[];
  record: SoakRecord;
  committed: readonly CommittedTake[];
  calls: readonly VendorCall[];
  /** Calls the simulator counted; more than `calls` means its log dropped some and (b) cannot be judged. */
  callsCounted: number;
  /** Blobs no index row names, still there after the orphan grace and a sweep. */
  orphanBlobs: readonly string[];
  faults: FaultWindows;
  /** The bytes of a complete take of the sentence. */
  fullTakeBytes(sentence: string): number;
}

export interface SoakFigures {
  requests: Record<Surface, { ok: number; errors: number; hung: number; lost: number }>;
  errorsByCode: Record<string, ErrorCount>;
  sentencesAnswered: number;
  committedKeys: number;
  repliesDifferingFromCommitted: number;
  /**
   * Replies that were a fresh take made while the store was down (the router synthesizes a sentence whose
   * committed take it cannot read, and caches nothing): allowed, and not counted in the two figures above.
   */
  freshWhileStoreDown: { replies: number; vendorCalls: number };
  /**
   * Vendor calls whose takes a fault cut and left uncommitted: a killed worker's (nobody got them whole), or
   * one under way while NATS was down; the sentence was asked again.
   */
  cutByFault: number;
  vendorCalls: number;
  /** How many sentences the vendor was called for 0, 1, 2 … times (sentences that were asked for). */
  vendorCallsPerKey: Record<string, number>;
  latencyMs: Record<Surface, { n: number; p50: number; p99: number }>;
}

export interface SoakVerdict {
  violations: string[];
  figures: SoakFigures;
}

/** Names a sentence by its place in the pool, never by its text. */
const nameOf = (pool: readonly string[], sentence: string): string => `#${pool.indexOf(sentence) + 1}`;

const list = (names: string[]): string =>
  names.length > 10 ? `${names.slice(0, 10).join(', ')} … (${names.length})` : names.join(', ');

/**
 * The soak's three checks over what it recorded and what the router left behind: (a) every successful reply of
 * a sentence is byte for byte its committed take; (b) the vendor was called once per sentence; (c) no cache
 * entry is partial (each row's blob is there, of the row's size and a complete take's size; no blob lingers
 * without a row). Errors that say they are not worth retrying, and requests left without an answer, are
 * violations too: a fault may fail a request, but only in a way a client can recover from.
 */
export function judge(evidence: SoakEvidence): SoakVerdict {
  const { pool, record } = evidence;
  const violations: string[] = [];
  const sentenceOfLength = byLength(pool);

  // Trace every vendor call, and so every take, to its sentence by the text's length.
  const callsOf = new Map<string, number>();
  const sentenceOfTake = new Map<string, string>();
  let unknownCalls = 0;
  for (const call of evidence.calls) {
    const sentence = sentenceOfLength.get(call.chars);
    if (!sentence) {
      unknownCalls++;
      continue;
    }
    sentenceOfTake.set(call.takeId, sentence);
  }
  if (unknownCalls > 0) violations.push(`${unknownCalls} vendor calls were for no sentence of the pool`);
  if (evidence.callsCounted !== evidence.calls.length)
    violations.push(
      `the simulator counted ${evidence.callsCounted} calls but listed ${evidence.calls.length}: (b) cannot be judged`,
    );

  // Takes the faults explain, never committed: made while the store was down, cut by a killed worker (never heard
  // whole), or under way while NATS was down (its commit could not reach the cache service, though a client may
  // have heard it whole just before). Their extra calls and replies are counted apart.
  const heardTakes = new Set<string>();
  for (const variants of record.replies.values())
    for (const v of variants.values()) if (v.takeId) heardTakes.add(v.takeId);
  const committedTakes = new Set(
    evidence.committed.flatMap((row) => (row.blob?.takeId ? [row.blob.takeId] : [])),
  );
  const storeDownTakes = new Set<string>();
  const cutTakes = new Set<string>();
  const within = (windows: FaultWindows['storeDown'], at: number): boolean =>
    windows.some((w) => at >= w.from - TAKE_SPAN_MS && at <= w.to);
  for (const call of evidence.calls) {
    if (committedTakes.has(call.takeId)) continue;
    if (within(evidence.faults.storeDown, call.at)) storeDownTakes.add(call.takeId);
    else if (
      within(evidence.faults.busDown, call.at) ||
      (!heardTakes.has(call.takeId) &&
        evidence.faults.kills.some((k) => call.at <= k && call.at >= k - TAKE_SPAN_MS))
    )
      cutTakes.add(call.takeId);
  }
  const explained = (takeId: string | null | undefined): boolean =>
    !!takeId && (storeDownTakes.has(takeId) || cutTakes.has(takeId));

  // (c) and the committed take of each sentence.
  const committedOf = new Map<string, string>();
  const partial: string[] = [];
  for (const row of evidence.committed) {
    const { blob } = row;
    if (!blob) {
      partial.push(`${row.objectName}: no blob`);
      continue;
    }
    const sentence = blob.takeId === null ? undefined : sentenceOfTake.get(blob.takeId);
    if (!sentence) {
      partial.push(`${row.objectName}: a take no vendor call made`);
      continue;
    }
    if (blob.size !== row.byteSize)
      partial.push(`${row.objectName}: ${blob.size} bytes, its row says ${row.byteSize}`);
    else if (blob.size !== evidence.fullTakeBytes(sentence))
      partial.push(
        `${row.objectName}: ${blob.size} bytes of a ${evidence.fullTakeBytes(sentence)}-byte take`,
      );
    if (committedOf.has(sentence)) partial.push(`${nameOf(pool, sentence)}: more than one row`);
    committedOf.set(sentence, blob.sha256);
  }
  if (partial.length > 0) violations.push(`(c) partial or unreadable cache entries: ${list(partial)}`);
  if (evidence.orphanBlobs.length > 0)
    violations.push(
      `(c) ${evidence.orphanBlobs.length} blobs without an index row after the orphan grace: ${list([...evidence.orphanBlobs])}`,
    );

  // (a) every successful reply equals its sentence's committed take.
  let differing = 0;
  let freshReplies = 0;
  const differingSentences: string[] = [];
  const uncommitted: string[] = [];
  for (const [sentence, variants] of record.replies) {
    const committed = committedOf.get(sentence);
    const fresh = [...variants.values()].filter((v) => v.takeId && storeDownTakes.has(v.takeId));
    freshReplies += fresh.reduce((sum, v) => sum + v.count, 0);
    if (committed === undefined) {
      if (fresh.length < variants.size) uncommitted.push(nameOf(pool, sentence));
      continue;
    }
    let here = 0;
    for (const [hash, variant] of variants)
      if (hash !== committed && !explained(variant.takeId)) here += variant.count;
    if (here > 0) {
      differing += here;
      differingSentences.push(nameOf(pool, sentence));
    }
  }
  if (differing > 0)
    violations.push(
      `(a) ${differing} replies differ from their sentence's committed take (sentences ${list(differingSentences)})`,
    );
  if (uncommitted.length > 0)
    violations.push(`(a) sentences answered but with no committed take: ${list(uncommitted)}`);

  // (b) one vendor call per sentence asked for, besides the takes the faults explain.
  const callTimes = new Map<string, number[]>();
  for (const call of evidence.calls) {
    const sentence = sentenceOfTake.get(call.takeId);
    if (sentence && !explained(call.takeId)) {
      callsOf.set(sentence, (callsOf.get(sentence) ?? 0) + 1);
      callTimes.set(sentence, [...(callTimes.get(sentence) ?? []), call.at]);
    }
  }
  const histogram: Record<string, number> = {};
  const repeated: string[] = [];
  for (const sentence of pool) {
    const calls = callsOf.get(sentence) ?? 0;
    if (calls === 0 && !record.replies.has(sentence)) continue;
    histogram[calls] = (histogram[calls] ?? 0) + 1;
    if (calls > 1) {
      const times = (callTimes.get(sentence) ?? []).map(
        (at) => `${((at - evidence.faults.startedAt) / 1000).toFixed(1)} s`,
      );
      repeated.push(`${nameOf(pool, sentence)} ×${calls} (at ${times.join(', ')})`);
    }
  }
  if (repeated.length > 0)
    violations.push(
      `(b) the vendor was called more than once for ${repeated.length} sentences: ${list(repeated)}`,
    );

  const errorsByCode: Record<string, ErrorCount> = {};
  for (const surface of ['http', 'stream'] as const) {
    for (const [code, seen] of record.errors[surface]) {
      const merged = (errorsByCode[code] ??= { count: 0, retryable: true });
      merged.count += seen.count;
      merged.retryable &&= seen.retryable;
    }
  }
  const fatal = Object.entries(errorsByCode).filter(([, e]) => !e.retryable);
  if (fatal.length > 0)
    violations.push(
      `errors not marked retryable: ${fatal.map(([code, e]) => `${code} ×${e.count}`).join(', ')}`,
    );
  const lost = record.lost.http + record.lost.stream;
  if (lost > 0 && !evidence.faults.cutsExplained)
    violations.push(
      `${lost} replies that had begun were cut (http ${record.lost.http}, stream ${record.lost.stream}), with no fault that cuts replies`,
    );
  const hung = record.hung.http + record.hung.stream;
  if (hung > 0)
    violations.push(
      `${hung} requests hung past the request timeout (http ${record.hung.http}, stream ${record.hung.stream})` +
        (record.hangs.length > 0 ? `: ${record.hangs.join('; ')}` : ''),
    );

  const count = (surface: Surface): number =>
    [...record.errors[surface].values()].reduce((sum, e) => sum + e.count, 0);
  const latency = (surface: Surface): { n: number; p50: number; p99: number } => {
    const sorted = [...record.latencyMs[surface]].sort((a, b) => a - b);
    return { n: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  };
  return {
    violations,
    figures: {
      requests: {
        http: { ok: record.ok.http, errors: count('http'), hung: record.hung.http, lost: record.lost.http },
        stream: {
          ok: record.ok.stream,
          errors: count('stream'),
          hung: record.hung.stream,
          lost: record.lost.stream,
        },
      },
      errorsByCode,
      sentencesAnswered: record.replies.size,
      committedKeys: evidence.committed.length,
      repliesDifferingFromCommitted: differing,
      freshWhileStoreDown: { replies: freshReplies, vendorCalls: storeDownTakes.size },
      cutByFault: cutTakes.size,
      vendorCalls: evidence.calls.length,
      vendorCallsPerKey: histogram,
      latencyMs: { http: latency('http'), stream: latency('stream') },
    },
  };
}
