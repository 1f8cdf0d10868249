import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, round } from '@router/testing';
import { BENCH_ENV, type BenchStack, ROUTER_APPS, startBenchStack } from './bench-stack';
import { type BenchOptions, parseOptions, STREAM_VARIANTS } from './bench-options';
import type { PhaseResult, PhaseSpec, Variant } from './load-plan';
import { CHAIN_PROCESSES, LoadProcess, startBareProxy, startNaiveChain } from './load-process';
import { clockTicksPerSecond, type CpuDelta, cpuBetween, snapshot, unmeasuredMs } from './proc-cpu';
import { type Cost, type CpuProfile, summarizeProfile } from './profile-summary';
import { renderRunsSummary, type RunRecord, summarizeRuns } from './runs-summary';
import { startPeerGateway } from './peer-gateway';
import {
  CAPACITY_APPS,
  type CapacityStep,
  capacityFigure,
  capacityRetried,
  capacitySessionCounts,
  capacityStep,
  capacityStepMs,
  renderCapacityReport,
  withinBound,
} from './capacity-bench';
import {
  LOG_SIDES,
  type LogPhase,
  type LogSide,
  renderRequestLogReport,
  requestLogFigures,
  sidesInRound,
} from './request-log-bench';
import {
  checkPeerTargets,
  OPEN_LOOP_VARIANTS,
  openLoopDone,
  openLoopFigures,
  stepRetried,
  openLoopRates,
  openLoopStep,
  openLoopStepMs,
  PEER_VARIANTS,
  peerCpuMedians,
  peerCpuOrder,
  peerCpuPhaseId,
  peerCpuRow,
  peerLevel,
  peerReferencePhase,
  type PeerOutput,
  renderPeerReport,
} from './peer-bench';
import {
  checkStreamTargets,
  checkTargets,
  markdownTable,
  type CpuRow,
  cpuFigures,
  type InterleavedResult,
  interleavedFigures,
  type MemoryPerConnection,
  medianOfRounds,
  memoryFigures,
  type MemoryStep,
  REFERENCE,
  renderReport,
  renderStreamReport,
  type StreamLatencyResult,
  streamLatencyFigures,
  type TargetCheck,
  REFERENCE_VARIANTS,
  VENDOR_CALLING,
} from './report';

/**
 * `npm run bench`: every app as its own process against the simulated vendors, load from a separate
 * process. It measures and reports; it asserts nothing (a benchmark is not a test).
 */

function log(line: string): void {
  process.stderr.write(`bench: ${line}\n`);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Measured {
  result: PhaseResult;
  cpu: CpuDelta;
  vendorCalls: number;
  /** When the phase ran, on the monotonic clock every process shares (for cutting CPU profiles). */
  window: { fromUs: number; toUs: number };
}

const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);

class Bench {
  private readonly ticks = clockTicksPerSecond();
  /** Cache rows there should be once every take so far is committed. */
  private expectedEntries = 0;
  readonly warnings: string[] = [];

  constructor(
    private readonly stack: BenchStack,
    /** Every process whose CPU is read: the stack, the bare proxy, the naive chain and the load generator. */
    private readonly pids: Record<string, number>,
    private readonly load: LoadProcess,
    private readonly options: BenchOptions,
  ) {}

  /**
   * Runs one phase between two CPU readings. With `settle`, the second reading waits until the phase's
   * takes are committed to the cache and a moment more, so work a request leaves behind is counted with it.
   */
  async measure(
    spec: Omit<PhaseSpec, 'kind' | 'maxMs'>,
    settle: boolean,
    maxMs = this.options.phaseMaxMs,
  ): Promise<Measured> {
    const callsBefore = await this.stack.vendorCalls();
    const before = snapshot(this.pids);
    const fromUs = monotonicUs();
    const result = await this.load.run({ ...spec, maxMs });
    const newTakes = (
      [
        'miss',
        'chain-cached',
        'prime-cold',
        'stream-miss',
        'd-native',
        'd-mirror',
        'c-mirror',
        'a-ws-miss',
      ] as Variant[]
    ).reduce((sum, v) => sum + (result.variants[v]?.ttfbMs.length ?? 0), 0);
    const primes = (
      [
        'prime-hot',
        'd-prime-hot',
        'd-prime-20k',
        'd-prime-200k',
        'c-prime-hot',
        'a-ws-prime-hot',
      ] as Variant[]
    ).reduce((sum, v) => sum + (result.variants[v]?.ttfbMs.length ?? 0), 0);
    this.expectedEntries += newTakes + (spec.id.endsWith('prime-hot-1') ? primes : 0);
    if (settle) {
      await this.untilCommitted(spec.id);
      await sleep(this.options.settleMs);
    }
    const after = snapshot(this.pids);
    const vendorCalls = (await this.stack.vendorCalls()) - callsBefore;
    for (const [variant, r] of Object.entries(result.variants)) {
      if (r && r.errors > 0)
        this.warnings.push(`${spec.id}: ${variant} had ${r.errors} errors ${JSON.stringify(r.failures)}`);
    }
    if (result.elapsedMs >= this.options.phaseMaxMs)
      this.warnings.push(`${spec.id}: stopped at the time limit`);
    return {
      result,
      cpu: cpuBetween(before, after, this.ticks),
      vendorCalls,
      window: { fromUs, toUs: monotonicUs() },
    };
  }

  /** One open-loop step (see OpenLoopSpec), its takes committed before the next. */
  async openLoop(spec: { id: string; variant: Variant; ratePerSecond: number; durationMs: number }) {
    const step = await this.load.openLoop(spec);
    if (['d-native', 'd-mirror'].includes(spec.variant)) this.expectedEntries += step.result.ttfbMs.length;
    await this.untilCommitted(spec.id);
    return step;
  }

