import {
  CAPACITY_APPS,
  type CapacityStep,
  capacityFigure,
  capacityRetried,
  capacitySessionCounts,
  capacityStepMs,
  capacityStep,
  renderCapacityReport,
  withinBound,
} from './capacity-bench';
import { type CapacityStepResult, seededRandom, sentencePicker, type VariantResult } from './load-plan';
import type { CpuDelta } from './proc-cpu';

const samples = (ttfbMs: number[], more: Partial<VariantResult> = {}): VariantResult => ({
  ttfbMs,
  totalMs: ttfbMs.map((t) => t + 10),
  bytes: 0,
  errors: 0,
  failures: {},
  ...more,
});

const step = (sessions: number, routerP99: number, more: Partial<CapacityStep> = {}): CapacityStep => ({
  sessions,
  attempt: 1,
  sentences: sessions * 5,
  errors: 0,
  failures: {},
  sentencesPerSecond: sessions / 4,
  cachedShare: 0.3,
  wrongCache: 0,
  late: 0,
  p50: 2,
  p99: routerP99 + 3,
  hitP50: 1,
  hitP99: 5,
  missP50: 8,
  missP99: routerP99,
  directN: 100,
  directP50: 2,
  directP99: 3,
  routerP99,
  coresByApp: {},
  routerCores: sessions / 100,
  sessionsPerCore: 100,
  otherAppCores: 0,
  simulatorCores: 0,
  loadGeneratorCores: 0,
  machineBusyShare: 0.5,
  load1: 3,
  ...more,
});

describe('capacitySessionCounts', () => {
  it('doubles from the first count up to the cap, never past it', () => {
    expect(capacitySessionCounts(10, 640)).toEqual([10, 20, 40, 80, 160, 320, 640]);
    expect(capacitySessionCounts(10, 100)).toEqual([10, 20, 40, 80]);
    expect(capacitySessionCounts(50, 40)).toEqual([]);
  });
});

describe('capacityStepMs', () => {
  it('lasts long enough for the sentences asked, and never less than the least length', () => {
    // 10 sessions at one sentence per 4 s: 2.5 a second, so 300 sentences take 120 s.
    expect(capacityStepMs(10, 4000, 300, 30_000)).toBe(120_000);
    expect(capacityStepMs(20, 4000, 300, 30_000)).toBe(60_000);
    expect(capacityStepMs(640, 4000, 300, 30_000)).toBe(30_000);
    expect(capacityStepMs(0, 4000, 300, 30_000)).toBe(1_200_000);
  });
});

describe('sentencePicker', () => {
  it('repeats about the share asked, each pooled sentence about equally often', () => {
    const pick = sentencePicker(seededRandom('session-1'), 0.3, 10);
    const drawn = Array.from({ length: 20_000 }, pick);
    const repeats = drawn.flatMap((d) => (d.repeat ? [d.index] : []));
    expect(repeats.length / drawn.length).toBeGreaterThan(0.28);
    expect(repeats.length / drawn.length).toBeLessThan(0.32);
    const perIndex = Array.from({ length: 10 }, (_, i) => repeats.filter((r) => r === i).length);
    for (const n of perIndex) expect(n).toBeGreaterThan(repeats.length / 10 / 1.3);
    expect(Math.max(...repeats)).toBe(9);
  });

  it('never repeats at a share of 0, always at 1', () => {
    const none = sentencePicker(seededRandom('a'), 0, 10);
    const all = sentencePicker(seededRandom('a'), 1, 10);
    expect(Array.from({ length: 1000 }, none).some((d) => d.repeat)).toBe(false);
    expect(Array.from({ length: 1000 }, all).every((d) => d.repeat)).toBe(true);
  });
});

