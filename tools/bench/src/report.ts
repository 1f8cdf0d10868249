import { round, slope, summarize } from '@router/testing';
import type { CpuDelta } from './proc-cpu';
import type { PhaseResult, Variant } from './load-plan';
import type { MemoryReading } from './memory-probe';

/** The figures the issue compares against (2-core machine, p50 at 1 concurrent request). */
export const REFERENCE = [
  { system: 'bare Node reverse proxy', overheadP50Ms: 0.9, cpuMsPerRequest: null },
  { system: 'naive gateway → app → NATS → worker', overheadP50Ms: 2.4, cpuMsPerRequest: 2.3 },
  { system: 'open-source Node AI gateway', overheadP50Ms: 4.3, cpuMsPerRequest: 3.5 },
] as const;

/**
 * The targets, as ratios to references measured in the same run (issue 25; milliseconds move with the machine,
 * ratios far less), and the stream's two absolute ones.
 */
export const TARGETS = {
  /** Router overhead on a miss ÷ the naive chain's, p50, at 1 and at 50 concurrent. */
  missOverheadVsChainAtOne: 0.8,
  missOverheadVsChainAtFifty: 1.0,
  /** Router CPU per miss ÷ the naive chain's per request, 50 concurrent. */
  missCpuVsChain: 1.0,
  /** Hot-hit time to first byte ÷ direct's, p50, 1 concurrent. */
  hotHitVsDirect: 0.5,
  /** Router CPU per hot hit ÷ the bare proxy's per request, 50 concurrent. */
  hotHitCpuVsProxy: 1.0,
  /** /v1/stream: a cached first sentence's end to its first audio byte, p50, 1 concurrent (ms). */
  streamHitP50AtOneMs: 5,
  /** /v1/stream: native-api heap per idle connection (KiB). */
  streamHeapPerIdleConnectionKiB: 64,
} as const;

export interface TtfbRow {
  variant: Variant;
  n: number;
  errors: number;
  p50: number;
  p90: number;
  p99: number;
  mean: number;
  /** This variant's percentile divided by the direct-to-simulator one from the same run. */
  p50VsDirect: number;
  p99VsDirect: number;
  /** Body bytes per successful request (the audio each path moved). */
  bytesPerRequest: number;
}

export interface InterleavedResult {
  concurrency: number;
  elapsedMs: number;
  rows: TtfbRow[];
  /** Router miss minus direct, at each percentile (difference of percentiles, not of paired samples). */
  overheadP50Ms: number;
  overheadP99Ms: number;
  /** The bare reverse proxy minus direct: what one plain Node hop costs in the same run. */
  bareProxyOverheadP50Ms: number;
  bareProxyOverheadP99Ms: number;
  /** The naive gateway → app → NATS → worker chain minus direct: the other reference, same run. */
  chainOverheadP50Ms: number;
  chainOverheadP99Ms: number;
  /**
   * The router's overhead on a miss divided by the naive chain's, at each percentile (below 1: the router adds
   * less than the chain); NaN when the chain's overhead is not above zero, where a ratio says nothing.
   */
  overheadVsChainP50: number;
  overheadVsChainP99: number;
  /** Miss minus uncached: what the cache lookup before a miss adds to its first byte. */
  cacheOnMissP50Ms: number;
  machineBusyShare: number;
  vendorCalls: number;
  expectedVendorCalls: number;
}

export interface CpuRow {
  variant: Variant;
  concurrency: number;
  /** Which of the level's rounds (1-based); 0 in a row of medians over rounds (`medianOfRounds`). */
  round: number;
  requests: number;
  errors: number;
  elapsedMs: number;
  requestsPerSecond: number;
  /** Router processes' CPU per request, less what they burn idle over the same interval. */
  routerCpuMsPerRequest: number;
  routerCpuMsPerRequestRaw: number;
  perProcessMsPerRequest: Record<string, number>;
  simulatorCpuMsPerRequest: number;
  bareProxyCpuMsPerRequest: number;
  /** The naive chain's processes together, less their idle rate: a reference, like the bare proxy's. */
  chainCpuMsPerRequest: number;
  /** The same, per chain process (gateway, app, worker). */
  chainPerProcessMsPerRequest: Record<string, number>;
  loadGeneratorCpuMsPerRequest: number;
  /** Every process on the machine, ours or not. */
  machineCpuMsPerRequest: number;
  machineBusyShare: number;
  ttfbP50: number;
  ttfbP99: number;
  vendorCalls: number;
  expectedVendorCalls: number;
}