  /**
   * CPU each process uses with no requests, per second (timers, heartbeats, pools). After a burst (the
   * priming) a process may still be collecting garbage for a while, so this waits a moment and keeps, per
   * process, the lower of two windows.
   */
  async idleRates(): Promise<{
    msPerSecond: Record<string, number>;
    machineBusyShare: number;
    /** The machine's busy CPU per second outside every measured process (PostgreSQL, NATS, S3, the kernel). */
    servicesMsPerSecond: number;
  }> {
    await sleep(3000);
    const window = async (): Promise<CpuDelta> => {
      const before = snapshot(this.pids);
      await sleep(this.options.idleMs / 2);
      return cpuBetween(before, snapshot(this.pids), this.ticks);
    };
    const first = await window();
    const second = await window();
    const rate = (d: CpuDelta, name: string): number => (d.processesMs[name] ?? 0) / (d.elapsedMs / 1000);
    const outside = (d: CpuDelta): number => unmeasuredMs(d) / (d.elapsedMs / 1000);
    return {
      msPerSecond: Object.fromEntries(
        Object.keys(this.pids).map((name) => [
          name,
          round(Math.min(rate(first, name), rate(second, name)), 3),
        ]),
      ),
      machineBusyShare: round(Math.min(first.machineBusyShare, second.machineBusyShare), 3),
      servicesMsPerSecond: round(Math.max(0, Math.min(outside(first), outside(second))), 3),
    };
  }

  /**
   * Waits until every take so far has its cache row (the naive chain's cached takes their index row), or until
   * the count stops growing (a take whose blob write failed is never committed); a shortfall is reported once
   * and then taken as the new baseline.
   */
  private async untilCommitted(phase: string): Promise<void> {
    let count = await this.stack.committedTakes();
    let lastGrowth = Date.now();
    while (count < this.expectedEntries && Date.now() - lastGrowth < 1500) {
      await sleep(50);
      const now = await this.stack.committedTakes();
      if (now > count) lastGrowth = Date.now();
      count = now;
    }
    if (count < this.expectedEntries) {
      this.warnings.push(`${phase}: ${this.expectedEntries - count} takes were not committed to the cache`);
      this.expectedEntries = count;
    }
  }
}

interface ProfiledPhase {
  id: string;
  requests: number;
  window: { fromUs: number; toUs: number };
  /** Each process's CPU over the phase, from /proc: what the profile's shares are shares of. */
  cpuMs: Record<string, number>;
}

/**
 * Per CPU phase and router process: where its CPU went. The profiler samples wall time, which a busy
 * machine inflates, so its shares are applied to the process's CPU time from /proc for the same phase.
 */
function renderProfiles(dir: string, pids: Record<string, number>, phases: ProfiledPhase[]): string {
  const names = new Map(Object.entries(pids).map(([name, pid]) => [pid, name]));
  const profiles = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => ({ app: names.get(Number(/-(\d+)\.cpuprofile$/.exec(f)?.[1])) ?? f, file: join(dir, f) }))
    .filter((p) => ROUTER_APPS.includes(p.app))
    .map((p) => ({ ...p, profile: JSON.parse(readFileSync(p.file, 'utf8')) as CpuProfile }));
  const out: string[] = ['## Where the router CPU goes (V8 profiles, cut to each phase)', ''];
  const routerPhases = phases.filter(
    (p) => !REFERENCE_VARIANTS.some((v) => p.id.startsWith(`cpu-${v}-`)) && !peerReferencePhase(p.id),
  );
  for (const phase of routerPhases) {
    out.push(`### ${phase.id} (${phase.requests} requests)`, '');
    for (const { app, profile } of profiles) {
      const perRequest = (phase.cpuMs[app] ?? 0) / Math.max(1, phase.requests);
      if (perRequest < 0.05) continue;
      const s = summarizeProfile(profile, phase.window, 10);
      const cell = (c: Cost | undefined): Array<string | number> =>
        c ? [c.name, round(c.share * perRequest, 3), `${Math.round(c.share * 100)}%`] : ['', '', ''];
      out.push(
        `${app}: ${perRequest.toFixed(2)} ms CPU/request (/proc); main-thread shares from the profile`,
        '',
        markdownTable(
          ['module', '≈ ms/req', 'share', 'function (self time)', '≈ ms/req ', 'share '],
          Array.from({ length: Math.max(s.byModule.length, s.byFunction.length) }, (_, i) => [
            ...cell(s.byModule[i]),
            ...cell(s.byFunction[i]),
          ]),
        ),
        '',
      );
    }
  }
  return out.join('\n');
}

function machineInfo(): Record<string, unknown> {
  const git = (args: string[]): string => {
    try {
      return execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    } catch {
      return 'unknown';
    }
  };
  return {
    cores: availableParallelism(),
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: round(totalmem() / 2 ** 30, 1),
    node: process.version,
    commit: git(['rev-parse', '--short', 'HEAD']),
    uncommittedFiles: git(['status', '--porcelain']).split('\n').filter(Boolean).length,
  };
}

/** What a run's JSON and headline say of the machine: what it is, how busy before the start, its load averages. */
function machineState(busyShareBeforeStart: number, loadBefore: readonly number[]): Record<string, unknown> {
  return {
    ...machineInfo(),
    busyShareBeforeStart,
    loadAverageBefore: loadBefore.map((v) => round(v)),
    loadAverageAfter: loadavg().map((v) => round(v)),
  };
}

/** What every run's JSON starts with: when it started, how long it took, its options and the apps' settings. */
function runHeader(started: Date, options: BenchOptions) {
  return {
    startedAt: started.toISOString(),
    durationS: round((Date.now() - started.getTime()) / 1000, 1),
    options,
    env: { ...BENCH_ENV, LOG_LEVEL: options.logLevel },
  };
}

/** The simulator's pacing as every benchmark sets it, for the run's JSON. */
function simulatorSettings(options: BenchOptions): Record<string, unknown> {
  return { vendor: 'vendor_a', ttfaMs: options.ttfaMs, factor: 0, chunkMs: options.chunkMs ?? 'default' };
}

