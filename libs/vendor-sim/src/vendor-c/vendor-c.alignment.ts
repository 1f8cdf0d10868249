import type { CharTiming, Take, TakePiece } from '../kit/audio/take';

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

/** The characters whose speech starts within this piece (the last piece takes any left). */
export function charsInPiece(take: Take, piece: TakePiece): CharTiming[] {
  return take.characters.filter((c) => c.startMs >= piece.startMs && (piece.last || c.startMs < piece.endMs));
}