/** Each variant of an interleaved phase against the direct baseline measured side by side. */
export function ttfbRows(result: PhaseResult): TtfbRow[] {
  const rows: TtfbRow[] = [];
  const direct = summarize(result.variants.direct?.ttfbMs ?? []);
  for (const variant of Object.keys(result.variants) as Variant[]) {
    const r = result.variants[variant];
    if (!r) continue;
    const s = summarize(r.ttfbMs);
    rows.push({
      variant,
      n: s.n,
      errors: r.errors,
      p50: round(s.p50, 3),
      p90: round(s.p90, 3),
      p99: round(s.p99, 3),
      mean: round(s.mean, 3),
      p50VsDirect: round(s.p50 / direct.p50),
      p99VsDirect: round(s.p99 / direct.p99),
      bytesPerRequest: s.n > 0 ? Math.round(r.bytes / s.n) : 0,
    });
  }
  return rows;
}

/** The naive chains, whose CPU is the chain's processes' (never the router's). */
const REFERENCE_CHAINS: readonly Variant[] = ['chain', 'chain-cached'];

/** The references set beside the router, none of them served by it: straight to the vendor, one hop, the chains. */
export const REFERENCE_VARIANTS: readonly Variant[] = ['direct', 'proxy', ...REFERENCE_CHAINS];

/** The variants whose every successful request is one vendor call. */
export const VENDOR_CALLING: readonly Variant[] = [...REFERENCE_VARIANTS, 'miss', 'uncached'];

/** Successful requests of `variants` in a phase (those of VENDOR_CALLING each made one vendor call). */
function succeeded(result: PhaseResult, variants: readonly Variant[]): number {
  return variants.reduce((sum, v) => sum + (result.variants[v]?.ttfbMs.length ?? 0), 0);
}

/** The interleaved phase's figures: each variant against the direct baseline measured side by side. */
export function interleavedFigures(
  concurrency: number,
  result: PhaseResult,
  cpu: CpuDelta,
  vendorCalls: number,
): InterleavedResult {
  const rows = ttfbRows(result);
  const direct = summarize(result.variants.direct?.ttfbMs ?? []);
  const miss = summarize(result.variants.miss?.ttfbMs ?? []);
  const proxy = summarize(result.variants.proxy?.ttfbMs ?? []);
  const uncached = summarize(result.variants.uncached?.ttfbMs ?? []);
  const chain = summarize(result.variants.chain?.ttfbMs ?? []);
  const vsChain = (router: number, reference: number): number =>
    reference > 0 ? round(router / reference) : Number.NaN;
  return {
    concurrency,
    elapsedMs: round(result.elapsedMs, 0),
    rows,
    overheadP50Ms: round(miss.p50 - direct.p50, 3),
    overheadP99Ms: round(miss.p99 - direct.p99, 3),
    bareProxyOverheadP50Ms: round(proxy.p50 - direct.p50, 3),
    bareProxyOverheadP99Ms: round(proxy.p99 - direct.p99, 3),
    chainOverheadP50Ms: round(chain.p50 - direct.p50, 3),
    chainOverheadP99Ms: round(chain.p99 - direct.p99, 3),
    overheadVsChainP50: vsChain(miss.p50 - direct.p50, chain.p50 - direct.p50),
    overheadVsChainP99: vsChain(miss.p99 - direct.p99, chain.p99 - direct.p99),
    cacheOnMissP50Ms: round(miss.p50 - uncached.p50, 3),
    machineBusyShare: round(cpu.machineBusyShare, 3),
    vendorCalls,
    expectedVendorCalls: succeeded(result, VENDOR_CALLING),
  };
}

/**
 * One variant run alone: CPU per request of the router's processes (less their idle rate over the same
 * interval), of the references (bare proxy, naive chain), of the simulator, of the load generator and of
 * the whole machine.
 */