/**
 * Writes a run's JSON to `tmp/bench/<name>-<time>.json` (and to each of `latestJson`), its report to `latestMd`,
 * and prints both with the headline lines (the machine and what else the run wants seen).
 */
function writeRun(args: {
  name: string;
  title: string;
  started: Date;
  output: { durationS: number; warnings: readonly string[] };
  report: string;
  headline: string[];
  latestJson?: string[];
  latestMd: string;
}): void {
  const { name, started, output } = args;
  const dir = join(REPO_ROOT, 'tmp', 'bench');
  mkdirSync(dir, { recursive: true });
  const stamp = started.toISOString().replace(/[:.]/g, '-');
  const json = `${JSON.stringify(output, null, 2)}\n`;
  for (const file of [`${name}-${stamp}.json`, ...(args.latestJson ?? [])])
    writeFileSync(join(dir, file), json);
  writeFileSync(join(dir, args.latestMd), args.report);
  const latest = [...(args.latestJson ?? []), args.latestMd].join(', ');
  process.stdout.write(
    [
      `## ${args.title} ${started.toISOString()} (${output.durationS} s)`,
      '',
      ...args.headline,
      '',
      args.report,
      ...(output.warnings.length ? ['warnings:', ...output.warnings.map((w) => `- ${w}`), ''] : []),
      `written: tmp/bench/${name}-${stamp}.json (and ${latest})`,
      '',
    ].join('\n'),
  );
}

/**
 * Others may share this machine (a test run, a build): waits, within limits, until it is mostly idle, and
 * says how busy it still was, since the time figures mean little on a machine already busy.
 */
async function waitForQuietMachine(options: BenchOptions): Promise<number> {
  const deadline = Date.now() + options.quietWaitMs;
  const ticks = clockTicksPerSecond();
  for (;;) {
    const before = snapshot({});
    await sleep(2000);
    const busy = cpuBetween(before, snapshot({}), ticks).machineBusyShare;
    if (busy <= options.quietBusyShare || Date.now() > deadline) return round(busy, 3);
    log(`machine ${Math.round(busy * 100)}% busy before the run; waiting for it to quieten`);
  }
}

/** Whose memory per /v1/stream connection is measured: the app holding the sessions, the one splicing sockets. */
const STREAM_MEMORY_APPS = ['native-api', 'edge-gateway'];

interface StreamOutput {
  latency: StreamLatencyResult;
  memorySteps: MemoryStep[];
  memoryAfterClose: MemoryStep;
  memoryPerConnection: MemoryPerConnection[];
  targets: TargetCheck[];
}

/**
 * The /v1/stream benchmark: its variants interleaved with direct and the speech endpoint at 1 concurrent,
 * then memory of native-api and the gateway (after forced GCs) as idle connections are opened in four steps
 * up to `streamConnections`, and once more after all are closed.
 */
async function runStream(
  bench: Bench,
  stack: BenchStack,
  load: LoadProcess,
  options: BenchOptions,
): Promise<StreamOutput> {
  const variants = [...STREAM_VARIANTS];
  if (options.streamWarmup > 0) {
    log(`/v1/stream: warm-up, ${options.streamWarmup} per variant`);
    await bench.measure(
      { id: 'stream-warmup', variants, perVariant: options.streamWarmup, concurrency: 1 },
      true,
    );
  }
  log(`/v1/stream: ${options.streamRequests} replies per variant, interleaved`);
  const mixed = await bench.measure(
    { id: 'stream-interleaved', variants, perVariant: options.streamRequests, concurrency: 1 },
    true,
  );
  const latency = streamLatencyFigures(1, mixed.result, mixed.cpu, mixed.vendorCalls);
  if (latency.vendorCalls !== latency.expectedVendorCalls) {
    bench.warnings.push(
      `stream-interleaved: ${latency.vendorCalls} vendor calls, expected ${latency.expectedVendorCalls}`,
    );
  }

  const read = async (connections: number): Promise<MemoryStep> => {
    // Work the last step left behind (closing handshakes, timers) settles before the GC.
    await sleep(1000);
    const readings = await Promise.all(STREAM_MEMORY_APPS.map((app) => stack.memory(app)));
    return {
      connections,
      byProcess: Object.fromEntries(STREAM_MEMORY_APPS.map((app, i) => [app, readings[i]])),
    };
  };
  const hold = async (count: number): Promise<number> => {
    const held = await load.idleStreams(count);
    if (held.open !== count) {
      bench.warnings.push(`idle streams: ${held.open} of ${count} open ${JSON.stringify(held.failures)}`);
    }
    log(`/v1/stream: ${held.open} idle connections open (${Math.round(held.elapsedMs)} ms)`);
    return held.open;
  };
  const steps: MemoryStep[] = [await read(await hold(0))];
  for (const quarter of [1, 2, 3, 4]) {
    steps.push(await read(await hold(Math.round((options.streamConnections * quarter) / 4))));
  }
  const memoryAfterClose = await read(await hold(0));
  const memoryPerConnection = memoryFigures(steps, memoryAfterClose, STREAM_MEMORY_APPS);
  return {
    latency,
    memorySteps: steps,
    memoryAfterClose,
    memoryPerConnection,
    targets: checkStreamTargets(latency, memoryPerConnection),
  };
}

/**
 * The peer benchmark: the peer gateway beside the router and the references on vendor_d's simulator, one body
 * for all. Interleaved at each level, then each variant alone for CPU at the highest level, `cpuRounds` rounds
 * in an order shuffled anew each round, then open loop. Its CPU phases go to `profiled`.
 */
