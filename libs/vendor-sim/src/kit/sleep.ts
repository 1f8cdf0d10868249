/**
 * Waits `ms` (Infinity waits for the signal alone). Resolves true when the time passed, false when the
 * signal aborted first, so a paced stream stops as soon as its client is gone.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  // Nothing to wait for: yield once (setImmediate has no 1 ms clamp) so other sockets get their turn.
  if (ms <= 0) return new Promise((resolve) => setImmediate(() => resolve(!signal?.aborted)));
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    if (Number.isFinite(ms)) {
      timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(true);
        },
        Math.max(0, ms),
      );
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
