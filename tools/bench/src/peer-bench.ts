import { round, summarize } from '@router/testing';
import {
  type OpenLoopResult,
  type PhaseResult,
  phaseOrder,
  type PhaseSpec,
  type Variant,
  type VariantResult,
  VARIANTS,
} from './load-plan';
import { type CpuDelta, unmeasuredMs } from './proc-cpu';
import { boundCheck, markdownTable, ratioCheck, type TargetCheck, targetsTable } from './report';

/**
 * The peer benchmark's figures: vendor_d's simulator reached straight, through the bare proxy, through the
 * peer gateway, and through the router (native endpoint, vendor_d mirror, vendor_c mirror), one body for all.
 * Its arithmetic only: main.ts runs the phases.
 */

/** Interleaved, every level: the references, the peer, the router's misses and hits (load-plan.ts). */
export const PEER_VARIANTS: readonly Variant[] = VARIANTS.filter(
  (v) => /^([cd]-|a-ws-)/.test(v) && !v.includes('prime-'),
);

/**
 * Each run alone for CPU per request: every one but the baseline (whose CPU is the simulator's) and the mirror
 * socket's.
 */
export const PEER_CPU_VARIANTS: readonly Variant[] = PEER_VARIANTS.filter(
  (v) => v !== 'd-direct' && !v.startsWith('a-ws-'),
);

/**
 * Stepped up in open loop until their p99 doubles: one hop, the peer, the router's misses (native endpoint and
 * vendor_d mirror) and a router hit.
 */
export const OPEN_LOOP_VARIANTS: readonly Variant[] = [
  'd-proxy',
  'd-peer',
  'd-native',
  'd-mirror',
  'd-mirror-hit',
];

/** The variants each of whose successful requests is one vendor call (the rest are cache hits). */
export const PEER_VENDOR_CALLING: readonly Variant[] = [
  'd-direct',
  'd-proxy',
  'd-peer',
  'd-native',
  'd-mirror',
  'c-mirror',
  'a-ws-miss',
];

/** Whose processes' CPU a variant is charged: the peer's, the bare proxy's, or the router's. */
export function chargedProcesses(variant: Variant, routerApps: readonly string[]): readonly string[] {
  if (variant === 'd-peer') return ['peer-gateway'];
  if (variant === 'd-proxy') return ['bare-proxy'];
  return routerApps;
}

/**
 * The order the CPU variants run alone in round `round` (1-based): shuffled anew each round, seeded by the round
 * (the same in every run), so that no variant always follows the same one and the router's phases and the
 * peer's are interleaved in time, each round seeing the machine as it is then.
 */
export function peerCpuOrder(round: number): Variant[] {
  return phaseOrder(PEER_CPU_VARIANTS, 1, `peer-cpu-r${round}`);
}

/** A measured peer CPU phase's id; its unmeasured warm-up is `peer-cpu-warmup-<variant>-r<round>`. */
export function peerCpuPhaseId(variant: Variant, round: number): string {
  return `peer-cpu-${variant}-r${round}`;
}

/** The CPU variants charged a process of their own (the peer's, the bare proxy's), not the router's. */
const PEER_CPU_REFERENCES: readonly Variant[] = PEER_CPU_VARIANTS.filter(
  (v) => chargedProcesses(v, []).length > 0,
);

/** Whether a phase is a peer CPU phase of the peer or the bare proxy (left out of the router's profiles). */
export function peerReferencePhase(id: string): boolean {
  return PEER_CPU_REFERENCES.some((v) => id.startsWith(`peer-cpu-${v}-r`));
}

export interface PeerTtfbRow {
  variant: Variant;
  n: number;
  errors: number;
  p50: number;
  p99: number;
  /** p50 minus the baseline's (d-direct, same phase): what the path adds. */
  addsP50: number;
  bytesPerRequest: number;
}

export interface PeerLevel {
  concurrency: number;
  rows: PeerTtfbRow[];
  vendorCalls: number;
  expectedVendorCalls: number;
}