async function runPeer(
  bench: Bench,
  options: BenchOptions,
  idle: { msPerSecond: Record<string, number>; servicesMsPerSecond: number },
  profiled: ProfiledPhase[],
): Promise<PeerOutput> {
  const primes: Variant[] = ['d-prime-hot', 'd-prime-20k', 'd-prime-200k', 'c-prime-hot', 'a-ws-prime-hot'];
  log(`peer: priming ${options.hotSentences} sentences each for the mirror hits`);
  for (const n of [1, 2]) {
    await bench.measure(
      { id: `peer-prime-hot-${n}`, variants: primes, perVariant: options.hotSentences, concurrency: 1 },
      true,
    );
  }
  const variants = [...PEER_VARIANTS];
  const levels: PeerOutput['levels'] = [];
  for (const concurrency of options.concurrency) {
    log(`peer: ${concurrency} concurrent, warm-up and ${options.peerRequests} per variant, interleaved`);
    await bench.measure(
      { id: `peer-warmup-${concurrency}`, variants, perVariant: options.warmup, concurrency },
      true,
    );
    const mixed = await bench.measure(
      { id: `peer-interleaved-${concurrency}`, variants, perVariant: options.peerRequests, concurrency },
      true,
    );
    const level = peerLevel(concurrency, mixed.result, mixed.vendorCalls);
    if (level.vendorCalls !== level.expectedVendorCalls)
      bench.warnings.push(
        `peer-interleaved-${concurrency}: ${level.vendorCalls} vendor calls, expected ${level.expectedVendorCalls}`,
      );
    levels.push(level);
  }
  const cpu: PeerOutput['cpu'] = [];
  const concurrency = Math.max(...options.concurrency);
  for (let round = 1; round <= options.cpuRounds; round++) {
    for (const variant of peerCpuOrder(round)) {
      log(
        `peer: ${variant} alone, ${options.peerCpuRequests} requests at ${concurrency} concurrent (CPU, round ${round} of ${options.cpuRounds})`,
      );
      const spec = { variants: [variant], concurrency };
      // The same variant alone first, unmeasured, as in the speech benchmark's rounds: what the phase before
      // left behind falls there.
      await bench.measure(
        { id: `peer-cpu-warmup-${variant}-r${round}`, ...spec, perVariant: options.warmup },
        true,
      );
      const phase = peerCpuPhaseId(variant, round);
      const alone = await bench.measure({ id: phase, ...spec, perVariant: options.peerCpuRequests }, true);
      const row = peerCpuRow({
        variant,
        round,
        concurrency,
        result: alone.result,
        cpu: alone.cpu,
        routerApps: ROUTER_APPS,
        idleMsPerSecond: idle.msPerSecond,
        idleServicesMsPerSecond: idle.servicesMsPerSecond,
      });
      profiled.push({
        id: phase,
        requests: row.requests,
        window: alone.window,
        cpuMs: alone.cpu.processesMs,
      });
      cpu.push(row);
    }
  }
  const openLoop: PeerOutput['openLoop'] = [];
  const stepMs = (rate: number): number => openLoopStepMs(rate, options.openLoopStepMs);
  for (const variant of OPEN_LOOP_VARIANTS) {
    const steps: ReturnType<typeof openLoopStep>[] = [];
    for (const rate of openLoopRates(options.openLoopFrom, options.openLoopSteps)) {
      const run = async (attempt: number): Promise<ReturnType<typeof openLoopStep>> =>
        openLoopStep(
          rate,
          await bench.openLoop({
            id: `open-loop-${variant}-${rate}-${attempt}`,
            variant,
            ratePerSecond: rate,
            durationMs: stepMs(rate),
          }),
        );
      let step = await run(1);
      if (stepRetried(steps, step, stepMs(rate))) {
        log(`peer: open loop ${variant} at ${rate}/s: p99 ${step.p99} ms did not hold; trying it once more`);
        step = await run(2);
      }
      steps.push(step);
      log(
        `peer: open loop ${variant} at ${rate}/s: p50 ${step.p50} p99 ${step.p99} ms, ${step.errors} errors`,
      );
      if (openLoopDone(steps, stepMs)) break;
    }
    openLoop.push(openLoopFigures(variant, steps, stepMs));
  }
  return {
    levels,
    cpu,
    cpuMedians: peerCpuMedians(cpu),
    openLoop,
    targets: checkPeerTargets(levels, cpu, openLoop),
  };
}

/**
 * A load generator for the router's stack alone, where no bare proxy, naive chain or peer runs: their pools
 * point at the simulator and no variant of theirs is asked for.
 */
function stackLoad(stack: BenchStack, hotSentences: number, maxConcurrency: number): Promise<LoadProcess> {
  return LoadProcess.start({
    gatewayUrl: stack.stack.gatewayUrl,
    simUrl: stack.stack.simUrl,
    bareProxyUrl: stack.stack.simUrl,
    chainUrl: stack.stack.simUrl,
    routerKey: stack.routerKey,
    uncachedRouterKey: stack.uncachedRouterKey,
    voice: stack.voice,
    vendorKey: stack.vendorKey,
    runId: randomBytes(4).toString('hex'),
    hotSentences,
    maxConcurrency,
  });
}

/**
 * The request log benchmark (request-log-bench.ts): two stacks side by side, the request log on in one and
 * off in the other (REQUEST_LOG_ENABLED), each with its own load generator. Each round runs the hot hit alone
 * on one stack, then on the other, each phase after a warm-up and between two CPU readings of that stack's
 * processes only, the first side alternating round by round; the ratios on ÷ off are taken within each round.
 */
