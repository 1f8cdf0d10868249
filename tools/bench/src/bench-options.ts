import { type Variant, VARIANTS } from './load-plan';

/**
 * The speech benchmark's variants (the prime variants only fill the cache for the hits; the stream and peer
 * benchmarks have their own).
 */
export const MEASURABLE: readonly Variant[] = VARIANTS.filter(
  (v) => !/^(prime-|stream-|[cd]-|a-ws-)/.test(v),
);

/**
 * The /v1/stream benchmark's variants, interleaved: the direct baseline, then hit and miss over the stream
 * beside the same hit and miss over the speech endpoint (to tell the surface's cost from the pipeline's).
 */
export const STREAM_VARIANTS: readonly Variant[] = ['direct', 'stream-hit', 'hot-hit', 'stream-miss', 'miss'];

export const BENCHMARKS = ['speech', 'stream', 'peer', 'request-log', 'capacity'] as const;
export type Benchmark = (typeof BENCHMARKS)[number];

/**
 * What runs without `--only`. The request log benchmark starts a second stack of its own, and the capacity
 * benchmark a stack of one replica each, run until it is saturated, so they run only when named.
 */
const DEFAULT_BENCHMARKS: readonly Benchmark[] = ['speech', 'stream', 'peer'];

export interface BenchOptions {
  /** Which benchmarks run (`--only=` one of BENCHMARKS; all but the request log's by default). */
  benchmarks: Benchmark[];
  /** Measured side by side, interleaved in shuffled rounds (`phaseOrder`; the speech benchmark). */
  variants: Variant[];
  /** Requests in flight, one measured level each (the issue asks for 1 and 50). */
  concurrency: number[];
  /** Per variant in the interleaved phase (the time-to-first-byte figures). */
  requests: number;
  /** Per variant in each phase that runs a variant alone (the CPU figures). */
  cpuRequests: number;
  /**
   * How many times every variant runs alone at each level, in turn (variant after variant, then again): the
   * CPU figures are the medians of the rounds, and the router's ÷ the chain's is taken within each round.
   */
  cpuRounds: number;
  /** Per variant before each level; twice as many above 1 concurrent. */
  warmup: number;
  /** Sentences the hot-hit variant cycles through. */
  hotSentences: number;
  /** The simulator's constant wait before the first audio (its audio then comes as fast as sockets take it). */
  ttfaMs: number;
  /** After a phase's takes are committed, before its second CPU reading. */
  settleMs: number;
  /** Window for the idle CPU rates. */
  idleMs: number;
  /** No phase starts requests after this long. */
  phaseMaxMs: number;
  /** Before starting, wait at most this long for the machine to be at most `quietBusyShare` busy. */
  quietWaitMs: number;
  quietBusyShare: number;
  /** Write V8 CPU profiles of every app to tmp/bench/profiles (slows the apps: figures are then not quotable). */
  cpuProfile: boolean;
  /** The router processes' LOG_LEVEL (`warn`: per-request info lines cost CPU, see docs/performance.md). */
  logLevel: string;
  /** Added to every app's NODE_OPTIONS (the simulator's too): V8 flags such as heap sizes, to measure a runtime setting. */
  nodeOptions?: string;
  /** Variables added to every app's environment (after the benchmark's own): to measure a setting. */
  appEnv: Record<string, string>;
  /**
   * Synthesis worker replicas in the stack. 1 by default: one process per role, the shape of the naive chain
   * beside it; 2 measures what a second replica costs on the same cores.
   */
  workers: 1 | 2;
  /** The simulator's audio per streamed chunk (its default when absent): how many chunks a take has. */
  chunkMs?: number;
  /** /v1/stream: replies per variant in the interleaved phase, and before it as a warm-up. */
  streamRequests: number;
  streamWarmup: number;
  /** /v1/stream: idle connections held open for the memory figures. */
  streamConnections: number;
  /** Peer benchmark: requests per variant interleaved at each level, and alone for CPU (one round). */
  peerRequests: number;
  peerCpuRequests: number;
  /** Peer benchmark, open loop: the first rate (per second), how many ×1.5 steps at most, each how long. */
  openLoopFrom: number;
  openLoopSteps: number;
  openLoopStepMs: number;
  /** Request log benchmark: rounds, each the hot hit alone on both stacks, the first alternating (even: balanced). */
  requestLogRounds: number;
  /** Request log benchmark: hot hits per stack and round (a warm-up of `warmup` before each). */
  requestLogRequests: number;
  /** Capacity benchmark: `/v1/stream` sessions in the first step, doubled each step up to the cap. */
  capacityFrom: number;
  capacityMaxSessions: number;
  /**
   * Capacity benchmark: each step's least length, after its sessions are open, and the sentences it lasts long
   * enough for (capacity-bench.ts `capacityStepMs`).
   */
  capacityStepMs: number;
  capacityStepSentences: number;
  /**
   * Capacity benchmark: one sentence per session every this long, the ≈3.8 s of audio a benchmark sentence
   * plays for and a beat: an agent's sentences played back to back, the busiest a session gets.
   */
  capacityPaceMs: number;
  /** Capacity benchmark: the share of sentences (per cent) that repeat one cached before the run. */
  capacityRepeatPercent: number;
  /** Capacity benchmark: how many sentences are cached before the run for the repeats to draw from. */
  capacityRepeatSentences: number;
  /** Capacity benchmark: the bound on the router's p99, sentence end sent → first audio (ms). */
  capacityBoundMs: number;
  /** Capacity benchmark: the vendor's request straight to the simulator, per second beside the sessions. */
  capacityDirectPerSecond: number;
}

