import type { PhaseResult } from './load-plan';
import { sizedSentence } from './load-plan';
import {
  chargedProcesses,
  checkPeerTargets,
  type OpenLoopStep,
  openLoopDone,
  openLoopFigures,
  stepRetried,
  openLoopStepMs,
  openLoopRates,
  PEER_VARIANTS,
  peerLevel,
} from './peer-bench';

const step = (ratePerSecond: number, p99: number, more: Partial<OpenLoopStep> = {}): OpenLoopStep => ({
  ratePerSecond,
  n: ratePerSecond,
  errors: 0,
  p50: p99 / 2,
  p99,
  achievedPerSecond: ratePerSecond,
  ...more,
});

describe('peer benchmark arithmetic', () => {
  it('steps the open-loop rate up by half each time', () => {
    expect(openLoopRates(20, 4)).toEqual([20, 30, 45, 68]);
  });

  it('sustains the highest rate that held before two steps in a row did not', () => {
    const each = (): number => 1000;
    // The baseline is the lower of the first two p99s (10); 21 is more than twice that.
    const rates = [
      step(20, 10),
      step(30, 12),
      step(45, 19.9),
      step(68, 21),
      step(100, 12),
      step(150, 30),
      step(225, 25),
    ];
    expect(openLoopFigures('d-peer', rates, each).sustainedPerSecond).toBe(100);
    expect(openLoopDone(rates.slice(0, 4), each)).toBe(false);
    expect(openLoopDone(rates.slice(0, 5), each)).toBe(false);
    expect(openLoopDone(rates, each)).toBe(true);
    // An error, or answers falling behind (30 answered in 2 s of a 1 s step), is a step that did not hold.
    const failing = [step(20, 10), step(30, 10, { errors: 1 }), step(45, 10, { achievedPerSecond: 20 })];
    expect(openLoopFigures('d-peer', failing, each).sustainedPerSecond).toBe(20);
    expect(openLoopFigures('d-peer', [], each).sustainedPerSecond).toBe(0);
  });

  it('tries a step past the baseline once more when it did not hold', () => {
    const each = 1000;
    const baseline = [step(20, 10), step(30, 12)];
    expect(stepRetried([], step(20, 50), each)).toBe(false); // the baseline's own steps are never retried
    expect(stepRetried(baseline, step(45, 20), each)).toBe(false);
    expect(stepRetried(baseline, step(45, 21), each)).toBe(true);
    expect(stepRetried(baseline, step(45, 10, { errors: 1 }), each)).toBe(true);
  });

  it('runs a step long enough for 100 requests', () => {
    expect(openLoopStepMs(20, 2000)).toBe(5000);
    expect(openLoopStepMs(200, 2000)).toBe(2000);
  });

  it('measures every peer variant but the primes, the baseline first', () => {
    expect(PEER_VARIANTS[0]).toBe('d-direct');
    expect(PEER_VARIANTS).toHaveLength(12);
    expect(PEER_VARIANTS.filter((v) => v.includes('prime'))).toEqual([]);
  });

  it('charges the peer its own process, the proxy its own, everything else the router', () => {
    expect(chargedProcesses('d-peer', ['native-api'])).toEqual(['peer-gateway']);
    expect(chargedProcesses('d-proxy', ['native-api'])).toEqual(['bare-proxy']);
    expect(chargedProcesses('d-mirror-hit', ['native-api', 'mirror-vendor-d'])).toEqual([
      'native-api',
      'mirror-vendor-d',
    ]);
  });

  it('takes what each path adds against the baseline of the same phase, and the ratio targets from it', () => {
    const result = (ms: Record<string, number>): PhaseResult => ({
      kind: 'result',
      id: 'p',
      elapsedMs: 1000,
      variants: Object.fromEntries(
        Object.entries(ms).map(([v, t]) => [
          v,
          { ttfbMs: [t], totalMs: [t], bytes: 100, errors: 0, failures: {} },
        ]),
      ),
    });
    const level = peerLevel(
      1,
      result({ 'd-direct': 2, 'd-native': 5, 'd-mirror': 5.2, 'd-mirror-hit': 0.8 }),
      3,
    );
    expect(level.rows.find((r) => r.variant === 'd-mirror')?.addsP50).toBe(3.2);
    expect(level.expectedVendorCalls).toBe(3);
    const cpu = [
      {
        variant: 'd-native' as const,
        concurrency: 50,
        requests: 1,
        requestsPerSecond: 1,
        cpuMsPerRequest: 2,
      },
      { variant: 'd-peer' as const, concurrency: 50, requests: 1, requestsPerSecond: 1, cpuMsPerRequest: 4 },
    ];
    const open = [
      { variant: 'd-peer' as const, steps: [], sustainedPerSecond: 100 },
      { variant: 'd-mirror-hit' as const, steps: [], sustainedPerSecond: 250 },
    ];
    expect(checkPeerTargets([level], cpu, open).map((c) => [c.measured, c.met])).toEqual([
      [0.4, true],
      [1.067, true],
      [0.5, true],
      [2.5, false],
    ]);
  });

  it('sizes a clip by its sentence length, unique per stream and index', () => {
    expect(sizedSentence('d2k', 3, 8)).toBe('d2k 3 a.');
    expect(sizedSentence('d2h', 12, 72)).toHaveLength(72);
    expect(sizedSentence('d2h', 12, 72)).not.toBe(sizedSentence('d2h', 13, 72));
  });
});