export function peerLevel(concurrency: number, result: PhaseResult, vendorCalls: number): PeerLevel {
  const direct = summarize(result.variants['d-direct']?.ttfbMs ?? []);
  const rows = (Object.entries(result.variants) as Array<[Variant, VariantResult]>).map(([variant, r]) => {
    const s = summarize(r.ttfbMs);
    return {
      variant,
      n: s.n,
      errors: r.errors,
      p50: round(s.p50, 3),
      p99: round(s.p99, 3),
      addsP50: round(s.p50 - direct.p50, 3),
      bytesPerRequest: s.n > 0 ? Math.round(r.bytes / s.n) : 0,
    };
  });
  const expectedVendorCalls = PEER_VENDOR_CALLING.reduce(
    (sum, v) => sum + (result.variants[v]?.ttfbMs.length ?? 0),
    0,
  );
  return { concurrency, rows, vendorCalls, expectedVendorCalls };
}

export interface PeerCpuRow {
  variant: Variant;
  /** The round it ran in, 1-based (see `peerCpuOrder`). */
  round: number;
  concurrency: number;
  requests: number;
  requestsPerSecond: number;
  /** CPU per request of the processes the variant is charged (`chargedProcesses`), less their idle rate. */
  cpuMsPerRequest: number;
  /** The whole machine's busy share over the phase (1: both cores busy throughout). */
  machineBusyShare: number;
  /**
   * The machine's CPU per request outside every measured process (the stack, the references, the load
   * generator): PostgreSQL, NATS and the S3 emulator, which a deployment runs elsewhere, and the kernel's
   * share. What the rate at 50 concurrent competes with on a shared machine.
   */
  servicesMsPerRequest: number;
}

export function peerCpuRow(args: {
  variant: Variant;
  round: number;
  concurrency: number;
  result: PhaseResult;
  cpu: CpuDelta;
  routerApps: readonly string[];
  idleMsPerSecond: Record<string, number>;
  /** The same with no requests, per second (`Bench.idleRates`' `servicesMsPerSecond`). */
  idleServicesMsPerSecond: number;
}): PeerCpuRow {
  const requests = args.result.variants[args.variant]?.ttfbMs.length ?? 0;
  const seconds = args.cpu.elapsedMs / 1000;
  const outside = unmeasuredMs(args.cpu) - args.idleServicesMsPerSecond * seconds;
  const ms = chargedProcesses(args.variant, args.routerApps).reduce(
    (sum, name) => sum + (args.cpu.processesMs[name] ?? 0) - (args.idleMsPerSecond[name] ?? 0) * seconds,
    0,
  );
  return {
    variant: args.variant,
    round: args.round,
    concurrency: args.concurrency,
    requests,
    requestsPerSecond: round(requests / (args.result.elapsedMs / 1000), 0),
    cpuMsPerRequest: requests > 0 ? round(ms / requests, 3) : Number.NaN,
    machineBusyShare: round(args.cpu.machineBusyShare, 3),
    servicesMsPerRequest: requests > 0 ? round(outside / requests, 3) : Number.NaN,
  };
}

/** A figure taken within each round, then the median of the rounds and their extremes. */
export interface RoundFigure {
  /** One per round that has the figure, in round order. */
  perRound: number[];
  median: number;
  min: number;
  max: number;
}

function roundFigure(perRound: number[]): RoundFigure | undefined {
  if (perRound.length === 0) return undefined;
  const s = summarize(perRound);
  return { perRound, median: round(s.p50, 3), min: s.min, max: s.max };
}

const cpuAt = (cpu: readonly PeerCpuRow[], variant: Variant, n: number): number | undefined => {
  const ms = cpu.find((r) => r.variant === variant && r.round === n)?.cpuMsPerRequest;
  return ms === undefined || Number.isNaN(ms) ? undefined : ms;
};

const roundsOf = (cpu: readonly PeerCpuRow[]): number[] =>
  [...new Set(cpu.map((r) => r.round))].sort((a, b) => a - b);

/**
 * CPU per request of `numerator` ÷ `denominator`'s, taken within each round both ran in (minutes apart at most,
 * on the machine as it was then), then their median: a ratio of two medians would pair a quiet round's figure
 * with a busy one's.
 */
export function cpuRatioByRound(
  cpu: readonly PeerCpuRow[],
  numerator: Variant,
  denominator: Variant,
): RoundFigure | undefined {
  return roundFigure(
    roundsOf(cpu).flatMap((n) => {
      const a = cpuAt(cpu, numerator, n);
      const b = cpuAt(cpu, denominator, n);
      return a !== undefined && b !== undefined && b > 0 ? [round(a / b, 3)] : [];
    }),
  );
}

