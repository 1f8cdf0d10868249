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
  let wake: (() => void) | undefined;
  const onAbort = (): void => wake?.();
  const fired = new Promise<typeof HALTED>((resolve) => {
    wake = () => resolve(HALTED);
  });
  for (const signal of given) signal.addEventListener('abort', onAbort, { once: true });
  if (halted()) wake?.();
  return {
    halted,
    haltedOrDone: (work) => (given.length === 0 ? work : Promise.race([work, fired])),
    release: () => given.forEach((s) => s.removeEventListener('abort', onAbort)),
  };
}
