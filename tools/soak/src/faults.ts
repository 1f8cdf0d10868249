import {
  type PrivateNats,
  type PrivatePostgres,
  type PrivateS3,
  type RunningStack,
  STACK_APPS,
  type StackApp,
} from '@router/testing';

export interface FaultTargets {
  stack: RunningStack;
  nats: PrivateNats;
  s3: PrivateS3;
  /** The stack's own PostgreSQL server, which the `postgres` fault stops and starts again. */
  pg: PrivatePostgres;
}

export interface FaultEvent {
  fault: string;
  /** Seconds from the start of traffic. */
  atS: number;
  downMs: number;
}

/**
 * The faults the soak can run: a synthesis worker killed (SIGKILL) and started again, NATS stopped and
 * started again, the S3 emulator stopped and started again, PostgreSQL stopped and started again, and a
 * rolling restart of every app (each told to stop in turn, SIGTERM, and replaced once it has drained: no reply
 * that had started may be lost).
 */
export const FAULT_KINDS = ['kill', 'nats', 's3', 'postgres', 'restart'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Every app of the stack but the simulated vendor, in the order a rolling update would take them. */
export const ROLLED_APPS: readonly StackApp[] = STACK_APPS.filter((app) => app !== 'vendor-sim');

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, Math.max(0, ms));
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

interface Fault {
  name(): string;
  /** What the fault does; `down` is the outage's length, where the fault is one. */
  run(down: () => Promise<void>): Promise<void>;
  /** How long it takes at most, for the schedule to end it before the traffic does. */
  spanMs(downMs: number): number;
}

/**
 * Runs faults of `kinds` in turn until `until`, each with everything back up before the next. The first comes
 * `gapMs` after the start; none starts unless it can end by `until`, so traffic always ends on a healthy stack.
 */
export async function runFaults(
  targets: FaultTargets,
  timing: { startedAt: number; until: number; gapMs: number; downMs: number; kinds: readonly FaultKind[] },
  signal: AbortSignal,
  log: (line: string) => void,
): Promise<FaultEvent[]> {
  const { stack, nats, s3, pg } = targets;
  const workers: StackApp[] = ['synthesis-worker', 'synthesis-worker-2'];
  let killed = 0;
  const outage =
    (stop: () => Promise<void>, start: () => Promise<void>) => async (down: () => Promise<void>) => {
      await stop();
      try {
        await down();
      } finally {
        await start();
      }
    };
  // A rolling restart drains each app (DRAIN_MS at most, far less when it is idle) and starts it again. It is
  // started while at least a second per app of traffic is left; traffic ends before a slow one does, and the
  // checks wait for it.
  const restartSpanMs = ROLLED_APPS.length * 1000;
  const all: Record<FaultKind, Fault> = {
    kill: {
      name: () => `kill ${workers[killed % 2]}`,
      run: outage(
        () => stack.kill(workers[killed % 2]),
        async () => {
          await stack.restart(workers[killed % 2]);
          killed++;
        },
      ),
      spanMs: (downMs) => downMs + 1000,
    },
    nats: {
      name: () => 'stop NATS',
      run: outage(
        () => nats.stop(),
        () => nats.restart(),
      ),
      spanMs: (d) => d + 1000,
    },
    s3: {
      name: () => 'stop S3',
      run: outage(
        () => s3.stop(),
        () => s3.restart(),
      ),
      spanMs: (d) => d + 1000,
    },
    postgres: {
      name: () => 'stop PostgreSQL',
      run: outage(
        () => pg.stop(),
        () => pg.restart(),
      ),
      spanMs: (d) => d + 2000,
    },
    restart: {
      name: () => 'rolling restart',
      run: async () => {
        for (const app of ROLLED_APPS) {
          if (signal.aborted) return;
          await stack.roll(app);
        }
      },
      spanMs: () => restartSpanMs,
    },
  };
  const faults = timing.kinds.map((kind) => all[kind]);
  const events: FaultEvent[] = [];
  for (let i = 0; i < 100_000 && faults.length > 0; i++) {
    await sleep(timing.gapMs, signal);
    const fault = faults[i % faults.length];
    if (!fault || signal.aborted || Date.now() + fault.spanMs(timing.downMs) > timing.until) break;
    const name = fault.name();
    const began = Date.now();
    const atS = Math.round((began - timing.startedAt) / 100) / 10;
    log(`fault at ${atS} s: ${name}`);
    await fault.run(() => sleep(timing.downMs, signal));
    events.push({ fault: name, atS, downMs: Date.now() - began });
  }
  return events;
}
