import { round, summarize } from '@router/testing';
import { type CpuRow, markdownTable } from './report';

/**
 * The request log benchmark (`--only=request-log`): the hot hit through the gateway on two stacks started side
 * by side, one with the request log on and one with it off (REQUEST_LOG_ENABLED=false), each round running the
 * variant alone on one stack, then on the other, so both see the same machine minutes apart at most.
 */
export type LogSide = 'on' | 'off';

/** The two stacks, in the order they are started. */
export const LOG_SIDES: readonly LogSide[] = ['on', 'off'];

/**
 * The order of the two stacks in round `round` (1-based): on first in odd rounds, off first in even ones, so
 * whatever favours the first (or the second) phase of a round (a machine getting busier, caches warmed by the
 * other stack) falls on each side as often over an even number of rounds.
 */
export function sidesInRound(round: number): readonly LogSide[] {
  return round % 2 === 1 ? LOG_SIDES : [...LOG_SIDES].reverse();
}

/** One measured phase: a side's `cpuFigures` row for the round it ran in (`row.round`, 1-based). */
export interface LogPhase {
  side: LogSide;
  row: CpuRow;
}

/** Ratios on ÷ off, one per round both sides completed, and their median and extremes (the spread). */
export interface OnOffRatio {
  perRound: number[];
  median: number;
  min: number;
  max: number;
}

export interface SideMedians {
  hitsPerSecond: number;
  routerCpuMsPerHit: number;
  nativeApiCpuMsPerHit: number;
  ttfbP50: number;
  machineBusyShare: number;
}

export interface RequestLogFigures {
  concurrency: number;
  /** Rounds in which both sides were measured. */
  rounds: number;
  /** Hits per second, on ÷ off (below 1: the log costs throughput). */
  throughput: OnOffRatio;
  /** The router processes' CPU per hit, less their idle rate, on ÷ off (above 1: the log costs CPU). */
  routerCpu: OnOffRatio;
  /** native-api's alone: the process that queues and writes the rows. */
  nativeApiCpu: OnOffRatio;
  medians: Record<LogSide, SideMedians>;
}

const median = (values: readonly number[]): number => summarize(values).p50;

function ratio(pairs: ReadonlyArray<[CpuRow, CpuRow]>, figure: (row: CpuRow) => number): OnOffRatio {
  const perRound = pairs
    .map(([on, off]) => round(figure(on) / figure(off), 3))
    .filter((r) => Number.isFinite(r));
  const s = summarize(perRound);
  return { perRound, median: s.p50, min: s.min, max: s.max };
}

const nativeApi = (row: CpuRow): number => row.perProcessMsPerRequest['native-api'] ?? Number.NaN;

/** Pairs each round's on and off phases and takes the ratios within each round, then their medians. */
export function requestLogFigures(phases: readonly LogPhase[]): RequestLogFigures {
  const rounds = [...new Set(phases.map((p) => p.row.round))].sort((a, b) => a - b);
  const at = (side: LogSide, n: number): CpuRow | undefined =>
    phases.find((p) => p.side === side && p.row.round === n)?.row;
  const pairs = rounds.flatMap((n): Array<[CpuRow, CpuRow]> => {
    const on = at('on', n);
    const off = at('off', n);
    return on && off ? [[on, off]] : [];
  });
  const sideMedians = (side: LogSide): SideMedians => {
    const rows = phases.filter((p) => p.side === side).map((p) => p.row);
    const of = (figure: (row: CpuRow) => number): number =>
      round(median(rows.map(figure).filter((v) => !Number.isNaN(v))), 3);
    return {
      hitsPerSecond: of((r) => r.requestsPerSecond),
      routerCpuMsPerHit: of((r) => r.routerCpuMsPerRequest),
      nativeApiCpuMsPerHit: of(nativeApi),
      ttfbP50: of((r) => r.ttfbP50),
      machineBusyShare: of((r) => r.machineBusyShare),
    };
  };
  return {
    concurrency: phases[0]?.row.concurrency ?? 0,
    rounds: pairs.length,
    throughput: ratio(pairs, (r) => r.requestsPerSecond),
    routerCpu: ratio(pairs, (r) => r.routerCpuMsPerRequest),
    nativeApiCpu: ratio(pairs, nativeApi),
    medians: { on: sideMedians('on'), off: sideMedians('off') },
  };
}

/** The rounds side by side, then the ratios on ÷ off with their spread. */
export function renderRequestLogReport(figures: RequestLogFigures, phases: readonly LogPhase[]): string {
  const rows = [...phases]
    .sort(
      (a, b) =>
        a.row.round - b.row.round ||
        sidesInRound(a.row.round).indexOf(a.side) - sidesInRound(b.row.round).indexOf(b.side),
    )
    .map(({ side, row }) => [
      row.round,
      side,
      row.requests,
      row.errors,
      row.requestsPerSecond,
      row.routerCpuMsPerRequest,
      nativeApi(row),
      row.ttfbP50,
      `${Math.round(row.machineBusyShare * 100)}%`,
    ]);
  // Three decimals: the differences looked for are a few per cent at most.
  const spread = (r: OnOffRatio): string[] =>
    [r.median, r.min, r.max].map((v) => v.toFixed(3)).concat(r.perRound.join(', '));
  return [
    `## Request log on and off: hot hits at ${figures.concurrency} concurrent (${figures.rounds} rounds, interleaved, the first side alternating)`,
    '',
    markdownTable(
      [
        'round',
        'log',
        'hits',
        'errors',
        'hits/s',
        'router CPU ms/hit',
        'native-api ms/hit',
        'p50 ms',
        'machine busy',
      ],
      rows,
    ),
    '',
    markdownTable(
      ['on ÷ off', 'median', 'min', 'max', 'per round'],
      [
        ['hits/s', ...spread(figures.throughput)],
        ['router CPU per hit', ...spread(figures.routerCpu)],
        ['native-api CPU per hit', ...spread(figures.nativeApiCpu)],
      ],
    ),
    '',
  ].join('\n');
}
