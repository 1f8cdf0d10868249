import { takeSeed } from './take-marker';

/**
 * A quiet tone whose pitch depends on the take, so two takes of the same text differ in every block. The
 * amplitude stays far below the marker's bytes (0x49..0x54 as a high byte), so a scan for markers cannot
 * mistake samples for one.
 */
export const TONE_AMPLITUDE = 2000;

export function toneSamples(count: number, sampleRate: number, takeId: string): Int16Array {
  const frequency = 180 + (takeSeed(takeId) % 64) * 5;
  const samples = new Int16Array(count);
  const step = (2 * Math.PI * frequency) / sampleRate;
  for (let i = 0; i < count; i++) samples[i] = Math.round(TONE_AMPLITUDE * Math.sin(step * i));
  return samples;
}

/** Samples for `durationMs` at `sampleRate`, rounded to the nearest whole sample. */
export function sampleCount(durationMs: number, sampleRate: number): number {
  return Math.max(1, Math.round((durationMs * sampleRate) / 1000));
}