export const DEFAULT_OPTIONS: BenchOptions = {
  benchmarks: [...DEFAULT_BENCHMARKS],
  variants: [...MEASURABLE],
  concurrency: [1, 50],
  requests: 300,
  cpuRequests: 300,
  cpuRounds: 3,
  warmup: 50,
  hotSentences: 16,
  ttfaMs: 0,
  settleMs: 500,
  idleMs: 5000,
  phaseMaxMs: 60_000,
  quietWaitMs: 60_000,
  quietBusyShare: 0.2,
  cpuProfile: false,
  logLevel: 'warn',
  appEnv: {},
  workers: 1,
  streamRequests: 300,
  streamWarmup: 50,
  streamConnections: 1000,
  peerRequests: 150,
  peerCpuRequests: 200,
  openLoopFrom: 30,
  openLoopSteps: 10,
  openLoopStepMs: 2000,
  requestLogRounds: 6,
  requestLogRequests: 3000,
  capacityFrom: 10,
  capacityMaxSessions: 1280,
  capacityStepMs: 30_000,
  capacityStepSentences: 300,
  capacityPaceMs: 4000,
  capacityRepeatPercent: 30,
  capacityRepeatSentences: 100,
  capacityBoundMs: 250,
  capacityDirectPerSecond: 10,
};

/** A quick smoke run: every phase, few requests; the figures are too noisy to quote. */
const QUICK: Partial<BenchOptions> = {
  requests: 60,
  cpuRequests: 60,
  cpuRounds: 1,
  warmup: 20,
  idleMs: 1000,
  quietWaitMs: 0,
  streamRequests: 60,
  streamWarmup: 20,
  streamConnections: 200,
  peerRequests: 30,
  peerCpuRequests: 40,
  openLoopSteps: 6,
  openLoopStepMs: 1000,
  requestLogRounds: 4,
  requestLogRequests: 500,
  capacityMaxSessions: 40,
  capacityStepMs: 5000,
  capacityStepSentences: 50,
};

const USAGE = `usage: node dist/tools/bench/main.js [--quick] [--only=speech|stream|peer|request-log|capacity] [--concurrency=1,50] [--requests=N]
  [--cpu-requests=N] [--cpu-rounds=N] [--warmup=N] [--hot-sentences=N] [--ttfa-ms=N] [--settle-ms=N] [--idle-ms=N] [--phase-max-ms=N]
  [--quiet-wait-ms=N] [--cpu-prof] [--variants=direct,proxy,chain,chain-cached,miss,uncached,hot-hit,cold-hit] [--chunk-ms=N]
  [--log-level=warn] [--stream-requests=N] [--stream-warmup=N] [--stream-connections=N] [--node-options='--v8-flag …']
  [--app-env=NAME=value,…] [--workers=1|2] [--peer-requests=N] [--peer-cpu-requests=N] [--open-loop-from=N]
  [--open-loop-steps=N] [--open-loop-step-ms=N] [--request-log-rounds=N] [--request-log-requests=N]
  [--capacity-from=N] [--capacity-max-sessions=N] [--capacity-step-ms=N] [--capacity-step-sentences=N] [--capacity-pace-ms=N]
  [--capacity-repeat-percent=N] [--capacity-repeat-sentences=N] [--capacity-bound-ms=N] [--capacity-direct-per-second=N]`;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

type CountOption = Exclude<
  keyof BenchOptions,
  | 'benchmarks'
  | 'variants'
  | 'concurrency'
  | 'quietBusyShare'
  | 'cpuProfile'
  | 'logLevel'
  | 'nodeOptions'
  | 'appEnv'
  | 'workers'
>;