async function runRequestLog(options: BenchOptions): Promise<void> {
  const busyBeforeStart = await waitForQuietMachine(options);
  const started = new Date();
  const loadBefore = loadavg();
  const concurrency = Math.max(...options.concurrency);
  // A phase's last rows are written at the writer's next flush (REQUEST_LOG_FLUSH_MS, 1 s by default): the
  // second CPU reading waits past it, so the write is charged to the phase that queued the rows.
  const phaseOptions: BenchOptions = { ...options, settleMs: Math.max(options.settleMs, 1500) };
  const sides: Array<{ side: LogSide; stack: BenchStack; load?: LoadProcess; bench?: Bench }> = [];
  try {
    for (const side of LOG_SIDES) {
      log(`starting the stack with the request log ${side}`);
      const stack = await startBenchStack(log, {
        logLevel: options.logLevel,
        ...(options.nodeOptions ? { nodeOptions: options.nodeOptions } : {}),
        appEnv: { ...options.appEnv, REQUEST_LOG_ENABLED: String(side === 'on') },
        workers: options.workers,
        name: `request-log-${side}`,
      });
      sides.push({ side, stack });
    }
    for (const entry of sides) {
      const { stack } = entry;
      await stack.setPacing({ ttfaMs: options.ttfaMs, factor: 0 });
      // Only the hot hit runs here.
      entry.load = await stackLoad(stack, options.hotSentences, concurrency);
      entry.bench = new Bench(
        stack,
        { ...stack.pids, 'load-generator': entry.load.pid },
        entry.load,
        phaseOptions,
      );
      log(`request log ${entry.side}: priming ${options.hotSentences} hot-hit sentences`);
      const hotSpec = {
        variants: ['prime-hot'] as Variant[],
        perVariant: options.hotSentences,
        concurrency: 1,
      };
      await entry.bench.measure({ id: 'prime-hot-1', ...hotSpec }, true);
      await entry.bench.measure({ id: 'prime-hot-2', ...hotSpec }, true);
    }
    const sweepDue = Math.max(...sides.map((s) => s.stack.startedAt)) + 65_000 - performance.now();
    if (sweepDue > 0) {
      log(`waiting ${Math.round(sweepDue / 1000)} s for the cache-services' first timed sweeps to pass`);
      await sleep(sweepDue);
    }
    const idle: Partial<Record<LogSide, Awaited<ReturnType<Bench['idleRates']>>>> = {};
    for (const { side, bench } of sides) {
      log(`request log ${side}: measuring idle CPU for ${options.idleMs} ms`);
      idle[side] = await bench?.idleRates();
    }
    const phases: LogPhase[] = [];
    for (let round = 1; round <= options.requestLogRounds; round++) {
      for (const side of sidesInRound(round)) {
        const bench = sides.find((s) => s.side === side)?.bench;
        if (!bench) continue;
        log(
          `round ${round} of ${options.requestLogRounds}, request log ${side}: ${options.requestLogRequests} hot hits at ${concurrency} concurrent`,
        );
        const spec = { variants: ['hot-hit'] as Variant[], concurrency };
        await bench.measure(
          { id: `log-${side}-warmup-r${round}`, ...spec, perVariant: options.warmup },
          true,
        );
        const alone = await bench.measure(
          { id: `log-${side}-r${round}`, ...spec, perVariant: options.requestLogRequests },
          true,
        );
        phases.push({
          side,
          row: cpuFigures({
            variant: 'hot-hit',
            concurrency,
            round,
            result: alone.result,
            cpu: alone.cpu,
            routerApps: ROUTER_APPS,
            chainProcesses: [],
            idleMsPerSecond: idle[side]?.msPerSecond ?? {},
            vendorCalls: alone.vendorCalls,
            expectedVendorCalls: 0,
          }),
        });
        if (alone.vendorCalls > 0)
          bench.warnings.push(`log-${side}-r${round}: ${alone.vendorCalls} vendor calls`);
      }
    }
    // What each stack's log holds: every request on the log-on stack (primes and warm-ups too), none on the other.
    const logRows = Object.fromEntries(
      await Promise.all(sides.map(async ({ side, stack }) => [side, await stack.requestLogRows()] as const)),
    );
    const hits = phases.filter((p) => p.side === 'on').reduce((sum, p) => sum + p.row.requests, 0);
    const warnings = sides.flatMap(({ side, bench }) => (bench?.warnings ?? []).map((w) => `${side}: ${w}`));
    if ((logRows['off'] ?? 0) > 0)
      warnings.push(`the log-off stack wrote ${logRows['off']} request log rows`);
    if ((logRows['on'] ?? 0) < hits)
      warnings.push(`the log-on stack wrote ${logRows['on']} request log rows for ${hits} measured hits`);
    const figures = requestLogFigures(phases);
    const report = renderRequestLogReport(figures, phases);
    const machine = {
      ...machineState(busyBeforeStart, loadBefore),
      idleMachineBusyShare: Object.fromEntries(sides.map(({ side }) => [side, idle[side]?.machineBusyShare])),
    };
    const output = {
      ...runHeader(started, options),
      machine,
      idleCpuMsPerSecond: Object.fromEntries(sides.map(({ side }) => [side, idle[side]?.msPerSecond])),
      requestLogRows: logRows,
      figures,
      phases,
      warnings,
    };
    writeRun({
      name: 'request-log',
      title: 'Request log benchmark',
      started,
      output,
      report,
      headline: [`machine: ${JSON.stringify(machine)}`, `request log rows: ${JSON.stringify(logRows)}`],
      latestMd: 'request-log-latest.md',
    });
  } finally {
    for (const { load, stack } of sides) {
      await load?.stop();
      await stack.stop();
    }
  }
}

/**
 * The capacity benchmark (capacity-bench.ts): one replica of each app, vendor_a on the simulator as in the
 * stream benchmark, `/v1/stream` sessions stepped up (each step's connections opened before it, outside its
 * CPU readings) until the router's p99 from a sentence's end to its first audio passes the bound. Each step
 * lies between two readings of every process's CPU; the repeats draw from sentences cached before the first.
 */
