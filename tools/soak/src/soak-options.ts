import { FAULT_KINDS, type FaultKind } from './faults';

export interface SoakOptions {
  /** How long traffic runs (the setup before and the checks after come on top). */
  seconds: number;
  /** Concurrent `POST /v1/audio/speech` clients, one sentence per request. */
  httpClients: number;
  /** Concurrent `/v1/stream` sessions, a few sentences per turn. */
  streamSessions: number;
  /** Distinct sentences in the pool every client draws from (fewer: more hits; more: more misses). */
  sentences: number;
  /**
   * Concurrent mirror clients, sharing out every mirror surface (REST, SSE and socket) of the ten vendors; 0:
   * native traffic only.
   */
  mirrorClients: number;
  /** Distinct sentences of each mirror surface (its own, told apart by length from the vendor's others). */
  mirrorSentences: number;
  /** Run faults (those of `faultKinds`, in turn) on a schedule during the run. */
  faults: boolean;
  /**
   * Which faults: `kill` a synthesis worker, stop `nats`, stop `s3`, stop `postgres`, a rolling `restart` of
   * every app (each drained and started again in turn).
   */
  faultKinds: FaultKind[];
  /** How long NATS, S3 and PostgreSQL stay down, and a killed worker stays dead, per fault. */
  faultDownMs: number;
  /** The wait between two faults (the schedule cycles worker, NATS, S3). */
  faultGapMs: number;
  /** A request or stream turn without its whole answer by then counts as hung (and is abandoned). */
  requestTimeoutMs: number;
  /** The simulated vendor's wait before the first audio, so takes of one key overlap under load. */
  ttfaMs: number;
  /** The simulated vendor's pacing: 1 = audio at playback speed, 0 = as fast as the socket takes it. */
  pacingFactor: number;
  /** Variables added to every app's environment, after the soak's own short timings. */
  appEnv: Record<string, string>;
}

export const DEFAULT_OPTIONS: SoakOptions = {
  seconds: 60,
  httpClients: 4,
  streamSessions: 2,
  sentences: 40,
  mirrorClients: 4,
  mirrorSentences: 6,
  faults: true,
  faultKinds: [...FAULT_KINDS],
  faultDownMs: 3000,
  faultGapMs: 8000,
  requestTimeoutMs: 15_000,
  ttfaMs: 40,
  pacingFactor: 0.05,
  appEnv: {},
};

export const USAGE = `usage: node dist/tools/soak/main.js [--seconds=N] [--http-clients=N] [--stream-sessions=N]
  [--sentences=N] [--mirror-clients=N] [--mirror-sentences=N] [--faults=on|off]
  [--fault-kinds=kill,nats,s3,postgres,restart] [--fault-down-ms=N] [--fault-gap-ms=N] [--request-timeout-ms=N]
  [--ttfa-ms=N] [--pacing-factor=X] [--app-env=NAME=value,…]`;

type CountOption =
  | 'seconds'
  | 'httpClients'
  | 'streamSessions'
  | 'sentences'
  | 'mirrorClients'
  | 'mirrorSentences'
  | 'faultDownMs'
  | 'faultGapMs';

/** Flag → option, with the smallest value each takes. */
const COUNTS: Record<
  string,
  { name: CountOption | 'requestTimeoutMs' | 'ttfaMs'; min: number; max: number }
> = {
  '--seconds': { name: 'seconds', min: 5, max: 86_400 },
  '--http-clients': { name: 'httpClients', min: 0, max: 200 },
  '--stream-sessions': { name: 'streamSessions', min: 0, max: 200 },
  // Sentences are told apart by their length (see sentence-pool.ts), which bounds the pool.
  '--sentences': { name: 'sentences', min: 1, max: 200 },
  '--mirror-clients': { name: 'mirrorClients', min: 0, max: 200 },
  // vendor_a's lengths hold the native pool and three mirror surfaces' pools.
  '--mirror-sentences': { name: 'mirrorSentences', min: 1, max: 50 },
  '--fault-down-ms': { name: 'faultDownMs', min: 100, max: 600_000 },
  '--fault-gap-ms': { name: 'faultGapMs', min: 100, max: 3_600_000 },
  '--request-timeout-ms': { name: 'requestTimeoutMs', min: 100, max: 600_000 },
  '--ttfa-ms': { name: 'ttfaMs', min: 0, max: 60_000 },
};

function integer(flag: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (text === '' || !Number.isInteger(value) || value < min || value > max)
    throw new Error(`${flag} must be an integer from ${min} to ${max}, got '${text}'\n${USAGE}`);
  return value;
}

/** The options from `--name=value` arguments; anything unknown or out of range is refused, naming the flag. */
export function parseOptions(args: readonly string[]): SoakOptions {
  const options: SoakOptions = { ...DEFAULT_OPTIONS, faultKinds: [...FAULT_KINDS], appEnv: {} };
  for (const arg of args) {
    const eq = arg.indexOf('=');
    const flag = eq < 0 ? arg : arg.slice(0, eq);
    const value = eq < 0 ? '' : arg.slice(eq + 1);
    if (flag === '--faults') {
      if (value !== 'on' && value !== 'off') throw new Error(`--faults must be on or off\n${USAGE}`);
      options.faults = value === 'on';
      continue;
    }
    if (flag === '--fault-kinds') {
      const kinds = value.split(',');
      const unknown = kinds.find((kind) => !(FAULT_KINDS as readonly string[]).includes(kind));
      if (value === '' || unknown !== undefined)
        throw new Error(`--fault-kinds takes some of ${FAULT_KINDS.join(', ')}, got '${value}'\n${USAGE}`);
      options.faultKinds = kinds as FaultKind[];
      continue;
    }
    if (flag === '--pacing-factor') {
      const factor = Number(value);
      if (value === '' || !Number.isFinite(factor) || factor < 0 || factor > 10)
        throw new Error(`--pacing-factor must be a number from 0 to 10, got '${value}'\n${USAGE}`);
      options.pacingFactor = factor;
      continue;
    }
    if (flag === '--app-env') {
      for (const pair of value.split(',')) {
        const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(pair);
        if (!match)
          throw new Error(`--app-env takes NAME=value pairs separated by commas, got '${pair}'\n${USAGE}`);
        options.appEnv[match[1]] = match[2];
      }
      continue;
    }
    const count = COUNTS[flag];
    if (!count) throw new Error(`unknown argument ${arg}\n${USAGE}`);
    options[count.name] = integer(flag, value, count.min, count.max);
  }
  if (options.httpClients + options.streamSessions === 0)
    throw new Error(`--http-clients and --stream-sessions are both 0: there would be no traffic\n${USAGE}`);
  return options;
}