export interface PeerCpuMedian {
  variant: Variant;
  concurrency: number;
  rounds: number;
  requestsPerSecond: number;
  /** The median over rounds of CPU per request, with its extremes. */
  cpuMsPerRequest: RoundFigure;
  /** Medians over rounds: the machine's busy share, and its CPU per request outside the measured processes. */
  machineBusyShare: number;
  servicesMsPerRequest: number;
}

/** Per variant, in the order of PEER_CPU_VARIANTS: the medians over rounds. */
export function peerCpuMedians(cpu: readonly PeerCpuRow[]): PeerCpuMedian[] {
  return PEER_CPU_VARIANTS.flatMap((variant) => {
    const rows = cpu.filter((r) => r.variant === variant).sort((a, b) => a.round - b.round);
    const ms = roundFigure(rows.map((r) => r.cpuMsPerRequest).filter((v) => !Number.isNaN(v)));
    if (!ms) return [];
    return [
      {
        variant,
        concurrency: rows[0].concurrency,
        rounds: rows.length,
        requestsPerSecond: round(summarize(rows.map((r) => r.requestsPerSecond)).p50, 0),
        cpuMsPerRequest: ms,
        machineBusyShare: round(summarize(rows.map((r) => r.machineBusyShare)).p50, 3),
        servicesMsPerRequest: round(
          summarize(rows.map((r) => r.servicesMsPerRequest).filter((v) => !Number.isNaN(v))).p50,
          3,
        ),
      },
    ];
  });
}

/** A round figure's extremes as the targets table shows them. */
export function spreadOf(figure: RoundFigure): string {
  return `${figure.min}–${figure.max} (${figure.perRound.length} rounds)`;
}

export interface OpenLoopStep {
  ratePerSecond: number;
  n: number;
  errors: number;
  p50: number;
  p99: number;
  /** Requests answered per second over the step, from the first due to the last answer. */
  achievedPerSecond: number;
}

export interface OpenLoopFigures {
  variant: Variant;
  steps: OpenLoopStep[];
  /**
   * The highest rate that held (`stepHeld`) before two steps in a row did not; 0 when none held. One step that
   * did not hold and a next that did is a burst elsewhere on the machine, not this variant's limit.
   */
  sustainedPerSecond: number;
}

export function openLoopStep(ratePerSecond: number, step: OpenLoopResult): OpenLoopStep {
  const s = summarize(step.result.ttfbMs);
  return {
    ratePerSecond,
    n: s.n,
    errors: step.result.errors,
    p50: round(s.p50, 3),
    p99: round(s.p99, 3),
    achievedPerSecond: round(s.n / (step.elapsedMs / 1000), 0),
  };
}

/** The p99 a step is held against: the lower of the first two steps' (the least loaded, least noisy). */
export function baselineP99(steps: readonly OpenLoopStep[]): number {
  return Math.min(...steps.slice(0, 2).map((s) => s.p99));
}

/**
 * Whether a step held: no errors, the answers kept pace (the step ended within 1.5 × its length), and its p99
 * within twice the baseline's.
 */
export function stepHeld(baseline: number, step: OpenLoopStep, durationMs: number): boolean {
  const keptPace = step.n / step.achievedPerSecond <= (1.5 * durationMs) / 1000;
  return step.errors === 0 && step.n > 0 && keptPace && step.p99 <= 2 * baseline;
}

/**
 * Whether a step is run again before it counts: one that did not hold, past the two baseline steps. On a shared
 * machine a p99 of a few milliseconds doubles with one stall of another process (a p99 of a few hundred requests
 * is their few slowest); saturation doubles it on the second try too, a stall does not. The second try stands.
 */
export function stepRetried(steps: readonly OpenLoopStep[], step: OpenLoopStep, durationMs: number): boolean {
  return steps.length >= 2 && !stepHeld(baselineP99(steps), step, durationMs);
}

/** Whether stepping up should stop: the last two steps did not hold. */
export function openLoopDone(steps: readonly OpenLoopStep[], durationMs: (rate: number) => number): boolean {
  const baseline = baselineP99(steps);
  return (
    steps.length >= 2 && steps.slice(-2).every((s) => !stepHeld(baseline, s, durationMs(s.ratePerSecond)))
  );
}