export function cpuFigures(args: {
  variant: Variant;
  concurrency: number;
  round: number;
  result: PhaseResult;
  cpu: CpuDelta;
  routerApps: readonly string[];
  /** The naive chain's processes: read as a reference, never counted as the router's. */
  chainProcesses: readonly string[];
  /** CPU ms per second each process uses with no requests at all. */
  idleMsPerSecond: Record<string, number>;
  vendorCalls: number;
  expectedVendorCalls: number;
}): CpuRow {
  const { variant, result, cpu, routerApps } = args;
  const r = result.variants[variant];
  const requests = r?.ttfbMs.length ?? 0;
  const per = (ms: number): number => (requests > 0 ? ms / requests : Number.NaN);
  const seconds = cpu.elapsedMs / 1000;
  const net = (name: string): number =>
    (cpu.processesMs[name] ?? 0) - (args.idleMsPerSecond[name] ?? 0) * seconds;
  const raw = routerApps.reduce((sum, name) => sum + (cpu.processesMs[name] ?? 0), 0);
  const ttfb = summarize(r?.ttfbMs ?? []);
  return {
    variant,
    concurrency: args.concurrency,
    round: args.round,
    requests,
    errors: r?.errors ?? 0,
    elapsedMs: round(result.elapsedMs, 0),
    requestsPerSecond: round(requests / (result.elapsedMs / 1000), 0),
    routerCpuMsPerRequest: round(per(routerApps.reduce((sum, name) => sum + net(name), 0)), 3),
    routerCpuMsPerRequestRaw: round(per(raw), 3),
    perProcessMsPerRequest: Object.fromEntries(routerApps.map((name) => [name, round(per(net(name)), 3)])),
    simulatorCpuMsPerRequest: round(per(cpu.processesMs['vendor-sim'] ?? 0), 3),
    bareProxyCpuMsPerRequest: round(per(net('bare-proxy')), 3),
    chainCpuMsPerRequest: round(per(args.chainProcesses.reduce((sum, name) => sum + net(name), 0)), 3),
    chainPerProcessMsPerRequest: Object.fromEntries(
      args.chainProcesses.map((name) => [name, round(per(net(name)), 3)]),
    ),
    loadGeneratorCpuMsPerRequest: round(per(cpu.processesMs['load-generator'] ?? 0), 3),
    machineCpuMsPerRequest: round(per(cpu.machineBusyMs), 3),
    machineBusyShare: round(cpu.machineBusyShare, 3),
    ttfbP50: round(ttfb.p50, 3),
    ttfbP99: round(ttfb.p99, 3),
    vendorCalls: args.vendorCalls,
    expectedVendorCalls: args.expectedVendorCalls,
  };
}

/**
 * One row per level and variant, each figure the median of that variant's rounds (nearest rank: the middle
 * round of three), per process too. Rounds measure the same code minutes apart, so their spread is the
 * machine's; the median drops a round that a burst elsewhere on the machine inflated.
 */
export function medianOfRounds(rows: readonly CpuRow[]): CpuRow[] {
  const groups = new Map<string, CpuRow[]>();
  for (const row of rows) {
    const id = `${row.concurrency}:${row.variant}`;
    groups.set(id, [...(groups.get(id) ?? []), row]);
  }
  const median = (values: number[]): number => summarize(values.filter((v) => !Number.isNaN(v))).p50;
  const medianRecord = (records: Array<Record<string, number>>): Record<string, number> =>
    Object.fromEntries(
      Object.keys(records[0] ?? {}).map((name) => [name, median(records.map((r) => r[name] ?? Number.NaN))]),
    );
  return [...groups.values()].map((group) => {
    const first = group[0];
    const numbers = Object.fromEntries(
      Object.entries(first)
        .filter(([, value]) => typeof value === 'number')
        .map(([key]) => [key, median(group.map((row) => row[key as keyof CpuRow] as number))]),
    );
    return {
      ...first,
      ...numbers,
      round: 0,
      perProcessMsPerRequest: medianRecord(group.map((row) => row.perProcessMsPerRequest)),
      chainPerProcessMsPerRequest: medianRecord(group.map((row) => row.chainPerProcessMsPerRequest)),
    };
  });
}

/**
 * The router's CPU per request of each variant round by round beside the naive chains' measured in the same
 * round, and miss ÷ each chain within each round: the ratio that carries from one machine state to another.
 */
