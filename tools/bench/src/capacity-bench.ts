import { round, summarize } from '@router/testing';
import type { CapacityStepResult } from './load-plan';
import type { CpuDelta } from './proc-cpu';
import { markdownTable } from './report';

/**
 * The capacity benchmark (`--only=capacity`): one replica of each app on a `/v1/stream` session's path, agent-like
 * sessions stepped up until the router's p99 from a sentence's end to its first audio passes a bound, and the
 * sessions one core of the router carries at the highest step within it. Its arithmetic only: main.ts runs the
 * steps, the load generator the sessions.
 */

/** The apps a `/v1/stream` sentence passes through, one replica each: whose CPU is the router's here. */
export const CAPACITY_APPS = ['edge-gateway', 'native-api', 'synthesis-worker', 'cache-service'] as const;

/** Sessions per step: `from`, doubled each step, up to `max`. */
export function capacitySessionCounts(from: number, max: number): number[] {
  const counts: number[] = [];
  for (let sessions = from; sessions <= max; sessions *= 2) counts.push(sessions);
  return counts;
}

/**
 * How long a step of `sessions` lasts: `minMs`, or long enough for `minSentences` at one sentence per session
 * every `paceMs` where that is longer, so that even the first steps' p99 is not just their slowest sentence.
 */
export function capacityStepMs(
  sessions: number,
  paceMs: number,
  minSentences: number,
  minMs: number,
): number {
  return Math.max(minMs, Math.ceil((minSentences * paceMs) / Math.max(1, sessions)));
}

export interface CapacityStep {
  sessions: number;
  /** 1, or 2 for a step run again after it broke the bound (`capacityRetried`); the second try stands. */
  attempt: number;
  /** Sentences answered with audio, and those that failed (by reason). */
  sentences: number;
  errors: number;
  failures: Record<string, number>;
  sentencesPerSecond: number;
  /** Share of the answered sentences the router served from its cache (≈ the repeat share asked). */
  cachedShare: number;
  wrongCache: number;
  late: number;
  /** Sentence end sent → first audio, every sentence (ms); then hits and misses apart. */
  p50: number;
  p99: number;
  hitP50: number;
  hitP99: number;
  missP50: number;
  missP99: number;
  /** The vendor's own first audio, straight to the simulator under the same load (ms). */
  directN: number;
  directP50: number;
  directP99: number;
  /** The router's p99: the sentences' p99 less the direct call's (a difference of percentiles). */
  routerP99: number;
  /** CPU seconds per wall second (cores in use) of each of CAPACITY_APPS over the step. */
  coresByApp: Record<string, number>;
  /** The same summed: the router cores the step's sessions used. */
  routerCores: number;
  sessionsPerCore: number;
  /** The other router apps in the stack (the mirror apps, idle here), the simulator and the load generator. */
  otherAppCores: number;
  simulatorCores: number;
  loadGeneratorCores: number;
  machineBusyShare: number;
  /** The 1-minute load average (`uptime`'s first figure) at the step's end. */
  load1: number;
}

/** One step's figures from the load generator's samples and the processes' CPU over the step. */
export function capacityStep(args: {
  attempt: number;
  result: CapacityStepResult;
  cpu: CpuDelta;
  otherApps: readonly string[];
  load1: number;
}): CapacityStep {
  const { result, cpu } = args;
  const all = summarize([...result.hits.ttfbMs, ...result.misses.ttfbMs]);
  const hits = summarize(result.hits.ttfbMs);
  const misses = summarize(result.misses.ttfbMs);
  const direct = summarize(result.direct.ttfbMs);
  const seconds = cpu.elapsedMs / 1000;
  const cores = (name: string): number => (cpu.processesMs[name] ?? 0) / 1000 / seconds;
  const coresByApp = Object.fromEntries(CAPACITY_APPS.map((app) => [app, round(cores(app), 3)]));
  const routerCores = CAPACITY_APPS.reduce((sum, app) => sum + cores(app), 0);
  const failures: Record<string, number> = {};
  for (const [reason, n] of [
    ...Object.entries(result.hits.failures),
    ...Object.entries(result.misses.failures),
  ])
    failures[reason] = (failures[reason] ?? 0) + n;
  return {
    sessions: result.sessions,
    attempt: args.attempt,
    sentences: all.n,
    errors: result.hits.errors + result.misses.errors,
    failures,
    sentencesPerSecond: round(all.n / (result.elapsedMs / 1000), 1),
    cachedShare: all.n > 0 ? round(hits.n / all.n, 3) : Number.NaN,
    wrongCache: result.wrongCache,
    late: result.late,
    p50: round(all.p50, 2),
    p99: round(all.p99, 2),
    hitP50: round(hits.p50, 2),
    hitP99: round(hits.p99, 2),
    missP50: round(misses.p50, 2),
    missP99: round(misses.p99, 2),
    directN: direct.n,
    directP50: round(direct.p50, 2),
    directP99: round(direct.p99, 2),
    routerP99: round(all.p99 - (direct.n > 0 ? direct.p99 : 0), 2),
    coresByApp,
    routerCores: round(routerCores, 3),
    sessionsPerCore: routerCores > 0 ? round(result.sessions / routerCores, 0) : Number.NaN,
    otherAppCores: round(
      args.otherApps.reduce((sum, app) => sum + cores(app), 0),
      3,
    ),
    simulatorCores: round(cores('vendor-sim'), 3),
    loadGeneratorCores: round(cores('load-generator'), 3),
    machineBusyShare: round(cpu.machineBusyShare, 3),
    load1: round(args.load1, 2),
  };
}