export function openLoopFigures(
  variant: Variant,
  steps: OpenLoopStep[],
  durationMs: (rate: number) => number,
): OpenLoopFigures {
  const baseline = baselineP99(steps);
  const held = steps.map((s) => stepHeld(baseline, s, durationMs(s.ratePerSecond)));
  let sustained = 0;
  for (let i = 0; i < steps.length; i++) {
    if (!held[i] && held[i + 1] === false) break;
    if (held[i]) sustained = steps[i].ratePerSecond;
  }
  return { variant, steps, sustainedPerSecond: sustained };
}

/** How long a step at `rate` runs: `stepMs`, or long enough for 100 requests (a p99 of fewer is their maximum). */
export function openLoopStepMs(rate: number, stepMs: number): number {
  return Math.max(stepMs, Math.ceil(100_000 / rate));
}

/** The rates an open-loop run tries, lowest first: ×1.5 a step. */
export function openLoopRates(from: number, steps: number): number[] {
  return Array.from({ length: steps }, (_, i) => Math.round(from * 1.5 ** i));
}

export interface PeerOutput {
  levels: PeerLevel[];
  /** Every variant alone, round after round, in the order they ran. */
  cpu: PeerCpuRow[];
  cpuMedians: PeerCpuMedian[];
  openLoop: OpenLoopFigures[];
  targets: TargetCheck[];
}

const rowOf = (level: PeerLevel | undefined, variant: Variant): PeerTtfbRow | undefined =>
  level?.rows.find((r) => r.variant === variant);

/**
 * The issue's ratio targets that involve the peer, the mirrors and the hits, each within this run; the CPU ones
 * within each round, then their median (with the rounds' spread).
 */
export function checkPeerTargets(
  levels: readonly PeerLevel[],
  cpu: readonly PeerCpuRow[],
  openLoop: readonly OpenLoopFigures[],
): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const ratio = (
    what: string,
    target: number,
    a: number | undefined,
    b: number | undefined,
    atMost = true,
  ): void => {
    checks.push(...ratioCheck(what, target, a, b, atMost));
  };
  const cpuRatio = (what: string, target: number, numerator: Variant, denominator: Variant): void => {
    const figure = cpuRatioByRound(cpu, numerator, denominator);
    if (figure) checks.push(boundCheck(what, target, figure.median, true, spreadOf(figure)));
  };
  const one = levels.find((l) => l.concurrency === 1);
  ratio(
    'vendor_d mirror hit, TTFB p50 ÷ direct, 1 concurrent',
    0.5,
    rowOf(one, 'd-mirror-hit')?.p50,
    rowOf(one, 'd-direct')?.p50,
  );
  for (const level of levels) {
    ratio(
      `vendor_d mirror miss overhead ÷ native endpoint's, p50, ${level.concurrency} concurrent`,
      1.1,
      rowOf(level, 'd-mirror')?.addsP50,
      rowOf(level, 'd-native')?.addsP50,
    );
  }
  const highest = levels.reduce<PeerLevel | undefined>(
    (top, l) => (top === undefined || l.concurrency > top.concurrency ? l : top),
    undefined,
  );
  if (highest) {
    ratio(
      `router miss overhead ÷ the peer’s, p50, ${highest.concurrency} concurrent`,
      1.0,
      rowOf(highest, 'd-native')?.addsP50,
      rowOf(highest, 'd-peer')?.addsP50,
    );
    ratio(
      `vendor_d mirror miss overhead ÷ the peer’s, p50, ${highest.concurrency} concurrent`,
      1.0,
      rowOf(highest, 'd-mirror')?.addsP50,
      rowOf(highest, 'd-peer')?.addsP50,
    );
  }
  cpuRatio('router CPU per miss (native, vendor_d) ÷ the peer’s per request', 0.8, 'd-native', 'd-peer');
  cpuRatio('router CPU per vendor_d mirror miss ÷ the peer’s per request', 0.8, 'd-mirror', 'd-peer');
  cpuRatio('router CPU per vendor_c mirror miss ÷ the peer’s per request', 0.8, 'c-mirror', 'd-peer');
  cpuRatio('router CPU per mirror hit ÷ the bare proxy’s per request', 1.0, 'd-mirror-hit', 'd-proxy');
  const sustained = (v: Variant): number | undefined =>
    openLoop.find((o) => o.variant === v)?.sustainedPerSecond;
  ratio(
    'sustained mirror hit rate ÷ the peer’s sustained pass-through rate (same clip)',
    3,
    sustained('d-mirror-hit'),
    sustained('d-peer'),
    false,
  );
  ratio(
    'sustained router miss rate (native) ÷ the peer’s sustained pass-through rate (same clip)',
    1.2,
    sustained('d-native'),
    sustained('d-peer'),
    false,
  );
  ratio(
    'sustained vendor_d mirror miss rate ÷ the peer’s sustained pass-through rate (same clip)',
    1.2,
    sustained('d-mirror'),
    sustained('d-peer'),
    false,
  );
  return checks;
}