function roundsTable(rows: readonly CpuRow[], medians: readonly CpuRow[]): string {
  const measured = [...new Set(rows.map((r) => r.variant))];
  const variants = measured.filter((v) => !REFERENCE_CHAINS.includes(v));
  const chains = REFERENCE_CHAINS.filter((v) => measured.includes(v));
  const levels = [...new Set(rows.map((r) => r.concurrency))];
  const table: Array<Array<string | number>> = [];
  for (const concurrency of levels) {
    const rounds = [...new Set(rows.filter((r) => r.concurrency === concurrency).map((r) => r.round))];
    const ratios = chains.map((): number[] => []);
    for (const n of rounds) {
      const at = (variant: Variant): CpuRow | undefined =>
        rows.find((r) => r.concurrency === concurrency && r.round === n && r.variant === variant);
      const chainCpu = chains.map((c) => at(c)?.chainCpuMsPerRequest ?? Number.NaN);
      const miss = at('miss')?.routerCpuMsPerRequest ?? Number.NaN;
      const roundRatios = chainCpu.map((cpu) => round(miss / cpu, 3));
      roundRatios.forEach((ratio, i) => ratios[i]?.push(ratio));
      table.push([
        concurrency,
        n,
        ...variants.map((v) => at(v)?.routerCpuMsPerRequest ?? Number.NaN),
        ...chainCpu,
        ...roundRatios,
      ]);
    }
    const medianOf = (variant: Variant): CpuRow | undefined =>
      medians.find((r) => r.concurrency === concurrency && r.variant === variant);
    table.push([
      concurrency,
      'median',
      ...variants.map((v) => medianOf(v)?.routerCpuMsPerRequest ?? Number.NaN),
      ...chains.map((c) => medianOf(c)?.chainCpuMsPerRequest ?? Number.NaN),
      ...ratios.map((r) => summarize(r.filter((v) => !Number.isNaN(v))).p50),
    ]);
  }
  return markdownTable(
    [
      'conc',
      'round',
      ...variants.map((v) => `${v} (router)`),
      ...chains,
      ...chains.map((c) => `miss ÷ ${c}, same round`),
    ],
    table,
  );
}

export interface TargetCheck {
  what: string;
  target: string;
  measured: number;
  met: boolean;
  /** For a figure taken in rounds (`measured` their median): the lowest and highest round's, "0.72–1.12". */
  spread?: string;
}

/** A figure checked against its bound: at most `bound` (`atMost`), else at least. */
export function boundCheck(
  what: string,
  bound: number,
  measured: number,
  atMost = true,
  spread?: string,
): TargetCheck {
  return {
    what,
    target: `${atMost ? '≤' : '≥'} ${bound}`,
    measured,
    met: atMost ? measured <= bound : measured >= bound,
    ...(spread !== undefined ? { spread } : {}),
  };
}

/** A ratio target's check; none when the reference is missing or not above zero. */
export function ratioCheck(
  what: string,
  bound: number,
  value: number | undefined,
  reference: number | undefined,
  atMost = true,
): TargetCheck[] {
  if (value === undefined || reference === undefined || !(reference > 0) || Number.isNaN(value)) return [];
  return [boundCheck(what, bound, round(value / reference, 3), atMost)];
}

/** `cpu`: the medians of the rounds (`medianOfRounds`). */
export function checkTargets(interleaved: InterleavedResult[], cpu: CpuRow[]): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const level of interleaved) {
    const atMost =
      level.concurrency === 1 ? TARGETS.missOverheadVsChainAtOne : TARGETS.missOverheadVsChainAtFifty;
    checks.push(
      ...ratioCheck(
        `router overhead on a miss ÷ the naive chain's, p50, ${level.concurrency} concurrent`,
        atMost,
        level.overheadP50Ms,
        level.chainOverheadP50Ms,
      ),
    );
  }
  const one = interleaved.find((r) => r.concurrency === 1);
  const p50 = (variant: Variant): number | undefined => one?.rows.find((r) => r.variant === variant)?.p50;
  checks.push(
    ...ratioCheck(
      "hot-hit time to first byte ÷ direct's, p50, 1 concurrent",
      TARGETS.hotHitVsDirect,
      p50('hot-hit'),
      p50('direct'),
    ),
  );
  const at50 = (variant: Variant): CpuRow | undefined =>
    cpu.find((r) => r.concurrency === 50 && r.variant === variant);
  checks.push(
    ...ratioCheck(
      "router CPU per miss ÷ the naive chain's per request, 50 concurrent",
      TARGETS.missCpuVsChain,
      at50('miss')?.routerCpuMsPerRequest,
      at50('chain')?.chainCpuMsPerRequest,
    ),
    ...ratioCheck(
      "router CPU per hot hit ÷ the bare proxy's per request, 50 concurrent",
      TARGETS.hotHitCpuVsProxy,
      at50('hot-hit')?.routerCpuMsPerRequest,
      at50('proxy')?.bareProxyCpuMsPerRequest,
    ),
  );
  return checks;
}

