/** When one character of a take is spoken, in milliseconds from the start of the take. */
export interface CharTiming {
  readonly char: string;
  readonly startMs: number;
  readonly endMs: number;
}

/** REST alignment: absolute seconds from the start of the take. */
export interface SecondsAlignment {
  characters: string[];
  character_start_times_seconds: number[];
  character_end_times_seconds: number[];
}

/** Socket alignment: camelCase, milliseconds relative to the start of that message's audio. */
export interface MsAlignment {
  chars: string[];
  charStartTimesMs: number[];
  charDurationsMs: number[];
}

const seconds = (ms: number): number => Math.round(ms) / 1000;

export function secondsAlignment(chars: readonly CharTiming[]): SecondsAlignment {
  return {
    characters: chars.map((c) => c.char),
    character_start_times_seconds: chars.map((c) => seconds(c.startMs)),
    character_end_times_seconds: chars.map((c) => seconds(c.endMs)),
  };
}

export function msAlignment(chars: readonly CharTiming[], pieceStartMs: number): MsAlignment {
  return {
    chars: chars.map((c) => c.char),
    charStartTimesMs: chars.map((c) => Math.max(0, Math.round(c.startMs - pieceStartMs))),
    charDurationsMs: chars.map((c) => Math.max(1, Math.round(c.endMs - c.startMs))),
  };
}

/**
 * Reads a REST alignment a client received: its characters with times in ms (the inverse of
 * `secondsAlignment`). Arrays of unequal length are read to the shortest; a time that is not a positive
 * number is 0. Undefined when the value is not an alignment.
 */
export function readSecondsAlignment(value: unknown): CharTiming[] | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const {
    characters,
    character_start_times_seconds: starts,
    character_end_times_seconds: ends,
  } = value as Partial<Record<keyof SecondsAlignment, unknown>>;
  if (!Array.isArray(characters) || !Array.isArray(starts) || !Array.isArray(ends)) return undefined;
  const count = Math.min(characters.length, starts.length, ends.length);
  return Array.from({ length: count }, (_, i) => ({
    char: String(characters[i]),
    startMs: toMs(starts[i]),
    endMs: toMs(ends[i]),
  }));
}

function toMs(seconds: unknown): number {
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0;
}
