import { type CommittedTake, judge, type SoakEvidence, type VendorCall } from './soak-checks';
import { sentencePool } from './sentence-pool';
import { SoakRecord, sha256 } from './soak-record';

const pool = sentencePool(3);
const length = (i: number): number => Array.from(pool[i]).length;
/** A stand-in take: its bytes say which sentence and which take they are. */
const audio = (i: number, take: string): Uint8Array => Buffer.from(`${take}:${'x'.repeat(length(i))}`);
const fullTakeBytes = (sentence: string): number => audio(pool.indexOf(sentence), 't0').length;

function row(i: number, take: string, bytes = audio(i, take)): CommittedTake {
  return {
    objectName: `org/key${i}/${take}.audio`,
    byteSize: bytes.length,
    blob: { size: bytes.length, sha256: sha256(bytes), takeId: take },
  };
}

/** Two sentences asked for, each made once by the vendor, committed and replayed twice over both surfaces. */
function clean(): SoakEvidence & { record: SoakRecord; committed: CommittedTake[]; calls: VendorCall[] } {
  // The stand-in audio names its take before the colon.
  const record = new SoakRecord((bytes) => Buffer.from(bytes).toString().split(':')[0] ?? null);
  for (const i of [0, 1]) {
    record.reply('http', pool[i], audio(i, `t${i}`), 5);
    record.reply('stream', pool[i], audio(i, `t${i}`), 7);
  }
  return {
    pool,
    record,
    committed: [row(0, 't0'), row(1, 't1')],
    calls: [
      { takeId: 't0', chars: length(0), at: 1000 },
      { takeId: 't1', chars: length(1), at: 1100 },
    ],
    callsCounted: 2,
    orphanBlobs: [],
    faults: { startedAt: 0, storeDown: [], busDown: [], kills: [], cutsExplained: false },
    fullTakeBytes,
  };
}

