import type { Surface } from '@router/testing';
import { judgeMirrors, type MirrorEvidence } from './mirror-checks';
import type { VendorCall } from './soak-checks';
import { audioOf, type MirrorLane, MirrorLaneRecord } from './mirror-traffic';
import { sentencePool } from './sentence-pool';

const pool = sentencePool(2, 40);
const length = (i: number): number => Array.from(pool[i] ?? '').length;
const surface = { vendor: 'vendor_e', kind: 'mirror-socket', name: 'socket /v1/speak' } as Surface;
const lane: MirrorLane = { surface, pool };

/** Records a reply of sentence `i` whose audio hashes to `hash` and holds take `take`. */
function reply(record: MirrorLaneRecord, i: number, hash: string, take: string): void {
  const sentence = pool[i] ?? '';
  const variants = record.replies.get(sentence) ?? new Map();
  const seen = variants.get(hash);
  if (seen) seen.count++;
  else variants.set(hash, { count: 1, bytes: 100, takeId: take });
  record.replies.set(sentence, variants);
  record.ok++;
}

/** Two sentences, each made once by the vendor, committed, and answered twice with the same take. */
function clean(): Omit<MirrorEvidence, 'callsByVendor'> & {
  record: MirrorLaneRecord;
  callsByVendor: Map<string, VendorCall[]>;
} {
  const record = new MirrorLaneRecord();
  for (const i of [0, 1]) {
    reply(record, i, `h${i}`, `t${i}`);
    reply(record, i, `h${i}`, `t${i}`);
  }
  return {
    record,
    lanes: [{ lane, record }],
    callsByVendor: new Map<string, VendorCall[]>([
      [
        'vendor_e',
        [
          { takeId: 't0', chars: length(0), at: 100_000 },
          { takeId: 't1', chars: length(1), at: 100_100 },
          // Another lane's sentence (another length): not this lane's.
          { takeId: 'other', chars: 3, at: 100_200 },
        ],
      ],
    ]),
    committedTakes: new Set(['t0', 't1']),
    faults: { startedAt: 0, storeDown: [], busDown: [], kills: [], cutsExplained: false },
  };
}

describe('judgeMirrors', () => {
  it('finds nothing wrong when each sentence is one vendor call and every reply of it that take', () => {
    const verdict = judgeMirrors(clean());
    expect(verdict.violations).toEqual([]);
    expect(verdict.lanes).toEqual([
      expect.objectContaining({
        vendor: 'vendor_e',
        ok: 4,
        sentencesAnswered: 2,
        vendorCalls: 2,
        bytesCompared: 400,
      }),
    ]);
  });

  it('reports a second vendor call for a sentence that no fault explains', () => {
    const evidence = clean();
    evidence.callsByVendor.get('vendor_e')?.push({ takeId: 't0b', chars: length(0), at: 200_000 });
    expect(judgeMirrors(evidence).violations).toEqual([
      expect.stringMatching(/^\(b\) vendor_e .*#1 ×2 \(at 100\.0 s, 200\.0 s\)/),
    ]);
  });

  it('explains an uncommitted take made while a store was down, and its different replies', () => {
    const evidence = clean();
    evidence.callsByVendor.get('vendor_e')?.push({ takeId: 't0b', chars: length(0), at: 200_000 });
    reply(evidence.record, 0, 'h0b', 't0b');
    evidence.faults = {
      ...evidence.faults,
      storeDown: [{ from: 199_000, to: 203_000 }],
      cutsExplained: true,
    };
    expect(judgeMirrors(evidence).violations).toEqual([]);
  });

  it('reports two different replies of one sentence', () => {
    const evidence = clean();
    reply(evidence.record, 1, 'h1b', 't1');
    expect(judgeMirrors(evidence).violations).toEqual([expect.stringMatching(/^\(a\) vendor_e .*#2/)]);
  });

  it('reports a refusal not to retry, a hung request, and a cut reply only when no fault explains it', () => {
    const evidence = clean();
    // Retryable: the server's failure, and the overload's.
    evidence.record.fail({ end: 'refused', status: 500, audio: Buffer.alloc(0) });
    evidence.record.fail({ end: 'refused', status: 429, audio: Buffer.alloc(0) });
    evidence.record.fail({ end: 'refused', status: 401, audio: Buffer.alloc(0) });
    evidence.record.hung++;
    evidence.record.fail({ end: 'broken', audio: Buffer.from('some audio') });
    expect(judgeMirrors(evidence).violations).toEqual([
      expect.stringContaining('1 refusals a client must not retry'),
      expect.stringContaining('1 requests hung'),
      expect.stringContaining('1 replies that had begun were cut'),
    ]);
    evidence.faults = { ...evidence.faults, cutsExplained: true };
    expect(judgeMirrors(evidence).violations).toHaveLength(2);
  });

  it('reports replies whose sentences no vendor call can be traced to', () => {
    const evidence = clean();
    evidence.callsByVendor.set('vendor_e', []);
    expect(judgeMirrors(evidence).violations).toEqual([expect.stringContaining('no vendor call traced')]);
  });
});

describe('audioOf', () => {
  const take = Buffer.alloc(96, 7);

  it('takes the base64 audio out of a JSON body, leaving its ids aside', () => {
    const body = Buffer.from(
      JSON.stringify({ id: 'resp-1', candidates: [{ inlineData: { data: take.toString('base64') } }] }),
    );
    expect(audioOf(body)).toEqual(take);
  });

  it("joins the audio of an SSE stream's data events in order", () => {
    const half = (k: number): string => take.subarray(k * 48, k * 48 + 48).toString('base64');
    const body = Buffer.from(
      `data: {"audio":"${half(0)}${half(0)}"}\n\ndata: {"audio":"${half(1)}${half(1)}"}\n\ndata: [DONE]\n\n`,
    );
    expect(audioOf(body)).toEqual(
      Buffer.concat([take.subarray(0, 48), take.subarray(0, 48), take.subarray(48), take.subarray(48)]),
    );
  });

  it('joins the audio of a stream of JSON objects, one per line', () => {
    const half = (k: number): string => take.subarray(k * 48, k * 48 + 48).toString('base64');
    const line = (k: number): string =>
      JSON.stringify({ audio_base64: half(k) + half(k), alignment: { characters: ['a'] } });
    const body = Buffer.from(`${line(0)}\n${line(1)}\n`);
    expect(audioOf(body)).toEqual(
      Buffer.concat([take.subarray(0, 48), take.subarray(0, 48), take.subarray(48), take.subarray(48)]),
    );
  });

  it('keeps a body that carries no base64 audio as it came', () => {
    const body = Buffer.from([1, 2, 3, 4]);
    expect(audioOf(body)).toBe(body);
  });
});
