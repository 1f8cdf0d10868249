/** What a wait ended with when a halt signal fired first. */
export const HALTED = Symbol('halted');

/** Waits that end early, with HALTED, once any of the signals fires. */
export function haltOn(signals: Array<AbortSignal | undefined>): {
  halted: () => boolean;
  haltedOrDone: <T>(work: Promise<T>) => Promise<T | typeof HALTED>;
  release: () => void;
} {
  const given = signals.filter((s): s is AbortSignal => s !== undefined);
  const halted = (): boolean => given.some((s) => s.aborted);
  // Each wait registers itself until its work settles. (A race against one promise that settles only on a
  // halt would keep every wait's result, each chunk of a reply, reachable until the reply ends.)
  const waiting = new Set<() => void>();
  let fired = false;
  const onAbort = (): void => {
    fired = true;
    // As a race would: work that settled before the halt, its reaction already queued, wins.
    for (const wake of waiting) queueMicrotask(wake);
  };
  for (const signal of given) signal.addEventListener('abort', onAbort, { once: true });
  if (halted()) fired = true;
  return {
    halted,
    haltedOrDone: <T>(work: Promise<T>): Promise<T | typeof HALTED> => {
      if (given.length === 0) return work;
      return new Promise<T | typeof HALTED>((resolve, reject) => {
        const wake = (): void => {
          waiting.delete(wake);
          resolve(HALTED);
        };
        work.then((value) => {
          waiting.delete(wake);
          resolve(value);
        }, reject);
        work.catch(() => waiting.delete(wake));
        if (fired) queueMicrotask(wake);
        else waiting.add(wake);
      });
    },
    release: () => given.forEach((s) => s.removeEventListener('abort', onAbort)),
  };
}