describe('judge', () => {
  it('finds nothing wrong when every reply is its committed take, made by one vendor call', () => {
    const verdict = judge(clean());
    expect(verdict.violations).toEqual([]);
    expect(verdict.figures.vendorCallsPerKey).toEqual({ 1: 2 });
    expect(verdict.figures.requests.http).toEqual({ ok: 2, errors: 0, hung: 0, lost: 0 });
    expect(verdict.figures.latencyMs.stream).toEqual({ n: 2, p50: 7, p99: 7 });
  });

  it('counts retryable errors without calling them violations', () => {
    const evidence = clean();
    evidence.record.error('http', 'provider_unavailable', true);
    evidence.record.error('stream', 'provider_unavailable', true);
    const verdict = judge(evidence);
    expect(verdict.violations).toEqual([]);
    expect(verdict.figures.errorsByCode).toEqual({ provider_unavailable: { count: 2, retryable: true } });
  });

  it('reports a reply cut after it began when only rolling restarts ran, and not when a fault explains it', () => {
    const evidence = clean();
    evidence.record.lose('stream');
    evidence.record.error('stream', 'StreamClosedError', true);
    expect(judge(evidence).violations).toEqual([
      '1 replies that had begun were cut (http 0, stream 1), with no fault that cuts replies',
    ]);
    expect(judge({ ...evidence, faults: { ...evidence.faults, cutsExplained: true } }).violations).toEqual(
      [],
    );
  });

  it('(a) reports a reply that is another take than the committed one', () => {
    const evidence = clean();
    evidence.record.reply('http', pool[0], audio(0, 't9'), 5);
    evidence.calls.push({ takeId: 't9', chars: length(0), at: 5000 });
    evidence.callsCounted++;
    const verdict = judge(evidence);
    expect(verdict.violations).toContain(
      "(a) 1 replies differ from their sentence's committed take (sentences #1)",
    );
    expect(verdict.violations).toContain(
      '(b) the vendor was called more than once for 1 sentences: #1 ×2 (at 1.0 s, 5.0 s)',
    );
    expect(verdict.figures.vendorCallsPerKey).toEqual({ 1: 1, 2: 1 });
  });

  it('counts apart a fresh take made while the store was down, and takes a killed worker or NATS down cut', () => {
    const evidence = clean();
    // The store was down from 4 s to 6 s: sentence #1's committed take could not be read, a fresh one was made.
    evidence.record.reply('http', pool[0], audio(0, 't8'), 5);
    evidence.calls.push({ takeId: 't8', chars: length(0), at: 5000 });
    // A worker killed at 9 s cut a take of sentence #2 that nobody heard whole.
    evidence.calls.push({ takeId: 't7', chars: length(1), at: 8500 });
    // NATS was down from 20 s to 22 s: a take of sentence #2 begun at 19 s was heard whole just before, and its
    // commit could not reach the cache service.
    evidence.record.reply('stream', pool[1], audio(1, 't6'), 5);
    evidence.calls.push({ takeId: 't6', chars: length(1), at: 19_000 });
    evidence.callsCounted += 3;
    evidence.faults = {
      startedAt: 0,
      storeDown: [{ from: 4000, to: 6000 }],
      busDown: [{ from: 20_000, to: 22_000 }],
      kills: [9000],
      cutsExplained: true,
    };
    const verdict = judge(evidence);
    expect(verdict.violations).toEqual([]);
    expect(verdict.figures.freshWhileStoreDown).toEqual({ replies: 1, vendorCalls: 1 });
    expect(verdict.figures.cutByFault).toBe(2);
    expect(verdict.figures.vendorCallsPerKey).toEqual({ 1: 2 });

    // The same takes outside those windows are duplicates, named with the times of their calls.
    evidence.faults = { startedAt: 0, storeDown: [], busDown: [], kills: [], cutsExplained: true };
    const strict = judge(evidence);
    expect(strict.violations).toContain(
      "(a) 2 replies differ from their sentence's committed take (sentences #1, #2)",
    );
    expect(strict.violations).toContain(
      '(b) the vendor was called more than once for 2 sentences: #1 ×2 (at 1.0 s, 5.0 s), #2 ×3 (at 1.1 s, 8.5 s, 19.0 s)',
    );
  });

  it('(a) reports a sentence answered but never committed', () => {
    const evidence = clean();
    evidence.committed.pop();
    expect(judge(evidence).violations).toEqual(['(a) sentences answered but with no committed take: #2']);
  });

  it('(c) reports a blob shorter than a whole take, a missing blob and an orphan', () => {
    const evidence = clean();
    const cut = audio(0, 't0').subarray(0, 4);
    evidence.committed[0] = row(0, 't0', cut);
    evidence.committed[1] = { ...row(1, 't1'), blob: null };
    evidence.orphanBlobs = ['org/key2/t5.audio'];
    const violations = judge(evidence).violations;
    expect(violations[0]).toBe(
      `(c) partial or unreadable cache entries: org/key0/t0.audio: 4 bytes of a ${fullTakeBytes(pool[0])}-byte take, org/key1/t1.audio: no blob`,
    );
    expect(violations).toContain(
      '(c) 1 blobs without an index row after the orphan grace: org/key2/t5.audio',
    );
  });

  it('reports errors not marked retryable, requests that hung, and a call log it cannot read whole', () => {
    const evidence = clean();
    evidence.record.error('http', 'internal', false);
    evidence.record.hang(
      'stream',
      'a stream turn of 2 sentences (1 started, 0 ended), from 2026-11-30T00:13:20.000Z',
    );
    evidence.callsCounted = 3;
    expect(judge(evidence).violations).toEqual([
      'the simulator counted 3 calls but listed 2: (b) cannot be judged',
      'errors not marked retryable: internal ×1',
      '1 requests hung past the request timeout (http 0, stream 1): stream: a stream turn of 2 sentences ' +
        '(1 started, 0 ended), from 2026-11-30T00:13:20.000Z',
    ]);
  });
});
