import type { CpuRow } from './report';
import { type LogPhase, renderRequestLogReport, requestLogFigures, sidesInRound } from './request-log-bench';

function phase(
  side: 'on' | 'off',
  round: number,
  hitsPerSecond: number,
  cpu: number,
  native: number,
): LogPhase {
  const row: CpuRow = {
    variant: 'hot-hit',
    concurrency: 50,
    round,
    requests: 1000,
    errors: 0,
    elapsedMs: 1000,
    requestsPerSecond: hitsPerSecond,
    routerCpuMsPerRequest: cpu,
    routerCpuMsPerRequestRaw: cpu,
    perProcessMsPerRequest: { 'native-api': native, 'edge-gateway': cpu - native },
    simulatorCpuMsPerRequest: 0,
    bareProxyCpuMsPerRequest: 0,
    chainCpuMsPerRequest: 0,
    chainPerProcessMsPerRequest: {},
    loadGeneratorCpuMsPerRequest: 0.3,
    machineCpuMsPerRequest: cpu + 1,
    machineBusyShare: 0.5,
    ttfbP50: 4,
    ttfbP99: 9,
    vendorCalls: 0,
    expectedVendorCalls: 0,
  };
  return { side, row };
}

describe('sidesInRound', () => {
  it('runs the log-on stack first in odd rounds and the log-off one first in even rounds', () => {
    expect([1, 2, 3, 4].map((round) => sidesInRound(round).join(','))).toEqual([
      'on,off',
      'off,on',
      'on,off',
      'off,on',
    ]);
  });
});

describe('requestLogFigures', () => {
  // Round 2 ran while the machine was busier: both sides slower, their ratio as in the other rounds.
  const phases = [
    phase('on', 1, 900, 1.1, 0.55),
    phase('off', 1, 1000, 1.0, 0.5),
    phase('on', 2, 450, 2.2, 1.1),
    phase('off', 2, 500, 2.0, 1.0),
    phase('on', 3, 1000, 1.0, 0.5),
    phase('off', 3, 1000, 1.0, 0.5),
  ];

  it('takes on ÷ off within each round, then the median and spread of those ratios', () => {
    const f = requestLogFigures(phases);
    expect(f.rounds).toBe(3);
    expect(f.concurrency).toBe(50);
    expect(f.throughput).toEqual({ perRound: [0.9, 0.9, 1], median: 0.9, min: 0.9, max: 1 });
    expect(f.routerCpu).toEqual({ perRound: [1.1, 1.1, 1], median: 1.1, min: 1, max: 1.1 });
    expect(f.nativeApiCpu.perRound).toEqual([1.1, 1.1, 1]);
  });

  it('gives each side the median of its own rounds', () => {
    const f = requestLogFigures(phases);
    expect(f.medians.on.hitsPerSecond).toBe(900);
    expect(f.medians.off.hitsPerSecond).toBe(1000);
    expect(f.medians.off.routerCpuMsPerHit).toBe(1);
    expect(f.medians.on.nativeApiCpuMsPerHit).toBe(0.55);
  });

  it('leaves out a round one side did not finish', () => {
    const f = requestLogFigures([...phases, phase('on', 4, 10, 50, 25)]);
    expect(f.rounds).toBe(3);
    expect(f.throughput.perRound).toEqual([0.9, 0.9, 1]);
  });

  it('reports every phase and the ratios', () => {
    const text = renderRequestLogReport(requestLogFigures(phases), phases);
    expect(text).toContain('3 rounds, interleaved');
    const phaseLines = text.split('\n').filter((line) => /^\| [123] +\| (on|off) /.test(line));
    // In the order they ran: round 2 measured the log-off stack first.
    expect(
      phaseLines.map((line) => line.split('|').slice(1, 3).join('').replace(/\s+/g, ' ').trim()),
    ).toEqual(['1 on', '1 off', '2 off', '2 on', '3 on', '3 off']);
    expect(text).toMatch(/\| hits\/s +\| 0\.900 +\| 0\.900 +\| 1\.000 +\| 0\.9, 0\.9, 1 /);
  });
});
