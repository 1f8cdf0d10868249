import type { PrivateNats, PrivateS3, RunningStack, StackApp } from '@router/testing';

export interface FaultTargets {
  stack: RunningStack;
  nats: PrivateNats;
  s3: PrivateS3;
}

export interface FaultEvent {
  fault: string;
  /** Seconds from the start of traffic. */
  atS: number;
  downMs: number;
}

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

/**
 * Runs faults in turn until `until`, each with everything back up before the next: a synthesis worker killed
 * with SIGKILL (the two replicas alternately) and started again, NATS stopped and started again, the S3
 * emulator stopped and started again. The first comes `gapMs` after the start; none starts unless it can end
 * by `until`, so traffic always ends on a healthy stack.
 */
export async function runFaults(
  targets: FaultTargets,
  timing: { startedAt: number; until: number; gapMs: number; downMs: number },
  signal: AbortSignal,
  log: (line: string) => void,
): Promise<FaultEvent[]> {
  const { stack, nats, s3 } = targets;
  const workers: StackApp[] = ['synthesis-worker', 'synthesis-worker-2'];
  let killed = 0;
  const faults: Array<{ name: () => string; down: () => Promise<void>; up: () => Promise<void> }> = [
    {
      name: () => `kill ${workers[killed % 2]}`,
      down: () => stack.kill(workers[killed % 2]),
      up: async () => {
        await stack.restart(workers[killed % 2]);
        killed++;
      },
    },
    { name: () => 'stop NATS', down: () => nats.stop(), up: () => nats.restart() },
    { name: () => 'stop S3', down: () => s3.stop(), up: () => s3.restart() },
  ];
  const events: FaultEvent[] = [];
  for (let i = 0; i < 100_000; i++) {
    await sleep(timing.gapMs, signal);
    if (signal.aborted || Date.now() + timing.downMs + 1000 > timing.until) break;
    const fault = faults[i % faults.length];
    if (!fault) break;
    const name = fault.name();
    const atS = Math.round((Date.now() - timing.startedAt) / 100) / 10;
    log(`fault at ${atS} s: ${name} for ${timing.downMs} ms`);
    await fault.down();
    try {
      await sleep(timing.downMs, signal);
    } finally {
      await fault.up();
    }
    events.push({ fault: name, atS, downMs: timing.downMs });
  }
  return events;
}
