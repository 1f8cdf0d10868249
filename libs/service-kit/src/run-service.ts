import { setFlagsFromString } from 'node:v8';
import { ConfigError, drainEnv, loadConfig, runtimeEnv } from '@router/config';

export interface Stoppable {
  close(): Promise<void>;
  /**
   * Fails readiness, takes no new work and resolves once the work in hand is over or `ms` has passed (what is
   * left then, `close` ends with the surface's going-away).
   */
  drain?(ms: number): Promise<void>;
}

/**
 * How every process starts and stops: a bad configuration prints the variables at fault and exits 1; SIGTERM
 * drains what was started for up to `DRAIN_MS` (see Stoppable.drain), then, like SIGINT, closes it in
 * reverse order and exits.
 */
export function runService(name: string, start: () => Promise<Stoppable>): void {
  let running: Stoppable | undefined;
  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    try {
      if (signal === 'SIGTERM') await running?.drain?.(loadConfig(drainEnv, process.env).DRAIN_MS);
      await running?.close();
      process.exit(0);
    } catch (error) {
      process.stderr.write(`${name}: failed to stop cleanly after ${signal}: ${describe(error)}\n`);
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  Promise.resolve()
    .then(() => {
      for (const flag of heapFlags(process.env)) setFlagsFromString(flag);
      return start();
    })
    .then(
      (started) => {
        running = started;
      },
      (error: unknown) => {
        process.stderr.write(
          `${name}: ${error instanceof ConfigError ? error.message : `failed to start: ${describe(error)}`}\n`,
        );
        process.exit(1);
      },
    );
}

/**
 * V8 lets the old generation grow to about 1.1× what survived the last full collection when it judges
 * collecting cheap, so a server whose requests each leave a little behind runs a full mark-compact of its
 * whole heap every few hundred milliseconds under load (a synthesis worker at 50 concurrent requests: 28 of
 * them in one benchmark run, ≈20–40 ms each, about a quarter of its CPU). Letting it grow to (1 + p/100)×
 * first trades some memory for that CPU; V8 still keeps the limit at most halfway to the heap's maximum.
 */
export function heapFlags(source: NodeJS.ProcessEnv): string[] {
  const percent = loadConfig(runtimeEnv, source).V8_HEAP_GROWING_PERCENT;
  return percent > 0 ? [`--heap-growing-percent=${percent}`] : [];
}

/** Closes several things in reverse order of starting, continuing past failures; drains them all at once. */
export function closeAll(...parts: Array<Stoppable | (() => Promise<void>)>): Stoppable {
  return {
    async drain(ms) {
      const draining: Array<Promise<void>> = [];
      for (const part of parts) {
        if (typeof part !== 'function' && part.drain) draining.push(part.drain(ms).catch(() => undefined));
      }
      await Promise.all(draining);
    },
    async close() {
      const errors: unknown[] = [];
      for (const part of parts.reverse()) {
        try {
          await (typeof part === 'function' ? part() : part.close());
        } catch (error) {
          errors.push(error);
        }
      }
      if (errors.length > 0) throw errors[0];
    },
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
