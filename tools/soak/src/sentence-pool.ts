/**
 * The soak's sentences. Each is one piece for vendor_a's splitter (no clause break, one sentence end), and no
 * two have the same length: the simulated vendor logs a call's length but never its text, so the length is
 * how a vendor call, a take's id and a committed blob are traced back to their sentence. `from` skips the
 * first sentences, so pools of one vendor's surfaces (each its own) have no length in common.
 */
export function sentencePool(count: number, from = 0): string[] {
  return Array.from({ length: count }, (_, k) => {
    const i = from + k;
    return `Soak line ${i + 1} says ${'o'.repeat(i + 1)}k.`;
  });
}

/** Sentence by its length in code points (what the simulator's call log records as `chars`). */
export function byLength(pool: readonly string[]): Map<number, string> {
  const map = new Map<number, string>();
  for (const sentence of pool) {
    const length = Array.from(sentence).length;
    if (map.has(length)) throw new Error(`two sentences of the pool have ${length} characters`);
    map.set(length, sentence);
  }
  return map;
}
