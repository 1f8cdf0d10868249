import type { PhaseResult, Variant, VariantResult } from './load-plan';
import type { MemoryReading } from './memory-probe';
import {
  checkStreamTargets,
  checkTargets,
  cpuFigures,
  type CpuRow,
  interleavedFigures,
  markdownTable,
  medianOfRounds,
  memoryFigures,
  type MemoryStep,
  renderReport,
  streamLatencyFigures,
  targetsTable,
} from './report';

const ok = (ttfbMs: number[]): VariantResult => ({
  ttfbMs,
  totalMs: ttfbMs,
  bytes: 1,
  errors: 0,
  failures: {},
});
const quietCpu = { elapsedMs: 1000, processesMs: {}, machineBusyMs: 0, machineBusyShare: 0.25 };

describe('interleavedFigures', () => {
  const result: PhaseResult = {
    kind: 'result',
    id: 'interleaved-1',
    elapsedMs: 1000,
    variants: {
      direct: ok([2, 2, 2, 4]),
      proxy: ok([3, 3, 3, 5]),
      miss: ok([4, 4, 4, 10]),
      'hot-hit': ok([1, 1, 1, 2]),
    },
  };

  it('reports each variant against direct and the overheads as differences of percentiles', () => {
    const level = interleavedFigures(1, result, quietCpu, 12);
    expect(level.overheadP50Ms).toBe(2);
    expect(level.overheadP99Ms).toBe(6);
    expect(level.bareProxyOverheadP50Ms).toBe(1);
    expect(level.rows.find((r) => r.variant === 'miss')).toMatchObject({
      p50: 4,
      p50VsDirect: 2,
      p99VsDirect: 2.5,
    });
    expect(level.expectedVendorCalls).toBe(12);
  });

  it("sets the router against the naive chain, and counts the chain's requests as vendor calls", () => {
    const withChain: PhaseResult = {
      ...result,
      variants: { ...result.variants, chain: ok([6, 6, 6, 12]) },
    };
    const level = interleavedFigures(1, withChain, quietCpu, 16);
    expect(level).toMatchObject({
      chainOverheadP50Ms: 4,
      chainOverheadP99Ms: 8,
      overheadVsChainP50: 0.5,
      overheadVsChainP99: 0.75,
      expectedVendorCalls: 16,
    });
    // Without the chain, or with a chain no slower than direct, there is nothing to divide by.
    expect(interleavedFigures(1, result, quietCpu, 12).overheadVsChainP50).toBeNaN();
    const level2 = interleavedFigures(
      1,
      { ...result, variants: { ...result.variants, chain: ok([2, 2, 2, 4]) } },
      quietCpu,
      16,
    );
    expect(level2.overheadVsChainP50).toBeNaN();
    // The chain that also caches calls the vendor once per request too.
    const withBoth = { ...withChain, variants: { ...withChain.variants, 'chain-cached': ok([7, 7, 7, 7]) } };
    expect(interleavedFigures(1, withBoth, quietCpu, 20).expectedVendorCalls).toBe(20);
  });

  it('checks the targets at 1 concurrent as ratios to the references of the same phase', () => {
    const withChain = { ...result, variants: { ...result.variants, chain: ok([6, 6, 6, 10]) } };
    const checks = checkTargets([interleavedFigures(1, withChain, quietCpu, 16)], []);
    // Miss adds 2 where the chain adds 4; the hot hit's p50 is half direct's.
    expect(checks.map((c) => [c.what, c.measured, c.met])).toEqual([
      ["router overhead on a miss ÷ the naive chain's, p50, 1 concurrent", 0.5, true],
      ["hot-hit time to first byte ÷ direct's, p50, 1 concurrent", 0.5, true],
    ]);
    // No chain in the phase: no overhead ratio to check.
    expect(checkTargets([interleavedFigures(1, result, quietCpu, 12)], []).map((c) => c.measured)).toEqual([
      0.5,
    ]);
  });
});

