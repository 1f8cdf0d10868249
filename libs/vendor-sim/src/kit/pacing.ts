/** How fast a simulated vendor answers. */
export interface Pacing {
  /** Wait before the first audio (or before a one-shot body). */
  readonly ttfaMs: number;
  /** 1 = audio arrives at playback speed, 0 = as fast as the socket takes it, 2 = half speed. */
  readonly factor: number;
  /** Audio per streamed piece (a piece is cut at a frame or 20 ms block boundary). */
  readonly chunkMs: number;
}

export const DEFAULT_PACING: Pacing = { ttfaMs: 5, factor: 0, chunkMs: 100 };

/** Checks a partial pacing object from a control request; returns an error message or null. */
export function pacingProblem(value: Partial<Record<keyof Pacing, unknown>>): string | null {
  for (const [name, v] of Object.entries(value)) {
    if (!['ttfaMs', 'factor', 'chunkMs'].includes(name)) return `unknown pacing field ${name}`;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) return `${name} must be a number >= 0`;
  }
  if (value.chunkMs === 0) return 'chunkMs must be > 0';
  return null;
}