export function renderPeerReport(output: PeerOutput): string {
  const out: string[] = ['## The peer beside the router (vendor_d simulator, one OpenAI-style body)', ''];
  for (const level of output.levels) {
    out.push(
      `### ${level.concurrency} concurrent, interleaved (time to first byte, ms; vendor calls ${level.vendorCalls}, expected ${level.expectedVendorCalls})`,
      '',
      markdownTable(
        ['variant', 'n', 'errors', 'p50', 'p99', 'adds p50 (vs d-direct)', 'bytes/request'],
        level.rows.map((r) => [r.variant, r.n, r.errors, r.p50, r.p99, r.addsP50, r.bytesPerRequest]),
      ),
      '',
    );
  }
  if (output.cpu.length) {
    out.push(
      '### CPU per request, each variant alone (peer: its process; d-proxy: the bare proxy; the rest: the router)',
      '',
      'Medians over the rounds, with the lowest and highest round. Machine busy: both cores over the phase. Services:',
      "the machine's CPU per request outside every measured process (PostgreSQL, NATS, the S3 emulator, the kernel),",
      'above its idle rate; a deployment runs those elsewhere, but here they share the two cores with the rest:',
      '',
      markdownTable(
        [
          'variant',
          'concurrent',
          'rounds',
          'req/s',
          'CPU ms/request',
          'min',
          'max',
          'machine busy',
          'services ms/request',
        ],
        output.cpuMedians.map((m) => [
          m.variant,
          m.concurrency,
          m.rounds,
          m.requestsPerSecond,
          m.cpuMsPerRequest.median,
          m.cpuMsPerRequest.min,
          m.cpuMsPerRequest.max,
          `${Math.round(m.machineBusyShare * 100)}%`,
          m.servicesMsPerRequest,
        ]),
      ),
      '',
      'The rounds, in the order the variants ran (shuffled anew each round):',
      '',
      markdownTable(
        ['round', 'variant', 'concurrent', 'requests', 'req/s', 'CPU ms/request'],
        // A stable sort: within a round, the order they ran in.
        [...output.cpu]
          .sort((a, b) => a.round - b.round)
          .map((r) => [
            r.round,
            r.variant,
            r.concurrency,
            r.requests,
            r.requestsPerSecond,
            r.cpuMsPerRequest,
          ]),
      ),
      '',
    );
  }
  if (output.openLoop.length) {
    out.push(
      '### Open loop: fixed arrival rate stepped ×1.5 until p99 doubles (ms from when each request was due)',
      '',
      markdownTable(
        ['variant', 'rate/s', 'n', 'errors', 'p50', 'p99', 'answered/s'],
        output.openLoop.flatMap((o) =>
          o.steps.map((s) => [o.variant, s.ratePerSecond, s.n, s.errors, s.p50, s.p99, s.achievedPerSecond]),
        ),
      ),
      '',
      markdownTable(
        ['variant', 'highest rate sustained (/s)'],
        output.openLoop.map((o) => [o.variant, o.sustainedPerSecond]),
      ),
      '',
    );
  }
  if (output.targets.length) {
    out.push(
      '### Targets (ratios within this run; CPU ones within each round, their median and spread)',
      '',
      targetsTable(output.targets),
      '',
    );
  }
  return out.join('\n');
}

export type PeerPhase = Omit<PhaseSpec, 'kind' | 'maxMs'>;