describe('cpuFigures', () => {
  it('divides router CPU by successful requests after taking off the idle rate', () => {
    const row = cpuFigures({
      variant: 'miss',
      concurrency: 50,
      round: 1,
      result: { kind: 'result', id: 'cpu-miss-50', elapsedMs: 2000, variants: { miss: ok([1, 1, 1, 1]) } },
      cpu: {
        elapsedMs: 2000,
        processesMs: {
          'edge-gateway': 10,
          'native-api': 12,
          'vendor-sim': 8,
          'chain-gateway': 4,
          'chain-app': 6,
        },
        machineBusyMs: 40,
        machineBusyShare: 0.5,
      },
      routerApps: ['edge-gateway', 'native-api'],
      chainProcesses: ['chain-gateway', 'chain-app'],
      idleMsPerSecond: { 'native-api': 2, 'chain-app': 1 },
      vendorCalls: 4,
      expectedVendorCalls: 4,
    });
    expect(row.routerCpuMsPerRequestRaw).toBe(5.5);
    expect(row.routerCpuMsPerRequest).toBe(4.5);
    expect(row.perProcessMsPerRequest).toEqual({ 'edge-gateway': 2.5, 'native-api': 2 });
    expect(row.simulatorCpuMsPerRequest).toBe(2);
    // The chain is a reference beside the router, never part of its figure.
    expect(row.chainCpuMsPerRequest).toBe(2);
    expect(row.chainPerProcessMsPerRequest).toEqual({ 'chain-gateway': 1, 'chain-app': 1 });
    const chainRow = { ...row, variant: 'chain' as const, chainCpuMsPerRequest: 4 };
    const [check] = checkTargets([], [row, chainRow]);
    expect(check).toMatchObject({ measured: 1.125, met: false });
  });
});

describe('medianOfRounds', () => {
  const row = (variant: Variant, round: number, router: number, chain: number, api: number): CpuRow => ({
    variant,
    concurrency: 50,
    round,
    requests: 400,
    errors: 0,
    elapsedMs: 1000,
    requestsPerSecond: 400,
    routerCpuMsPerRequest: router,
    routerCpuMsPerRequestRaw: router + 0.1,
    perProcessMsPerRequest: { 'native-api': api },
    simulatorCpuMsPerRequest: 2,
    bareProxyCpuMsPerRequest: 0,
    chainCpuMsPerRequest: chain,
    chainPerProcessMsPerRequest: { 'chain-app': chain / 2 },
    loadGeneratorCpuMsPerRequest: 1,
    machineCpuMsPerRequest: 9,
    machineBusyShare: 0.8,
    ttfbP50: 100,
    ttfbP99: 200,
    vendorCalls: 400,
    expectedVendorCalls: 400,
  });
  const rows = [
    row('chain', 1, 0, 2, 0),
    row('miss', 1, 4, 0, 1.5),
    row('chain', 2, 0, 3, 0),
    row('miss', 2, 9, 0, 1),
    row('chain', 3, 0, 4, 0),
    row('miss', 3, 5, 0, 3),
  ];

  it('takes each figure, per process too, as the median of the rounds', () => {
    const medians = medianOfRounds(rows);
    expect(medians).toHaveLength(2);
    const miss = medians.find((r) => r.variant === 'miss');
    expect(miss).toMatchObject({ round: 0, routerCpuMsPerRequest: 5, routerCpuMsPerRequestRaw: 5.1 });
    expect(miss?.perProcessMsPerRequest).toEqual({ 'native-api': 1.5 });
    expect(medians.find((r) => r.variant === 'chain')?.chainCpuMsPerRequest).toBe(3);
    const [check] = checkTargets([], medians);
    expect(check).toMatchObject({ measured: 1.667, met: false });
  });

  it('reports miss ÷ chain within each round, and the median of those ratios', () => {
    const report = renderReport([], rows, []);
    expect(report).toContain('median of 3 rounds');
    // Rounds: 4 ÷ 2, 9 ÷ 3, 5 ÷ 4; the median of the ratios is 2, where the medians' ratio would be 5 ÷ 3.
    expect(report).toMatch(/\| 50 +\| 1 +\| 4 +\| 2 +\| 2 +\|/);
    expect(report).toMatch(/\| 50 +\| 2 +\| 9 +\| 3 +\| 3 +\|/);
    expect(report).toMatch(/\| 50 +\| 3 +\| 5 +\| 4 +\| 1\.25 +\|/);
    expect(report).toMatch(/\| 50 +\| median +\| 5 +\| 3 +\| 2 +\|/);
  });

  it('sets miss beside the chain that also caches, round by round, in columns of its own', () => {
    const withCached = [...rows, row('chain-cached', 1, 0, 8, 0), row('chain-cached', 2, 0, 6, 0)];
    const report = renderReport([], withCached, []);
    expect(report).toContain('| miss ÷ chain, same round | miss ÷ chain-cached, same round |');
    expect(report).not.toContain('chain-cached (router)');
    // Round 1: miss 4, chain 2, chain-cached 8; round 3 has no chain-cached, so no ratio to it.
    expect(report).toMatch(/\| 50 +\| 1 +\| 4 +\| 2 +\| 8 +\| 2 +\| 0\.50 +\|/);
    expect(report).toMatch(/\| 50 +\| 2 +\| 9 +\| 3 +\| 6 +\| 3 +\| 1\.50 +\|/);
    expect(report).toMatch(/\| 50 +\| 3 +\| 5 +\| 4 +\| – +\| 1\.25 +\| – +\|/);
  });
});

