import { round, summarize } from '@router/testing';
import { markdownTable, type TargetCheck } from './report';

/**
 * Several full runs' targets side by side: each ratio's median over the runs and their spread, so that a change
 * can be told from the machine's noise (`node dist/tools/bench/main.js summarize <run.json> …`).
 */

/** The part of a run's JSON (`tmp/bench/bench-<time>.json`) this reads: its targets, wherever a benchmark put them. */
export interface RunRecord {
  startedAt?: string;
  targets?: TargetCheck[];
  stream?: { targets?: TargetCheck[] };
  peer?: { targets?: TargetCheck[] };
}

export interface RunsRow {
  what: string;
  target: string;
  /** The median of the runs' figures (nearest rank: the middle one of three). */
  median: number;
  lowest: number;
  highest: number;
  /** In how many runs the target was met, of `runs`. */
  met: number;
  runs: number;
}

/** Every target of the runs, in the order of the first run that has it; a figure a run lacks is left out of it. */
export function summarizeRuns(records: readonly RunRecord[]): RunsRow[] {
  const byWhat = new Map<string, TargetCheck[]>();
  for (const record of records) {
    for (const check of [
      ...(record.targets ?? []),
      ...(record.stream?.targets ?? []),
      ...(record.peer?.targets ?? []),
    ]) {
      if (!Number.isFinite(check.measured)) continue;
      byWhat.set(check.what, [...(byWhat.get(check.what) ?? []), check]);
    }
  }
  return [...byWhat.entries()].map(([what, checks]) => {
    const values = checks.map((c) => c.measured);
    const s = summarize(values);
    return {
      what,
      target: checks[0].target,
      median: round(s.p50, 3),
      lowest: round(Math.min(...values), 3),
      highest: round(Math.max(...values), 3),
      met: checks.filter((c) => c.met).length,
      runs: checks.length,
    };
  });
}

export function renderRunsSummary(rows: readonly RunsRow[], runs: readonly string[]): string {
  return [
    `## Targets over ${runs.length} runs (${runs.join(', ')})`,
    '',
    markdownTable(
      ['figure', 'target', 'median', 'spread', 'met in'],
      rows.map((r) => [r.what, r.target, r.median, `${r.lowest}–${r.highest}`, `${r.met} of ${r.runs}`]),
    ),
    '',
  ].join('\n');
}