/** A Markdown table with aligned columns (readable as printed, pasteable into docs). */
export function markdownTable(headers: string[], rows: Array<Array<string | number>>): string {
  const cells = [headers, ...rows.map((row) => row.map((c) => (typeof c === 'number' ? fmt(c) : c)))];
  const widths = headers.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
  const line = (row: string[]): string => `| ${row.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [
    line(cells[0]),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...cells.slice(1).map(line),
  ].join('\n');
}

function fmt(value: number): string {
  if (Number.isNaN(value)) return '–';
  if (Number.isInteger(value)) return String(value);
  return Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(2);
}

/** The checks as a table; a spread column only when a check has one. */
export function targetsTable(checks: readonly TargetCheck[]): string {
  if (!checks.some((c) => c.spread !== undefined))
    return markdownTable(
      ['figure', 'target', 'measured', 'met'],
      checks.map((c) => [c.what, c.target, c.measured, c.met ? 'yes' : 'NO']),
    );
  return markdownTable(
    ['figure', 'target', 'measured', 'spread', 'met'],
    checks.map((c) => [c.what, c.target, c.measured, c.spread ?? '', c.met ? 'yes' : 'NO']),
  );
}

function ttfbTable(rows: readonly TtfbRow[]): string {
  return markdownTable(
    ['variant', 'n', 'errors', 'p50 ms', 'p90 ms', 'p99 ms', 'p50 / direct', 'p99 / direct', 'bytes'],
    rows.map((r) => [
      r.variant,
      r.n,
      r.errors,
      r.p50,
      r.p90,
      r.p99,
      r.p50VsDirect,
      r.p99VsDirect,
      r.bytesPerRequest,
    ]),
  );
}

/**
 * The printed report: interleaved time to first byte, overhead and ratios, CPU per request (the medians of the
 * rounds, then round by round beside the chain), targets. `cpu`: every round's rows; `checks` from their medians.
 */
export function renderReport(interleaved: InterleavedResult[], cpu: CpuRow[], checks: TargetCheck[]): string {
  const parts: string[] = [];
  for (const level of interleaved) {
    parts.push(
      `### ${level.concurrency} concurrent: time to first audio byte, variants interleaved (${level.elapsedMs} ms, machine ${Math.round(level.machineBusyShare * 100)}% busy)`,
      '',
      ttfbTable(level.rows),
      '',
      `router overhead on a miss (miss − direct): p50 ${fmt(level.overheadP50Ms)} ms, p99 ${fmt(level.overheadP99Ms)} ms; ` +
        `bare proxy (proxy − direct): p50 ${fmt(level.bareProxyOverheadP50Ms)} ms, p99 ${fmt(level.bareProxyOverheadP99Ms)} ms; ` +
        `naive chain (chain − direct): p50 ${fmt(level.chainOverheadP50Ms)} ms, p99 ${fmt(level.chainOverheadP99Ms)} ms; ` +
        `router overhead / chain's: p50 ${fmt(level.overheadVsChainP50)}, p99 ${fmt(level.overheadVsChainP99)}; ` +
        `cache lookup on a miss (miss − uncached): p50 ${fmt(level.cacheOnMissP50Ms)} ms; ` +
        `vendor calls ${level.vendorCalls} (expected ${level.expectedVendorCalls})`,
      '',
    );
  }
  const rounds = Math.max(0, ...cpu.map((r) => r.round));
  const medians = medianOfRounds(cpu);
  parts.push(
    `### CPU per request, each variant run alone (median of ${rounds} round${rounds === 1 ? '' : 's'})`,
    '',
    markdownTable(
      [
        'conc',
        'variant',
        'requests',
        'req/s',
        'router CPU ms/req',
        '(raw)',
        'gateway',
        'native-api',
        'workers',
        'cache-svc',
        'bare proxy',
        'chain',
        'simulator',
        'machine',
        'busy',
        'p50 ms',
        'p99 ms',
        'vendor calls',
      ],
      medians.map((r) => [
        r.concurrency,
        r.variant,
        r.requests,
        r.requestsPerSecond,
        r.routerCpuMsPerRequest,
        r.routerCpuMsPerRequestRaw,
        r.perProcessMsPerRequest['edge-gateway'] ?? Number.NaN,
        r.perProcessMsPerRequest['native-api'] ?? Number.NaN,
        round(
          (r.perProcessMsPerRequest['synthesis-worker'] ?? 0) +
            (r.perProcessMsPerRequest['synthesis-worker-2'] ?? 0),
          3,
        ),
        r.perProcessMsPerRequest['cache-service'] ?? Number.NaN,
        r.bareProxyCpuMsPerRequest,
        r.chainCpuMsPerRequest,
        r.simulatorCpuMsPerRequest,
        r.machineCpuMsPerRequest,
        `${Math.round(r.machineBusyShare * 100)}%`,
        r.ttfbP50,
        r.ttfbP99,
        `${r.vendorCalls}/${r.expectedVendorCalls}`,
      ]),
    ),
    '',
    '### Router CPU per request, round by round (ms)',
    '',
    roundsTable(cpu, medians),
    '',
    '### Targets',
    '',
    targetsTable(checks),
    '',
  );
  return parts.join('\n');
}