describe('markdownTable', () => {
  it('pads columns and prints numbers briefly', () => {
    expect(
      markdownTable(
        ['a', 'bb'],
        [
          [1.234, 'x'],
          [Number.NaN, 100.4],
        ],
      ),
    ).toBe(['| a    | bb  |', '|------|-----|', '| 1.23 | x   |', '| –    | 100 |'].join('\n'));
  });
});

describe('streamLatencyFigures', () => {
  it('sets the stream against direct and against the speech endpoint, and counts its misses as vendor calls', () => {
    const result: PhaseResult = {
      kind: 'result',
      id: 'stream-interleaved',
      elapsedMs: 1000,
      variants: {
        direct: ok([2, 2, 2, 4]),
        'stream-hit': ok([1, 1, 1, 3]),
        'hot-hit': ok([2, 2, 2, 2]),
        'stream-miss': ok([5, 5, 5, 9]),
        miss: ok([6, 6, 6, 6]),
      },
    };
    const figures = streamLatencyFigures(1, result, quietCpu, 12);
    expect(figures).toMatchObject({
      missOverheadP50Ms: 3,
      missOverheadP99Ms: 5,
      hitVsSpeechP50Ms: -1,
      missVsSpeechP50Ms: -1,
      expectedVendorCalls: 12,
    });
    expect(figures.rows.find((r) => r.variant === 'stream-hit')?.p50VsDirect).toBe(0.5);
    const [check] = checkStreamTargets(figures, []);
    expect(check).toMatchObject({ measured: 1, met: true });
  });
});

describe('memoryFigures', () => {
  const reading = (heapUsed: number, rss = 0): MemoryReading => ({
    rss,
    heapTotal: 0,
    heapUsed,
    external: 0,
    arrayBuffers: 0,
  });
  const step = (connections: number, heap: number, rss = 0): MemoryStep => ({
    connections,
    byProcess: { 'native-api': reading(heap, rss) },
  });

  it('gives KiB per connection as a fitted slope and end to end, and what closing left behind', () => {
    const steps = [step(0, 1000 * 1024), step(10, 1100 * 1024, 50 * 1024), step(20, 1400 * 1024, 100 * 1024)];
    const [api] = memoryFigures(steps, step(0, 1010 * 1024), ['native-api']);
    expect(api).toMatchObject({
      process: 'native-api',
      heapUsedKiB: 20,
      heapUsedEndToEndKiB: 20,
      rssKiB: 5,
      heapLeftAfterCloseKiB: 10,
    });
    const [check] = checkStreamTargets(undefined, [{ ...api, heapUsedKiB: 70 }]);
    expect(check).toMatchObject({ measured: 70, met: false });
  });
});

describe('targetsTable', () => {
  const check = { what: 'a ÷ b', target: '≤ 0.8', measured: 0.6, met: true };

  it('adds a spread column only when a check was taken in rounds', () => {
    expect(targetsTable([check]).split('\n')[0]).not.toContain('spread');
    const rows = targetsTable([check, { ...check, what: 'c ÷ d', spread: '0.5–1 (3 rounds)' }]).split('\n');
    expect(rows[0]).toMatch(/^\| figure +\| target +\| measured +\| spread +\| met +\|$/);
    expect(rows[2]).toMatch(/^\| a ÷ b +\| ≤ 0\.8 +\| 0\.60 +\| +\| yes +\|$/);
    expect(rows[3]).toMatch(/^\| c ÷ d +\| ≤ 0\.8 +\| 0\.60 +\| 0\.5–1 \(3 rounds\) +\| yes +\|$/);
  });
});
