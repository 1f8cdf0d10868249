import type { WordTiming } from '@router/contracts';
import { readSecondsAlignment } from './wire/vendor-c.alignment';

/** Which of the vendor's two alignments word timings follow (the `preferred_alignment` option). */
export type AlignmentKind = 'original' | 'normalized';

/** Languages whose timings follow the original text when `preferred_alignment` is left out (spec: Options). */
const ORIGINAL_BY_DEFAULT: ReadonlySet<string> = new Set(['ja', 'ko', 'zh']);

export function preferredAlignment(option: unknown, language: string | null): AlignmentKind {
  if (option === 'original' || option === 'normalized') return option;
  return language !== null && ORIGINAL_BY_DEFAULT.has(language) ? 'original' : 'normalized';
}

/** One alignment's characters with their times, in ms from the start of the take. */
export class CharacterTrack {
  readonly characters: string[] = [];
  readonly startsMs: number[] = [];
  readonly endsMs: number[] = [];
  private offsetMs = 0;
  private lastEndMs = 0;

  get length(): number {
    return this.characters.length;
  }

  /**
   * Appends one streamed object's alignment. The notes give absolute times; should a chunk's times start
   * over (relative to its own audio), they would run backwards, so they are moved past the track's end instead.
   */
  add(alignment: unknown): void {
    const chars = readSecondsAlignment(alignment);
    const first = chars?.[0];
    if (!chars || !first) return;
    if (this.length > 0 && first.startMs + this.offsetMs < this.lastEndMs - 1) this.offsetMs = this.lastEndMs;
    for (const { char, startMs, endMs } of chars) {
      const start = startMs + this.offsetMs;
      const end = Math.max(start, endMs + this.offsetMs);
      this.characters.push(char);
      this.startsMs.push(start);
      this.endsMs.push(end);
      this.lastEndMs = Math.max(this.lastEndMs, end);
    }
  }
}

/** A span of the text: `[start, end)` in UTF-16 offsets, what `text.slice` takes. */
interface Span {
  start: number;
  end: number;
}

/**
 * Word timings for `text` from the vendor's character alignments: each word of the text (by the language's
 * word segmenter) with its offsets into the text and the time its characters are spoken. The preferred
 * alignment is matched to the text character by character where it spells the text; where normalization
 * rewrote it (numbers, abbreviations), whitespace-separated groups are matched in order and times spread
 * over each group; failing both, the other alignment is tried, and last times are spread over the whole.
 */
export function wordTimings(
  text: string,
  tracks: Partial<Record<AlignmentKind, CharacterTrack>>,
  preferred: AlignmentKind,
  language: string | null,
): WordTiming[] {
  const words = wordSpans(text, language);
  const order = [preferred, preferred === 'original' ? 'normalized' : 'original']
    .map((kind) => tracks[kind as AlignmentKind])
    .filter((t): t is CharacterTrack => t !== undefined && t.length > 0);
  const first = order[0];
  if (words.length === 0 || !first) return [];
  for (const track of order) {
    const exact = exactTimings(text, words, track);
    if (exact) return exact;
    const grouped = groupTimings(text, words, track);
    if (grouped) return grouped;
  }
  return words.map((w) => spread(first, 0, first.length, w.start / text.length, w.end / text.length, w));
}

function wordSpans(text: string, language: string | null): Span[] {
  let segmenter: Intl.Segmenter;
  try {
    segmenter = new Intl.Segmenter(language ?? undefined, { granularity: 'word' });
  } catch {
    segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });
  }
  const spans: Span[] = [];
  for (const s of segmenter.segment(text)) {
    if (s.isWordLike) spans.push({ start: s.index, end: s.index + s.segment.length });
  }
  return spans;
}

/** The track spells the text (whitespace aside): each word takes its own characters' times. */
function exactTimings(text: string, words: readonly Span[], track: CharacterTrack): WordTiming[] | null {
  const entryAt = new Array<number>(text.length).fill(-1);
  let i = 0;
  let j = 0;
  while (i < text.length || j < track.length) {
    const entry = track.characters[j];
    if (entry !== undefined && entry !== '' && text.startsWith(entry, i)) {
      entryAt.fill(j, i, i + entry.length);
      i += entry.length;
      j++;
    } else if (entry !== undefined && entry.trim() === '') {
      j++;
    } else if (i < text.length && /\s/.test(text.charAt(i))) {
      i++;
    } else {
      return null;
    }
  }
  const timings: WordTiming[] = [];
  for (const word of words) {
    const entries = entryAt.slice(word.start, word.end).filter((e) => e >= 0);
    if (entries.length === 0) return null;
    timings.push(timing(word, track, Math.min(...entries), Math.max(...entries) + 1));
  }
  return timings;
}

/** Whitespace-separated groups of the text and of the track correspond one to one: times spread per group. */
function groupTimings(text: string, words: readonly Span[], track: CharacterTrack): WordTiming[] | null {
  const textGroups = [...text.matchAll(/\S+/gu)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
  const trackGroups: Span[] = [];
  track.characters.forEach((c, j) => {
    const last = trackGroups[trackGroups.length - 1];
    if (c.trim() === '') return;
    if (last && last.end === j) last.end = j + 1;
    else trackGroups.push({ start: j, end: j + 1 });
  });
  if (textGroups.length !== trackGroups.length) return null;
  return words.map((word) => {
    const g = textGroups.findIndex((group) => word.start >= group.start && word.start < group.end);
    const group = textGroups[g] ?? { start: 0, end: text.length };
    const entries = trackGroups[g] ?? { start: 0, end: track.length };
    const size = group.end - group.start;
    return spread(
      track,
      entries.start,
      entries.end,
      (word.start - group.start) / size,
      (word.end - group.start) / size,
      word,
    );
  });
}

/** The word's time from the part `[f0, f1)` of the track entries `[from, to)`. */
function spread(
  track: CharacterTrack,
  from: number,
  to: number,
  f0: number,
  f1: number,
  word: Span,
): WordTiming {
  const n = to - from;
  const a = Math.min(to - 1, from + Math.floor(f0 * n));
  const b = Math.max(a + 1, Math.min(to, from + Math.ceil(f1 * n)));
  return timing(word, track, a, b);
}

function timing(word: Span, track: CharacterTrack, from: number, to: number): WordTiming {
  const startMs = Math.round(Math.min(...track.startsMs.slice(from, to)));
  const endMs = Math.round(Math.max(...track.endsMs.slice(from, to)));
  return { start: word.start, end: word.end, startMs, endMs: Math.max(startMs, endMs) };
}

/**
 * Each character of `text` with the time the vendor speaks it, when the track spells the text character by
 * character (the original alignment does, unless the vendor rewrote the text); null otherwise. Offsets are
 * UTF-16, as `text.slice` takes them; the characters themselves are not kept (the text is never stored).
 */
export function characterTimings(text: string, track: CharacterTrack): WordTiming[] | null {
  const chars = [...text];
  if (chars.length !== track.length) return null;
  const timings: WordTiming[] = [];
  let offset = 0;
  for (const [i, char] of chars.entries()) {
    if (track.characters[i] !== char) return null;
    timings.push({
      start: offset,
      end: offset + char.length,
      startMs: track.startsMs[i] ?? 0,
      endMs: track.endsMs[i] ?? 0,
    });
    offset += char.length;
  }
  return timings;
}
