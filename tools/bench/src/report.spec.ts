import type { PhaseResult, VariantResult } from './load-plan';
import { checkTargets, cpuFigures, interleavedFigures, markdownTable } from './report';

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

  it('checks the targets at 1 concurrent', () => {
    const checks = checkTargets([interleavedFigures(1, result, quietCpu, 12)], []);
    expect(checks.map((c) => [c.measured, c.met])).toEqual([
      [2, true],
      [1, true],
    ]);
  });
});

describe('cpuFigures', () => {
  it('divides router CPU by successful requests after taking off the idle rate', () => {
    const row = cpuFigures({
      variant: 'miss',
      concurrency: 50,
      result: { kind: 'result', id: 'cpu-miss-50', elapsedMs: 2000, variants: { miss: ok([1, 1, 1, 1]) } },
      cpu: {
        elapsedMs: 2000,
        processesMs: { 'edge-gateway': 10, 'native-api': 12, 'vendor-sim': 8 },
        machineBusyMs: 40,
        machineBusyShare: 0.5,
      },
      routerApps: ['edge-gateway', 'native-api'],
      idleMsPerSecond: { 'native-api': 2 },
      vendorCalls: 4,
      expectedVendorCalls: 4,
    });
    expect(row.routerCpuMsPerRequestRaw).toBe(5.5);
    expect(row.routerCpuMsPerRequest).toBe(4.5);
    expect(row.perProcessMsPerRequest).toEqual({ 'edge-gateway': 2.5, 'native-api': 2 });
    expect(row.simulatorCpuMsPerRequest).toBe(2);
    const [check] = checkTargets([], [row]);
    expect(check).toMatchObject({ measured: 4.5, met: false });
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