export interface StreamLatencyResult {
  concurrency: number;
  elapsedMs: number;
  rows: TtfbRow[];
  /** stream-miss − direct, at each percentile. */
  missOverheadP50Ms: number;
  missOverheadP99Ms: number;
  /** The stream against the speech endpoint with the same cache state (stream − speech, p50). */
  hitVsSpeechP50Ms: number;
  missVsSpeechP50Ms: number;
  machineBusyShare: number;
  vendorCalls: number;
  expectedVendorCalls: number;
}

/** The /v1/stream interleaved phase: each variant against direct, the stream against the speech endpoint. */
export function streamLatencyFigures(
  concurrency: number,
  result: PhaseResult,
  cpu: CpuDelta,
  vendorCalls: number,
): StreamLatencyResult {
  const p = (v: Variant): { p50: number; p99: number } => summarize(result.variants[v]?.ttfbMs ?? []);
  const direct = p('direct');
  const streamMiss = p('stream-miss');
  return {
    concurrency,
    elapsedMs: round(result.elapsedMs, 0),
    rows: ttfbRows(result),
    missOverheadP50Ms: round(streamMiss.p50 - direct.p50, 3),
    missOverheadP99Ms: round(streamMiss.p99 - direct.p99, 3),
    hitVsSpeechP50Ms: round(p('stream-hit').p50 - p('hot-hit').p50, 3),
    missVsSpeechP50Ms: round(streamMiss.p50 - p('miss').p50, 3),
    machineBusyShare: round(cpu.machineBusyShare, 3),
    vendorCalls,
    expectedVendorCalls: succeeded(result, [...VENDOR_CALLING, 'stream-miss']),
  };
}

/** Every measured process's memory (after a forced GC) with this many idle /v1/stream connections open. */
export interface MemoryStep {
  connections: number;
  byProcess: Record<string, MemoryReading>;
}

export interface MemoryPerConnection {
  process: string;
  /** Least-squares slope over the steps, KiB per connection. */
  heapUsedKiB: number;
  /** (largest step − none) / connections, KiB per connection. */
  heapUsedEndToEndKiB: number;
  externalKiB: number;
  rssKiB: number;
  /** Heap after every connection closed, less the heap before any opened (KiB, all connections together). */
  heapLeftAfterCloseKiB: number;
}

const KIB = 1024;