/**
 * Within the bound: sentences answered, none failed, the router's p99 at most `boundMs`, and the direct call's
 * too. The router's share is read against the direct call in the same step; where that reference itself passes
 * the bound, the step measures a saturated machine (the simulator, the load generator, other work on the cores),
 * and a difference of two such p99s says nothing of the router (it even comes out below zero).
 */
export function withinBound(step: CapacityStep, boundMs: number): boolean {
  return step.sentences > 0 && step.errors === 0 && step.routerP99 <= boundMs && step.directP99 <= boundMs;
}

/**
 * Whether a step is run once more before it counts: a first try that broke the bound. A p99 over a few hundred
 * sentences is their few slowest, and one stall of another process on a shared machine can break it; a
 * saturated router breaks it on the second try too.
 */
export function capacityRetried(step: CapacityStep, boundMs: number): boolean {
  return step.attempt === 1 && !withinBound(step, boundMs);
}

export interface CapacityFigure {
  boundMs: number;
  /** The highest step within the bound before the first that broke it (undefined: none was within it). */
  step?: CapacityStep;
  sessions: number;
  routerCores: number;
  sessionsPerCore: number;
  /** Whether a step broke the bound; if not, the last step was the cap and the figure a floor. */
  boundBroken: boolean;
}

/** The figure: sessions ÷ router cores at the highest step within the bound, before the first that broke it. */
export function capacityFigure(steps: readonly CapacityStep[], boundMs: number): CapacityFigure {
  const broken = steps.findIndex((s) => !withinBound(s, boundMs));
  const held = broken < 0 ? steps : steps.slice(0, broken);
  const step = held.at(-1);
  return {
    boundMs,
    ...(step ? { step } : {}),
    sessions: step?.sessions ?? 0,
    routerCores: step?.routerCores ?? Number.NaN,
    sessionsPerCore: step?.sessionsPerCore ?? Number.NaN,
    boundBroken: broken >= 0,
  };
}

/** The steps as a table, then the figure in one line. */
export function renderCapacityReport(steps: readonly CapacityStep[], figure: CapacityFigure): string {
  const rows = steps.map((s) => [
    s.sessions,
    s.sentences,
    s.sentencesPerSecond,
    `${Math.round(s.cachedShare * 100)}%`,
    s.p50,
    s.p99,
    s.directP50,
    s.directP99,
    s.routerP99,
    s.errors,
    s.late,
    ...CAPACITY_APPS.map((app) => s.coresByApp[app] ?? Number.NaN),
    s.routerCores,
    s.sessionsPerCore,
    s.simulatorCores,
    `${Math.round(s.machineBusyShare * 100)}%`,
    s.load1,
  ]);
  const verdict = figure.step
    ? `**${figure.sessionsPerCore} sessions per router core**: ${figure.sessions} sessions on ${figure.routerCores} cores, ` +
      `router p99 ${figure.step.routerP99} ms within ${figure.boundMs} ms` +
      (figure.boundBroken ? '' : ' (the last step, the cap: the bound was never broken, so this is a floor)')
    : `no step was within the ${figure.boundMs} ms bound`;
  return [
    `## /v1/stream capacity, one replica of each app (bound: router p99 ≤ ${figure.boundMs} ms)`,
    '',
    markdownTable(
      [
        'sessions',
        'sentences',
        '/s',
        'cached',
        'p50',
        'p99',
        'direct p50',
        'direct p99',
        'router p99',
        'errors',
        'late',
        'gateway',
        'native-api',
        'worker',
        'cache-svc',
        'router cores',
        'sessions/core',
        'simulator',
        'machine busy',
        'load 1m',
      ],
      rows,
    ),
    '',
    verdict,
    '',
  ].join('\n');
}
