import type { PhaseResult } from './load-plan';
import { sizedSentence } from './load-plan';
import {
  chargedProcesses,
  checkPeerTargets,
  cpuRatioByRound,
  type OpenLoopFigures,
  type OpenLoopStep,
  openLoopDone,
  openLoopFigures,
  stepRetried,
  openLoopStepMs,
  openLoopRates,
  PEER_CPU_VARIANTS,
  PEER_VARIANTS,
  type PeerCpuRow,
  peerCpuRow,
  peerCpuMedians,
  peerCpuOrder,
  peerCpuPhaseId,
  peerLevel,
  peerReferencePhase,
  renderPeerReport,
} from './peer-bench';
import type { Variant } from './load-plan';

/** CPU rows of one variant, one per round: `ms[i]` is round i + 1's CPU per request. */
const cpuRows = (variant: Variant, ms: number[]): PeerCpuRow[] =>
  ms.map((cpuMsPerRequest, i) => ({
    variant,
    round: i + 1,
    concurrency: 50,
    requests: 200,
    requestsPerSecond: 100 * (i + 1),
    cpuMsPerRequest,
    machineBusyShare: 0.5 + 0.1 * i,
    servicesMsPerRequest: 1 + i,
  }));

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
    const level = peerLevel(
      1,
      result({ 'd-direct': 2, 'd-native': 5, 'd-mirror': 5.2, 'd-mirror-hit': 0.8 }),
      3,
    );
    expect(level.rows.find((r) => r.variant === 'd-mirror')?.addsP50).toBe(3.2);
    expect(level.expectedVendorCalls).toBe(3);
    const cpu = [...cpuRows('d-native', [2]), ...cpuRows('d-peer', [4])];
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

  it('runs the CPU variants in an order shuffled anew each round, the same in every run', () => {
    const rounds = [1, 2, 3].map(peerCpuOrder);
    for (const order of rounds) expect([...order].sort()).toEqual([...PEER_CPU_VARIANTS].sort());
    expect(new Set(rounds.map((order) => order.join())).size).toBe(3);
    expect(peerCpuOrder(2)).toEqual(rounds[1]);
    expect(peerCpuPhaseId('d-native', 2)).toBe('peer-cpu-d-native-r2');
  });

  it('leaves the peer’s and the bare proxy’s CPU phases out of the router’s profiles', () => {
    expect(peerReferencePhase(peerCpuPhaseId('d-peer', 1))).toBe(true);
    expect(peerReferencePhase(peerCpuPhaseId('d-proxy', 3))).toBe(true);
    expect(peerReferencePhase(peerCpuPhaseId('d-native', 1))).toBe(false);
    expect(peerReferencePhase(peerCpuPhaseId('d-mirror-hit', 1))).toBe(false);
    expect(peerReferencePhase('cpu-miss-50-r1')).toBe(false);
  });

  it('charges a CPU phase its processes less their idle rate, and the machine what no measured process used', () => {
    const row = peerCpuRow({
      variant: 'd-native',
      round: 2,
      concurrency: 50,
      result: { ...result({ 'd-native': 10 }), elapsedMs: 2000 },
      cpu: {
        elapsedMs: 2000,
        processesMs: { 'edge-gateway': 120, 'native-api': 80, peer: 30, 'load-generator': 70 },
        machineBusyMs: 900,
        machineBusyShare: 0.225,
      },
      routerApps: ['edge-gateway', 'native-api'],
      idleMsPerSecond: { 'edge-gateway': 10, peer: 5 },
      idleServicesMsPerSecond: 50,
    });
    // One request: the router's 120 + 80 less the gateway's idle 10/s over 2 s; outside the measured processes
    // 900 − 300, less the idle 50/s over 2 s.
    expect(row).toMatchObject({
      requests: 1,
      cpuMsPerRequest: 180,
      machineBusyShare: 0.225,
      servicesMsPerRequest: 500,
    });
  });

  it('takes CPU ratios within each round, then their median and spread', () => {
    // Per round 0.5, 1 and 1.5: the median is 1, where the ratio of the medians (2 ÷ 3) would be 0.667.
    const cpu = [...cpuRows('d-native', [2, 3, 1.5]), ...cpuRows('d-peer', [4, 3, 1])];
    expect(cpuRatioByRound(cpu, 'd-native', 'd-peer')).toEqual({
      perRound: [0.5, 1, 1.5],
      median: 1,
      min: 0.5,
      max: 1.5,
    });
    // A round either lacks (no requests answered: NaN) is left out, not counted as zero.
    const gap = [...cpuRows('d-native', [2, Number.NaN, 3]), ...cpuRows('d-peer', [4, 3, 2])];
    expect(cpuRatioByRound(gap, 'd-native', 'd-peer')?.perRound).toEqual([0.5, 1.5]);
    expect(cpuRatioByRound(cpu, 'd-mirror', 'd-peer')).toBeUndefined();
    expect(peerCpuMedians([...cpuRows('d-peer', [4, 3, 1]), ...cpuRows('d-proxy', [0.6])])).toEqual([
      {
        variant: 'd-proxy',
        concurrency: 50,
        rounds: 1,
        requestsPerSecond: 100,
        cpuMsPerRequest: { perRound: [0.6], median: 0.6, min: 0.6, max: 0.6 },
        machineBusyShare: 0.5,
        servicesMsPerRequest: 1,
      },
      {
        variant: 'd-peer',
        concurrency: 50,
        rounds: 3,
        requestsPerSecond: 200,
        cpuMsPerRequest: { perRound: [4, 3, 1], median: 3, min: 1, max: 4 },
        machineBusyShare: 0.6,
        servicesMsPerRequest: 2,
      },
    ]);
  });

  it('checks the router’s misses against the peer: CPU per round, overhead at the highest level, sustained rate', () => {
    const levels = [1, 50].map((concurrency) =>
      peerLevel(
        concurrency,
        result(
          concurrency === 1
            ? { 'd-direct': 2, 'd-peer': 3, 'd-native': 2.5, 'd-mirror': 2.6 }
            : { 'd-direct': 4, 'd-peer': 6, 'd-native': 6.4, 'd-mirror': 5.5 },
        ),
        0,
      ),
    );
    const cpu = [
      ...cpuRows('d-peer', [4, 3, 2]),
      ...cpuRows('d-native', [2, 3, 1.2]),
      ...cpuRows('d-mirror', [3.6, 2.1, 1.8]),
      ...cpuRows('c-mirror', [2.8, 2.4, 1.8]),
      ...cpuRows('d-proxy', [1, 1, 1]),
      ...cpuRows('d-mirror-hit', [0.5, 1.2, 0.9]),
    ];
    const open: OpenLoopFigures[] = [
      { variant: 'd-peer', steps: [], sustainedPerSecond: 100 },
      { variant: 'd-native', steps: [], sustainedPerSecond: 119 },
      { variant: 'd-mirror', steps: [], sustainedPerSecond: 150 },
    ];
    const checks = checkPeerTargets(levels, cpu, open);
    const of = (what: string) => {
      const c = checks.find((check) => check.what === what);
      return c && [c.target, c.measured, c.met, c.spread];
    };
    // At 50 concurrent the native endpoint adds 2.4 ms, the mirror 1.5, the peer 2 (not the 1 concurrent level's).
    expect(of('router miss overhead ÷ the peer’s, p50, 50 concurrent')).toEqual([
      '≤ 1',
      1.2,
      false,
      undefined,
    ]);
    expect(of('vendor_d mirror miss overhead ÷ the peer’s, p50, 50 concurrent')).toEqual([
      '≤ 1',
      0.75,
      true,
      undefined,
    ]);
    expect(checks.some((c) => c.what.includes('the peer’s, p50, 1 concurrent'))).toBe(false);
    // Per round 0.5, 1, 0.6; 0.9, 0.7, 0.9; 0.7, 0.8, 0.9; and 0.5, 1.2, 0.9 against the bare proxy.
    expect(of('router CPU per miss (native, vendor_d) ÷ the peer’s per request')).toEqual([
      '≤ 0.8',
      0.6,
      true,
      '0.5–1 (3 rounds)',
    ]);
    expect(of('router CPU per vendor_d mirror miss ÷ the peer’s per request')).toEqual([
      '≤ 0.8',
      0.9,
      false,
      '0.7–0.9 (3 rounds)',
    ]);
    expect(of('router CPU per vendor_c mirror miss ÷ the peer’s per request')).toEqual([
      '≤ 0.8',
      0.8,
      true,
      '0.7–0.9 (3 rounds)',
    ]);
    expect(of('router CPU per mirror hit ÷ the bare proxy’s per request')).toEqual([
      '≤ 1',
      0.9,
      true,
      '0.5–1.2 (3 rounds)',
    ]);
    expect(
      of('sustained router miss rate (native) ÷ the peer’s sustained pass-through rate (same clip)'),
    ).toEqual(['≥ 1.2', 1.19, false, undefined]);
    expect(
      of('sustained vendor_d mirror miss rate ÷ the peer’s sustained pass-through rate (same clip)'),
    ).toEqual(['≥ 1.2', 1.5, true, undefined]);
    // No mirror hit ran in open loop: that target is left out, not failed.
    expect(checks.some((c) => c.what.startsWith('sustained mirror hit rate'))).toBe(false);
  });

  it('shows the CPU medians with their spread before the rounds, and the targets’ spread', () => {
    const cpu = [...cpuRows('d-peer', [4, 3]), ...cpuRows('d-native', [2, 1.5])];
    const report = renderPeerReport({
      levels: [],
      cpu,
      cpuMedians: peerCpuMedians(cpu),
      openLoop: [],
      targets: checkPeerTargets([], cpu, []),
    });
    const lines = report.split('\n');
    const medians = lines.findIndex((l) => /^\| variant +\| concurrent +\| rounds/.test(l));
    const rounds = lines.findIndex((l) => /^\| round +\| variant/.test(l));
    expect(medians).toBeGreaterThan(0);
    expect(rounds).toBeGreaterThan(medians);
    // Nearest-rank median of two rounds: the lower.
    expect(lines[medians + 2]).toMatch(
      /^\| d-peer +\| 50 +\| 2 +\| 100 +\| 3 +\| 3 +\| 4 +\| 50% +\| 1 +\|$/,
    );
    // The rounds in order, each round's variants in the order they ran.
    expect(lines.slice(rounds + 2, rounds + 6).map((l) => l.split('|')[2].trim())).toEqual([
      'd-peer',
      'd-native',
      'd-peer',
      'd-native',
    ]);
    expect(lines.find((l) => l.startsWith('| router CPU per miss'))).toMatch(
      /\| 0\.50 +\| 0\.5–0\.5 \(2 rounds\) +\| yes +\|$/,
    );
  });

  it('sizes a clip by its sentence length, unique per stream and index', () => {
    expect(sizedSentence('d2k', 3, 8)).toBe('d2k 3 a.');
    expect(sizedSentence('d2h', 12, 72)).toHaveLength(72);
    expect(sizedSentence('d2h', 12, 72)).not.toBe(sizedSentence('d2h', 13, 72));
  });
});
