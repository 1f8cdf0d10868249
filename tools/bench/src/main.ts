import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '@router/testing';
import { BENCH_ENV, type BenchStack, ROUTER_APPS, startBenchStack } from './bench-stack';
import { type BenchOptions, parseOptions } from './bench-options';
import type { PhaseResult, PhaseSpec, Variant } from './load-plan';
import { LoadProcess } from './load-process';
import { clockTicksPerSecond, type CpuDelta, cpuBetween, snapshot } from './proc-cpu';
import {
  checkTargets,
  type CpuRow,
  cpuFigures,
  type InterleavedResult,
  interleavedFigures,
  REFERENCE,
  renderReport,
} from './report';
import { round } from './stats';

/**
 * `npm run bench`: every app as its own process against the simulated vendors, load from a separate
 * process. It measures and reports; it asserts nothing (a benchmark is not a test).
 */

const MEASURED: Variant[] = ['direct', 'miss', 'hot-hit', 'cold-hit'];

function log(line: string): void {
  process.stderr.write(`bench: ${line}\n`);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Measured {
  result: PhaseResult;
  cpu: CpuDelta;
  vendorCalls: number;
}

class Bench {
  private readonly ticks = clockTicksPerSecond();
  private readonly pids: Record<string, number>;
  /** Cache rows there should be once every take so far is committed. */
  private expectedEntries = 0;
  readonly warnings: string[] = [];

  constructor(
    private readonly stack: BenchStack,
    private readonly load: LoadProcess,
    private readonly options: BenchOptions,
  ) {
    this.pids = { ...stack.pids, 'load-generator': load.pid };
  }

  /**
   * Runs one phase between two CPU readings. With `settle`, the second reading waits until the phase's
   * takes are committed to the cache and a moment more, so work a request leaves behind is counted with it.
   */
  async measure(spec: Omit<PhaseSpec, 'kind' | 'maxMs'>, settle: boolean): Promise<Measured> {
    const callsBefore = await this.stack.vendorCalls();
    const before = snapshot(this.pids);
    const result = await this.load.run({ ...spec, maxMs: this.options.phaseMaxMs });
    const newTakes = (['miss', 'prime-cold'] as Variant[]).reduce(
      (sum, v) => sum + (result.variants[v]?.ttfbMs.length ?? 0),
      0,
    );
    this.expectedEntries +=
      newTakes + (spec.id === 'prime-hot-1' ? (result.variants['prime-hot']?.ttfbMs.length ?? 0) : 0);
    if (settle) {
      await this.untilCommitted();
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
    return { result, cpu: cpuBetween(before, after, this.ticks), vendorCalls };
  }

  /** CPU each process uses with no requests, per second (timers, heartbeats, pools). */
  async idleRates(): Promise<{ msPerSecond: Record<string, number>; machineBusyShare: number }> {
    const before = snapshot(this.pids);
    await sleep(this.options.idleMs);
    const delta = cpuBetween(before, snapshot(this.pids), this.ticks);
    return {
      msPerSecond: Object.fromEntries(
        Object.entries(delta.processesMs).map(([name, ms]) => [
          name,
          round(ms / (delta.elapsedMs / 1000), 3),
        ]),
      ),
      machineBusyShare: round(delta.machineBusyShare, 3),
    };
  }

  private async untilCommitted(): Promise<void> {
    const deadline = Date.now() + 30_000;
    while ((await this.stack.cacheEntries()) < this.expectedEntries) {
      if (Date.now() > deadline) {
        this.warnings.push(`cache rows: fewer than the ${this.expectedEntries} expected after 30 s`);
        return;
      }
      await sleep(50);
    }
  }
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

async function run(options: BenchOptions): Promise<void> {
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
  const stack = await startBenchStack(log, options.cpuProfile ? profileDir : undefined);
  let load: LoadProcess | undefined;
  try {
    await stack.setPacing({ ttfaMs: options.ttfaMs, factor: 0 });
    const maxConcurrency = Math.max(...options.concurrency);
    load = await LoadProcess.start({
      gatewayUrl: stack.stack.gatewayUrl,
      simUrl: stack.stack.simUrl,
      routerKey: stack.routerKey,
      vendorKey: stack.vendorKey,
      voice: stack.voice,
      runId: randomBytes(4).toString('hex'),
      hotSentences: options.hotSentences,
      maxConcurrency,
    });
    const bench = new Bench(stack, load, options);

    // Every cold hit reads a sentence cached here and never read since; the hot ones are read once more so
    // they sit in native-api's hot tier.
    const coldNeeded = options.concurrency.reduce(
      (sum, c) => sum + options.warmup * (c > 1 ? 2 : 1) + options.requests + options.cpuRequests,
      0,
    );
    log(`priming ${coldNeeded} cold-hit and ${options.hotSentences} hot-hit sentences`);
    await bench.measure(
      { id: 'prime-cold', variants: ['prime-cold'], perVariant: coldNeeded, concurrency: maxConcurrency },
      true,
    );
    const hotSpec = {
      variants: ['prime-hot'] as Variant[],
      perVariant: options.hotSentences,
      concurrency: 1,
    };
    await bench.measure({ id: 'prime-hot-1', ...hotSpec }, true);
    await bench.measure({ id: 'prime-hot-2', ...hotSpec }, true);

    log(`measuring idle CPU for ${options.idleMs} ms`);
    const idle = await bench.idleRates();

    const interleaved: InterleavedResult[] = [];
    const cpuRows: CpuRow[] = [];
    for (const concurrency of options.concurrency) {
      log(`${concurrency} concurrent: warm-up`);
      const warmup = options.warmup * (concurrency > 1 ? 2 : 1);
      await bench.measure(
        { id: `warmup-${concurrency}`, variants: MEASURED, perVariant: warmup, concurrency },
        true,
      );
      log(`${concurrency} concurrent: ${options.requests} requests per variant, interleaved`);
      const mixed = await bench.measure(
        { id: `interleaved-${concurrency}`, variants: MEASURED, perVariant: options.requests, concurrency },
        true,
      );
      interleaved.push(interleavedFigures(concurrency, mixed.result, mixed.cpu, mixed.vendorCalls));
      for (const variant of MEASURED) {
        log(`${concurrency} concurrent: ${variant} alone, ${options.cpuRequests} requests (CPU)`);
        const alone = await bench.measure(
          {
            id: `cpu-${variant}-${concurrency}`,
            variants: [variant],
            perVariant: options.cpuRequests,
            concurrency,
          },
          true,
        );
        const succeeded = alone.result.variants[variant]?.ttfbMs.length ?? 0;
        cpuRows.push(
          cpuFigures({
            variant,
            concurrency,
            result: alone.result,
            cpu: alone.cpu,
            routerApps: ROUTER_APPS,
            idleMsPerSecond: idle.msPerSecond,
            vendorCalls: alone.vendorCalls,
            expectedVendorCalls: variant === 'direct' || variant === 'miss' ? succeeded : 0,
          }),
        );
      }
    }
    for (const level of interleaved) {
      if (level.vendorCalls !== level.expectedVendorCalls) {
        bench.warnings.push(
          `interleaved-${level.concurrency}: ${level.vendorCalls} vendor calls, expected ${level.expectedVendorCalls}`,
        );
      }
    }
    for (const row of cpuRows) {
      if (row.vendorCalls !== row.expectedVendorCalls) {
        bench.warnings.push(
          `cpu-${row.variant}-${row.concurrency}: ${row.vendorCalls} vendor calls, expected ${row.expectedVendorCalls}`,
        );
      }
    }

    const checks = checkTargets(interleaved, cpuRows);
    const report = renderReport(interleaved, cpuRows, checks);
    const machine = {
      ...machineInfo(),
      busyShareBeforeStart: busyBeforeStart,
      loadAverageBefore: loadBefore.map((v) => round(v)),
      loadAverageAfter: loadavg().map((v) => round(v)),
      idleMachineBusyShare: idle.machineBusyShare,
    };
    const output = {
      startedAt: started.toISOString(),
      durationS: round((Date.now() - started.getTime()) / 1000, 1),
      options,
      env: BENCH_ENV,
      simulator: { vendor: 'vendor_a', ttfaMs: options.ttfaMs, factor: 0 },
      machine,
      idleCpuMsPerSecond: idle.msPerSecond,
      interleaved,
      cpu: cpuRows,
      targets: checks,
      reference: REFERENCE,
      warnings: bench.warnings,
    };
    const dir = join(REPO_ROOT, 'tmp', 'bench');
    mkdirSync(dir, { recursive: true });
    const stamp = started.toISOString().replace(/[:.]/g, '-');
    writeFileSync(join(dir, `bench-${stamp}.json`), `${JSON.stringify(output, null, 2)}\n`);
    writeFileSync(join(dir, 'latest.json'), `${JSON.stringify(output, null, 2)}\n`);
    writeFileSync(join(dir, 'latest.md'), report);
    process.stdout.write(
      [
        `## Router benchmark ${started.toISOString()} (${output.durationS} s)`,
        '',
        `machine: ${JSON.stringify(machine)}`,
        `idle router CPU (ms/s): ${JSON.stringify(idle.msPerSecond)}`,
        '',
        report,
        ...(bench.warnings.length ? ['warnings:', ...bench.warnings.map((w) => `- ${w}`), ''] : []),
        `written: tmp/bench/bench-${stamp}.json (and latest.json, latest.md)`,
        '',
      ].join('\n'),
    );
  } finally {
    await load?.stop();
    await stack.stop();
  }
}

run(parseOptions(process.argv.slice(2))).catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