const FLAGS: Record<string, CountOption> = {
  '--requests': 'requests',
  '--cpu-requests': 'cpuRequests',
  '--cpu-rounds': 'cpuRounds',
  '--warmup': 'warmup',
  '--hot-sentences': 'hotSentences',
  '--ttfa-ms': 'ttfaMs',
  '--settle-ms': 'settleMs',
  '--idle-ms': 'idleMs',
  '--phase-max-ms': 'phaseMaxMs',
  '--quiet-wait-ms': 'quietWaitMs',
  '--chunk-ms': 'chunkMs',
  '--stream-requests': 'streamRequests',
  '--stream-warmup': 'streamWarmup',
  '--stream-connections': 'streamConnections',
  '--peer-requests': 'peerRequests',
  '--peer-cpu-requests': 'peerCpuRequests',
  '--open-loop-from': 'openLoopFrom',
  '--open-loop-steps': 'openLoopSteps',
  '--open-loop-step-ms': 'openLoopStepMs',
  '--request-log-rounds': 'requestLogRounds',
  '--request-log-requests': 'requestLogRequests',
  '--capacity-from': 'capacityFrom',
  '--capacity-max-sessions': 'capacityMaxSessions',
  '--capacity-step-ms': 'capacityStepMs',
  '--capacity-step-sentences': 'capacityStepSentences',
  '--capacity-pace-ms': 'capacityPaceMs',
  '--capacity-repeat-percent': 'capacityRepeatPercent',
  '--capacity-repeat-sentences': 'capacityRepeatSentences',
  '--capacity-bound-ms': 'capacityBoundMs',
  '--capacity-direct-per-second': 'capacityDirectPerSecond',
};

function count(flag: string, text: string, min: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min)
    throw new Error(`${flag} must be an integer >= ${min}\n${USAGE}`);
  return value;
}

export function parseOptions(args: readonly string[]): BenchOptions {
  const options: BenchOptions = { ...DEFAULT_OPTIONS };
  if (args.includes('--quick')) Object.assign(options, QUICK);
  for (const arg of args) {
    if (arg === '--quick') continue;
    if (arg === '--cpu-prof') {
      options.cpuProfile = true;
      continue;
    }
    const [flag = '', value = ''] = arg.split('=', 2);
    if (flag === '--only') {
      const benchmark = BENCHMARKS.find((known) => known === value);
      if (!benchmark) throw new Error(`--only must be one of ${BENCHMARKS.join(', ')}\n${USAGE}`);
      options.benchmarks = [benchmark];
      continue;
    }
    if (flag === '--variants') {
      options.variants = value.split(',').map((v) => {
        const variant = VARIANTS.find((known) => known === v);
        if (!variant || !MEASURABLE.includes(variant)) {
          throw new Error(`--variants: ${v} is not one of ${MEASURABLE.join(', ')}\n${USAGE}`);
        }
        return variant;
      });
      continue;
    }
    if (flag === '--log-level') {
      if (!LOG_LEVELS.includes(value))
        throw new Error(`--log-level must be one of ${LOG_LEVELS.join(', ')}\n${USAGE}`);
      options.logLevel = value;
      continue;
    }
    if (flag === '--node-options') {
      // Everything after the first '=' (V8 flags carry their own '=').
      options.nodeOptions = arg.slice(flag.length + 1).trim();
      continue;
    }
    if (flag === '--app-env') {
      for (const pair of arg.slice(flag.length + 1).split(',')) {
        const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(pair);
        if (!match)
          throw new Error(`--app-env takes NAME=value pairs separated by commas, got ${pair}\n${USAGE}`);
        options.appEnv = { ...options.appEnv, [match[1]]: match[2] };
      }
      continue;
    }
    if (flag === '--workers') {
      if (value !== '1' && value !== '2') throw new Error(`--workers must be 1 or 2\n${USAGE}`);
      options.workers = value === '1' ? 1 : 2;
      continue;
    }
    if (flag === '--concurrency') {
      options.concurrency = value.split(',').map((v) => count(flag, v, 1));
      continue;
    }
    const name = FLAGS[flag];
    if (!name) throw new Error(`unknown argument ${arg}\n${USAGE}`);
    const min = [
      'ttfaMs',
      'settleMs',
      'warmup',
      'quietWaitMs',
      'streamWarmup',
      'capacityRepeatPercent',
      'capacityDirectPerSecond',
    ].includes(name)
      ? 0
      : 1;
    options[name] = count(flag, value, min);
    if (name === 'capacityRepeatPercent' && options[name] > 100)
      throw new Error(`--capacity-repeat-percent must be at most 100\n${USAGE}`);
  }
  return options;
}