async function runCapacity(options: BenchOptions): Promise<void> {
  const busyBeforeStart = await waitForQuietMachine(options);
  const started = new Date();
  const loadBefore = loadavg();
  log('starting the local services and the stack (one replica of each app)');
  const stack = await startBenchStack(log, {
    logLevel: options.logLevel,
    ...(options.nodeOptions ? { nodeOptions: options.nodeOptions } : {}),
    appEnv: options.appEnv,
    workers: 1,
    name: 'capacity',
  });
  let load: LoadProcess | undefined;
  try {
    await stack.setPacing({
      ttfaMs: options.ttfaMs,
      factor: 0,
      ...(options.chunkMs !== undefined ? { chunkMs: options.chunkMs } : {}),
    });
    load = await stackLoad(stack, options.capacityRepeatSentences, 8);
    const pids = { ...stack.pids, 'load-generator': load.pid };
    const bench = new Bench(stack, pids, load, options);
    log(`caching ${options.capacityRepeatSentences} sentences for the repeats (twice: into the hot tier)`);
    const primes = { variants: ['prime-hot'] as Variant[], perVariant: options.capacityRepeatSentences };
    await bench.measure({ id: 'capacity-prime-hot-1', ...primes, concurrency: 4 }, true);
    await bench.measure({ id: 'capacity-prime-hot-2', ...primes, concurrency: 4 }, true);
    const sweepDue = stack.startedAt + 65_000 - performance.now();
    if (sweepDue > 0) {
      log(`waiting ${Math.round(sweepDue / 1000)} s for the cache-service's first timed sweep to pass`);
      await sleep(sweepDue);
    }
    log(`measuring idle CPU for ${options.idleMs} ms`);
    const idle = await bench.idleRates();
    const otherApps = ROUTER_APPS.filter((app) => !(CAPACITY_APPS as readonly string[]).includes(app));
    const ticks = clockTicksPerSecond();
    const durationMs = (sessions: number): number =>
      capacityStepMs(sessions, options.capacityPaceMs, options.capacityStepSentences, options.capacityStepMs);
    const spec = {
      paceMs: options.capacityPaceMs,
      repeatShare: options.capacityRepeatPercent / 100,
      directPerSecond: options.capacityDirectPerSecond,
    };
    const counts = capacitySessionCounts(options.capacityFrom, options.capacityMaxSessions);
    const hold = async (sessions: number): Promise<number> => {
      const held = await load?.idleStreams(sessions);
      if (held && held.open !== sessions)
        bench.warnings.push(
          `capacity: ${held.open} of ${sessions} sessions open ${JSON.stringify(held.failures)}`,
        );
      return held?.open ?? 0;
    };
    // Unmeasured: the processes' first sentences of this kind (code paths compiled, pools filled).
    log(`capacity: warm-up, ${counts[0] ?? 0} sessions`);
    await hold(counts[0] ?? 0);
    await load.capacityStep({
      id: 'capacity-warmup',
      sessions: counts[0] ?? 0,
      durationMs: options.capacityStepMs,
      ...spec,
    });
    const steps: CapacityStep[] = [];
    const vendorCalls: Array<{ sessions: number; attempt: number; calls: number; expected: number }> = [];
    for (const sessions of counts) {
      const run = async (attempt: number): Promise<CapacityStep> => {
        const open = await hold(sessions);
        const callsBefore = await stack.vendorCalls();
        const before = snapshot(pids);
        const result = await (load as LoadProcess).capacityStep({
          id: `capacity-${sessions}-${attempt}`,
          sessions: open,
          durationMs: durationMs(sessions),
          ...spec,
        });
        const cpu = cpuBetween(before, snapshot(pids), ticks);
        const calls = (await stack.vendorCalls()) - callsBefore;
        const expected = result.misses.ttfbMs.length + result.direct.ttfbMs.length;
        vendorCalls.push({ sessions, attempt, calls, expected });
        if (calls !== expected)
          bench.warnings.push(`capacity-${sessions}-${attempt}: ${calls} vendor calls, expected ${expected}`);
        if (result.wrongCache > 0)
          bench.warnings.push(
            `capacity-${sessions}-${attempt}: ${result.wrongCache} sentences cached other than planned`,
          );
        return capacityStep({ attempt, result, cpu, otherApps, load1: loadavg()[0] ?? 0 });
      };
      let step = await run(1);
      if (capacityRetried(step, options.capacityBoundMs)) {
        log(`capacity: ${sessions} sessions broke the bound (router p99 ${step.routerP99} ms); once more`);
        step = await run(2);
      }
      steps.push(step);
      log(
        `capacity: ${sessions} sessions, ${step.sentencesPerSecond} sentences/s: p50 ${step.p50} p99 ${step.p99} ms ` +
          `(direct p99 ${step.directP99}), ${step.errors} errors, router ${step.routerCores} cores, load ${step.load1}`,
      );
      if (!withinBound(step, options.capacityBoundMs)) break;
    }
    await hold(0);
    const figure = capacityFigure(steps, options.capacityBoundMs);
    const report = renderCapacityReport(steps, figure);
    const machine = {
      ...machineState(busyBeforeStart, loadBefore),
      idleMachineBusyShare: idle.machineBusyShare,
    };
    const output = {
      ...runHeader(started, options),
      simulator: simulatorSettings(options),
      machine,
      idleCpuMsPerSecond: idle.msPerSecond,
      figure,
      steps,
      vendorCalls,
      warnings: bench.warnings,
    };
    writeRun({
      name: 'capacity',
      title: 'Capacity benchmark',
      started,
      output,
      report,
      headline: [
        `machine: ${JSON.stringify(machine)}`,
        `idle CPU (ms/s): ${JSON.stringify(idle.msPerSecond)}`,
      ],
      latestMd: 'capacity-latest.md',
    });
  } finally {
    await load?.stop();
    await stack.stop();
  }
}