/** Memory per idle connection, per process, from readings at 0 … N connections and after closing them all. */
export function memoryFigures(
  steps: readonly MemoryStep[],
  afterClose: MemoryStep,
  processes: readonly string[],
): MemoryPerConnection[] {
  const first = steps[0];
  const last = steps.at(-1);
  return processes.map((name) => {
    const per = (field: keyof MemoryReading): number =>
      round(slope(steps.map((s) => ({ x: s.connections, y: s.byProcess[name]?.[field] ?? 0 }))) / KIB, 2);
    const heapAt = (s: MemoryStep | undefined): number => s?.byProcess[name]?.heapUsed ?? Number.NaN;
    const span = (last?.connections ?? 0) - (first?.connections ?? 0);
    return {
      process: name,
      heapUsedKiB: per('heapUsed'),
      heapUsedEndToEndKiB: round((heapAt(last) - heapAt(first)) / span / KIB, 2),
      externalKiB: per('external'),
      rssKiB: per('rss'),
      heapLeftAfterCloseKiB: round((heapAt(afterClose) - heapAt(first)) / KIB, 0),
    };
  });
}

export function checkStreamTargets(
  latency: StreamLatencyResult | undefined,
  memory: readonly MemoryPerConnection[],
): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const hit = latency?.rows.find((r) => r.variant === 'stream-hit');
  if (latency && hit) {
    checks.push({
      what: `/v1/stream cached: first sentence's end to first audio byte, p50, ${latency.concurrency} concurrent (ms)`,
      target: `< ${TARGETS.streamHitP50AtOneMs}`,
      measured: hit.p50,
      met: hit.p50 < TARGETS.streamHitP50AtOneMs,
    });
  }
  const api = memory.find((m) => m.process === 'native-api');
  if (api) {
    checks.push({
      what: '/v1/stream native-api heap per idle connection (KiB)',
      target: `< ${TARGETS.streamHeapPerIdleConnectionKiB}`,
      measured: api.heapUsedKiB,
      met: api.heapUsedKiB < TARGETS.streamHeapPerIdleConnectionKiB,
    });
  }
  return checks;
}

const MIB = 1024 * 1024;

/** The /v1/stream part of the printed report. */
export function renderStreamReport(
  latency: StreamLatencyResult | undefined,
  steps: readonly MemoryStep[],
  perConnection: readonly MemoryPerConnection[],
  checks: readonly TargetCheck[],
): string {
  const parts: string[] = [];
  if (latency) {
    parts.push(
      `### /v1/stream, ${latency.concurrency} concurrent: first sentence's end to first audio byte (speech endpoint and direct interleaved; ${latency.elapsedMs} ms, machine ${Math.round(latency.machineBusyShare * 100)}% busy)`,
      '',
      ttfbTable(latency.rows),
      '',
      `stream miss − direct: p50 ${fmt(latency.missOverheadP50Ms)} ms, p99 ${fmt(latency.missOverheadP99Ms)} ms; ` +
        `stream − speech endpoint, p50: hit ${fmt(latency.hitVsSpeechP50Ms)} ms, miss ${fmt(latency.missVsSpeechP50Ms)} ms; ` +
        `vendor calls ${latency.vendorCalls} (expected ${latency.expectedVendorCalls})`,
      '',
    );
  }
  if (steps.length > 0) {
    const processes = perConnection.map((m) => m.process);
    parts.push(
      '### /v1/stream: memory with idle connections open (after a forced full GC, MiB)',
      '',
      markdownTable(
        ['connections', ...processes.flatMap((p) => [`${p} heap`, `${p} external`, `${p} RSS`])],
        steps.map((s) => [
          s.connections,
          ...processes.flatMap((p) => {
            const m = s.byProcess[p];
            return m ? [round(m.heapUsed / MIB, 2), round(m.external / MIB, 2), round(m.rss / MIB, 1)] : [];
          }),
        ]),
      ),
      '',
      markdownTable(
        [
          'process',
          'heap KiB/conn',
          '(end to end)',
          'external KiB/conn',
          'RSS KiB/conn',
          'heap left after closing all, KiB',
        ],
        perConnection.map((m) => [
          m.process,
          m.heapUsedKiB,
          m.heapUsedEndToEndKiB,
          m.externalKiB,
          m.rssKiB,
          m.heapLeftAfterCloseKiB,
        ]),
      ),
      '',
    );
  }
  if (checks.length > 0) {
    parts.push('### /v1/stream targets', '', targetsTable(checks), '');
  }
  return parts.join('\n');
}