describe('capacityStep', () => {
  const cpu: CpuDelta = {
    elapsedMs: 20_000,
    processesMs: {
      'edge-gateway': 4000,
      'native-api': 6000,
      'synthesis-worker': 3000,
      'cache-service': 1000,
      'mirror-vendor-a': 200,
      'vendor-sim': 5000,
      'load-generator': 8000,
    },
    machineBusyMs: 36_000,
    machineBusyShare: 0.9,
  };
  // 30 hits at 1..30 ms and 70 misses at 101..170 ms; direct calls at 1..100 ms.
  const result: CapacityStepResult = {
    kind: 'capacity-step',
    id: 'capacity-40-1',
    sessions: 40,
    hits: samples(Array.from({ length: 30 }, (_, i) => i + 1)),
    misses: samples(
      Array.from({ length: 70 }, (_, i) => i + 101),
      { errors: 2, failures: { 'timeout waiting for sentence_end': 2 } },
    ),
    direct: samples(Array.from({ length: 100 }, (_, i) => i + 1)),
    late: 3,
    wrongCache: 1,
    elapsedMs: 20_000,
  };
  const s = capacityStep({ attempt: 1, result, cpu, otherApps: ['mirror-vendor-a'], load1: 4.2 });

  it('takes percentiles over every sentence, and over hits and misses apart', () => {
    expect(s.sentences).toBe(100);
    expect(s.sentencesPerSecond).toBe(5);
    expect(s.cachedShare).toBe(0.3);
    expect(s.p50).toBe(120);
    expect(s.p99).toBe(169);
    expect([s.hitP50, s.hitP99, s.missP50, s.missP99]).toEqual([15, 30, 135, 170]);
    expect(s.errors).toBe(2);
    expect(s.failures).toEqual({ 'timeout waiting for sentence_end': 2 });
  });

  it("charges the vendor's own p99 to the vendor: the router's p99 is the sentences' less the direct call's", () => {
    expect(s.directP99).toBe(99);
    expect(s.routerP99).toBe(70);
  });

  it('counts each app in CPU seconds per wall second and divides the sessions by their sum', () => {
    expect(s.coresByApp).toEqual({
      'edge-gateway': 0.2,
      'native-api': 0.3,
      'synthesis-worker': 0.15,
      'cache-service': 0.05,
    });
    expect(s.routerCores).toBe(0.7);
    expect(s.sessionsPerCore).toBe(57);
    expect(s.otherAppCores).toBe(0.01);
    expect(s.simulatorCores).toBe(0.25);
    expect(s.loadGeneratorCores).toBe(0.4);
  });
});

describe('capacityFigure', () => {
  it('picks the highest step within the bound before the first that broke it', () => {
    const steps = [
      step(10, 5),
      step(20, 6),
      step(40, 30, { routerCores: 0.5, sessionsPerCore: 80 }),
      step(80, 140),
      step(160, 20),
    ];
    const figure = capacityFigure(steps, 100);
    expect(figure.sessions).toBe(40);
    expect(figure.sessionsPerCore).toBe(80);
    expect(figure.routerCores).toBe(0.5);
    expect(figure.boundBroken).toBe(true);
    expect(capacityFigure(steps, 150).sessions).toBe(160);
  });

  it('does not count a step with a failed sentence as within the bound', () => {
    const steps = [step(10, 5), step(20, 6, { errors: 1 })];
    expect(withinBound(steps[1], 100)).toBe(false);
    expect(capacityFigure(steps, 100).sessions).toBe(10);
  });

  it("does not count a step whose direct call broke the bound, however small the router's share came out", () => {
    // A saturated machine: the vendor's own p99 past the bound, the sentences' p99 below it.
    const saturated = step(80, -800, { directP99: 2600, p99: 1800 });
    expect(withinBound(saturated, 250)).toBe(false);
    expect(withinBound(step(80, 40, { directP99: 250 }), 250)).toBe(true);
    expect(capacityFigure([step(10, 5), step(40, 6), saturated, step(160, 9)], 250).sessions).toBe(40);
  });

  it('says when no step was within the bound, and when the cap came first', () => {
    const none = capacityFigure([step(10, 300)], 100);
    expect(none.step).toBeUndefined();
    expect(none.sessions).toBe(0);
    expect(renderCapacityReport([step(10, 300)], none)).toContain('no step was within the 100 ms bound');
    const capped = capacityFigure([step(10, 5), step(20, 6)], 100);
    expect(capped.boundBroken).toBe(false);
    expect(capped.sessions).toBe(20);
    expect(renderCapacityReport([step(10, 5), step(20, 6)], capped)).toContain('this is a floor');
  });

  it('runs a first try that broke the bound once more, never a second', () => {
    expect(capacityRetried(step(80, 140), 100)).toBe(true);
    expect(capacityRetried(step(80, 140, { attempt: 2 }), 100)).toBe(false);
    expect(capacityRetried(step(80, 40), 100)).toBe(false);
  });

  it('reports one row per step with every app, and the figure', () => {
    const steps = [step(10, 5), step(20, 6), step(40, 130)];
    const text = renderCapacityReport(steps, capacityFigure(steps, 100));
    expect(text.split('\n').filter((line) => /^\| (10|20|40) +\|/.test(line))).toHaveLength(3);
    for (const header of ['gateway', 'native-api', 'worker', 'cache-svc', 'router p99']) {
      expect(text).toContain(header);
    }
    expect(CAPACITY_APPS).toHaveLength(4);
    expect(text).toContain('**100 sessions per router core**: 20 sessions on 0.2 cores');
  });
});