async function run(options: BenchOptions): Promise<void> {
  if (options.benchmarks.includes('request-log')) return runRequestLog(options);
  if (options.benchmarks.includes('capacity')) return runCapacity(options);
  const speech = options.benchmarks.includes('speech');
  const streaming = options.benchmarks.includes('stream');
  const peering = options.benchmarks.includes('peer');
  const busyBeforeStart = await waitForQuietMachine(options);
  const started = new Date();
  const loadBefore = loadavg();
  log('starting the local services and the stack');
  const profileDir = join(REPO_ROOT, 'tmp', 'bench', 'profiles');
  if (options.cpuProfile) {
    rmSync(profileDir, { recursive: true, force: true });
    mkdirSync(profileDir, { recursive: true });
    log(`CPU profiles of every app go to ${profileDir} (profiling slows them: do not quote these figures)`);
  }
  const memoryDir = join(REPO_ROOT, 'tmp', 'bench', 'memory');
  if (streaming) mkdirSync(memoryDir, { recursive: true });
  const stack = await startBenchStack(log, {
    ...(options.cpuProfile ? { cpuProfileDir: profileDir } : {}),
    ...(streaming ? { memoryProbeDir: memoryDir } : {}),
    logLevel: options.logLevel,
    ...(options.nodeOptions ? { nodeOptions: options.nodeOptions } : {}),
    appEnv: options.appEnv,
    workers: options.workers,
  });
  let load: LoadProcess | undefined;
  let proxy: Awaited<ReturnType<typeof startBareProxy>> | undefined;
  let chain: Awaited<ReturnType<typeof startNaiveChain>> | undefined;
  let peer: Awaited<ReturnType<typeof startPeerGateway>> | undefined;
  const profiled: ProfiledPhase[] = [];
  let pids: Record<string, number> = {};
  try {
    await stack.setPacing({
      ttfaMs: options.ttfaMs,
      factor: 0,
      ...(options.chunkMs !== undefined ? { chunkMs: options.chunkMs } : {}),
    });
    proxy = await startBareProxy(stack.stack.simUrl);
    // A subject of this run's own, as the stack's are prefixed: runs sharing one NATS must not take each
    // other's requests.
    chain = await startNaiveChain(
      stack.stack.simUrl,
      stack.natsUrl,
      `bench${randomBytes(4).toString('hex')}.naive.take`,
      stack.cacheWrite,
    );
    if (peering) peer = await startPeerGateway(join(REPO_ROOT, 'tmp', 'bench', 'logs', 'peer-gateway.log'));
    const maxConcurrency = Math.max(...(speech || peering ? options.concurrency : [1]));
    load = await LoadProcess.start({
      gatewayUrl: stack.stack.gatewayUrl,
      simUrl: stack.stack.simUrl,
      bareProxyUrl: proxy.url,
      chainUrl: chain.url,
      routerKey: stack.routerKey,
      uncachedRouterKey: stack.uncachedRouterKey,
      voice: stack.voice,
      vendorKey: stack.vendorKey,
      vendorDKey: stack.vendorKey,
      vendorCVoice: stack.vendorCVoice,
      ...(peer ? { peerUrl: peer.url } : {}),
      runId: randomBytes(4).toString('hex'),
      hotSentences: options.hotSentences,
      maxConcurrency,
    });
    pids = {
      ...stack.pids,
      'bare-proxy': proxy.pid,
      ...chain.pids,
      ...(peer ? { 'peer-gateway': peer.pid } : {}),
      'load-generator': load.pid,
    };
    const bench = new Bench(stack, pids, load, options);
    const variants = speech ? options.variants : [];

    // Every cold hit reads a sentence cached here and never read since; the hot ones are read once more so
    // they sit in native-api's hot tier.
    if (variants.includes('cold-hit')) {
      // Per level: its warm-up, the interleaved phase, and each CPU round's warm-up and measured run.
      const coldNeeded = options.concurrency.reduce(
        (sum, c) =>
          sum +
          options.warmup * (c > 1 ? 2 : 1) +
          options.requests +
          options.cpuRounds * (options.warmup + options.cpuRequests),
        0,
      );
      log(`priming ${coldNeeded} cold-hit sentences`);
      await bench.measure(
        { id: 'prime-cold', variants: ['prime-cold'], perVariant: coldNeeded, concurrency: maxConcurrency },
        true,
        3 * options.phaseMaxMs,
      );
    }
    // The stream's hits read the same sentences: a cache entry is shared by both surfaces for equal settings.
    if (variants.includes('hot-hit') || streaming) {
      log(`priming ${options.hotSentences} hot-hit sentences`);
      const hotSpec = {
        variants: ['prime-hot'] as Variant[],
        perVariant: options.hotSentences,
        concurrency: 1,
      };
      await bench.measure({ id: 'prime-hot-1', ...hotSpec }, true);
      await bench.measure({ id: 'prime-hot-2', ...hotSpec }, true);
    }

    // The cache-service's first timed sweep (a bucket listing) comes a minute after its start: let it pass
    // before measuring, so no phase is charged with it.
    const sweepDue = stack.startedAt + 65_000 - performance.now();
    if (sweepDue > 0) {
      log(`waiting ${Math.round(sweepDue / 1000)} s for the cache-service's first timed sweep to pass`);
      await sleep(sweepDue);
    }

    const interleaved: InterleavedResult[] = [];
    const cpuRows: CpuRow[] = [];
    let idle: Awaited<ReturnType<Bench['idleRates']>> | undefined;
    if (speech || peering) {
      log(`measuring idle CPU for ${options.idleMs} ms`);
      idle = await bench.idleRates();
    }
    for (const concurrency of speech ? options.concurrency : []) {
      log(`${concurrency} concurrent: warm-up`);
      const warmup = options.warmup * (concurrency > 1 ? 2 : 1);
      await bench.measure({ id: `warmup-${concurrency}`, variants, perVariant: warmup, concurrency }, true);
      log(`${concurrency} concurrent: ${options.requests} requests per variant, interleaved`);
      const mixed = await bench.measure(
        { id: `interleaved-${concurrency}`, variants, perVariant: options.requests, concurrency },
        true,
      );
      const level = interleavedFigures(concurrency, mixed.result, mixed.cpu, mixed.vendorCalls);
      if (level.vendorCalls !== level.expectedVendorCalls) {
        bench.warnings.push(
          `interleaved-${concurrency}: ${level.vendorCalls} vendor calls, expected ${level.expectedVendorCalls}`,
        );
      }
      interleaved.push(level);
      for (let round = 1; round <= options.cpuRounds; round++) {
        for (const variant of variants) {
          const phase = `cpu-${variant}-${concurrency}-r${round}`;
          log(
            `${concurrency} concurrent: ${variant} alone, ${options.cpuRequests} requests (CPU, round ${round} of ${options.cpuRounds})`,
          );
          // The same variant alone first, unmeasured, so that what the phases before it left behind (a full
          // collection coming due, pools to refill) falls there and not on this variant: without it the first
          // router phase after the interleaved one was charged ≈1.5 ms more per request, whichever it was.
          await bench.measure(
            {
              id: `cpu-warmup-${variant}-${concurrency}-r${round}`,
              variants: [variant],
              perVariant: options.warmup,
              concurrency,
            },
            true,
          );
          const alone = await bench.measure(
            {
              id: phase,
              variants: [variant],
              perVariant: options.cpuRequests,
              concurrency,
            },
            true,
          );
          const succeeded = alone.result.variants[variant]?.ttfbMs.length ?? 0;
          profiled.push({
            id: phase,
            requests: succeeded,
            window: alone.window,
            cpuMs: alone.cpu.processesMs,
          });
          const row = cpuFigures({
            variant,
            concurrency,
            round,
            result: alone.result,
            cpu: alone.cpu,
            routerApps: ROUTER_APPS,
            chainProcesses: CHAIN_PROCESSES,
            idleMsPerSecond: idle?.msPerSecond ?? {},
            vendorCalls: alone.vendorCalls,
            expectedVendorCalls: VENDOR_CALLING.includes(variant) ? succeeded : 0,
          });
          if (row.vendorCalls !== row.expectedVendorCalls) {
            bench.warnings.push(
              `${phase}: ${row.vendorCalls} vendor calls, expected ${row.expectedVendorCalls}`,
            );
          }
          cpuRows.push(row);
        }
      }
    }
    const stream = streaming ? await runStream(bench, stack, load, options) : undefined;
    const peerOutput = peering
      ? await runPeer(bench, options, idle ?? { msPerSecond: {}, servicesMsPerSecond: 0 }, profiled)
      : undefined;

    const cpuMedians = medianOfRounds(cpuRows);
    const checks = speech ? checkTargets(interleaved, cpuMedians) : [];
    const report = [
      ...(speech ? [renderReport(interleaved, cpuRows, checks)] : []),
      ...(stream
        ? [renderStreamReport(stream.latency, stream.memorySteps, stream.memoryPerConnection, stream.targets)]
        : []),
      ...(peerOutput ? [renderPeerReport(peerOutput)] : []),
    ].join('\n');
    const machine = {
      ...machineState(busyBeforeStart, loadBefore),
      ...(idle ? { idleMachineBusyShare: idle.machineBusyShare } : {}),
    };
    const output = {
      ...runHeader(started, options),
      simulator: simulatorSettings(options),
      machine,
      ...(speech
        ? {
            idleCpuMsPerSecond: idle?.msPerSecond,
            interleaved,
            cpu: cpuRows,
            cpuMedians,
            targets: checks,
          }
        : {}),
      ...(stream ? { stream } : {}),
      ...(peerOutput ? { peer: peerOutput } : {}),
      reference: REFERENCE,
      warnings: bench.warnings,
    };
    writeRun({
      name: 'bench',
      title: 'Router benchmark',
      started,
      output,
      report,
      headline: [
        `machine: ${JSON.stringify(machine)}`,
        ...(idle ? [`idle CPU (ms/s): ${JSON.stringify(idle.msPerSecond)}`] : []),
      ],
      latestJson: ['latest.json'],
      latestMd: 'latest.md',
    });
  } finally {
    await load?.stop();
    await proxy?.stop();
    await chain?.stop();
    await peer?.stop();
    await stack.stop();
  }
  // The apps write their profiles as they exit, so only now are they complete.
  if (options.cpuProfile) {
    const summary = renderProfiles(profileDir, pids, profiled);
    writeFileSync(join(REPO_ROOT, 'tmp', 'bench', 'profile-summary.md'), summary);
    // The phases' windows and pids, for reading the raw profiles further (e.g. inclusive time per function).
    writeFileSync(join(profileDir, 'phases.json'), JSON.stringify({ pids, phases: profiled }, null, 1));
    process.stdout.write(`${summary}\nwritten: tmp/bench/profile-summary.md\n`);
  }
}

/** `summarize <run.json> …`: the runs' targets side by side, to stdout and tmp/bench/runs-summary.md. */
function summarizeFiles(files: string[]): void {
  if (files.length === 0) throw new Error('usage: node dist/tools/bench/main.js summarize <run.json> …');
  const records = files.map((file) => JSON.parse(readFileSync(file, 'utf8')) as RunRecord);
  const summary = renderRunsSummary(
    summarizeRuns(records),
    records.map((r, i) => r.startedAt ?? files[i]),
  );
  mkdirSync(join(REPO_ROOT, 'tmp', 'bench'), { recursive: true });
  writeFileSync(join(REPO_ROOT, 'tmp', 'bench', 'runs-summary.md'), summary);
  process.stdout.write(`${summary}\nwritten: tmp/bench/runs-summary.md\n`);
}

const args = process.argv.slice(2);
(args[0] === 'summarize'
  ? Promise.resolve().then(() => summarizeFiles(args.slice(1)))
  : run(parseOptions(args))
).catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
