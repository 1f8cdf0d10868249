import type { WordTiming } from '@router/contracts';

/**
 * Word timings from the vendor's word list: each word is found in the text after the one before it (its
 * UTF-16 offsets), its times turned from seconds into milliseconds. A word the text does not spell (the
 * vendor's normalization) keeps its time and takes the text up to the next whitespace.
 */
export class WordTrack {
  private readonly timings: WordTiming[] = [];
  private cursor = 0;

  constructor(private readonly text: string) {}

  add(stamps: unknown): void {
    if (typeof stamps !== 'object' || stamps === null) return;
    const { words, start, end } = stamps as { words?: unknown; start?: unknown; end?: unknown };
    if (!Array.isArray(words) || !Array.isArray(start) || !Array.isArray(end)) return;
    const count = Math.min(words.length, start.length, end.length);
    for (let i = 0; i < count; i++) {
      const word = String(words[i]);
      if (word.trim() === '') continue;
      const startMs = toMs(start[i]);
      const span = this.locate(word);
      if (!span) continue;
      this.timings.push({ ...span, startMs, endMs: Math.max(startMs, toMs(end[i])) });
    }
  }

  words(): WordTiming[] {
    return this.timings;
  }

  private locate(word: string): { start: number; end: number } | undefined {
    const found = this.text.indexOf(word, this.cursor);
    // The next spelled word, unless the vendor skipped text with letters or digits to reach it.
    if (found !== -1 && !/[\p{L}\p{N}]/u.test(this.text.slice(this.cursor, found))) {
      this.cursor = found + word.length;
      return { start: found, end: found + word.length };
    }
    const from = this.text.slice(this.cursor).search(/\S/u);
    if (from === -1) return undefined;
    const start = this.cursor + from;
    const rest = this.text.slice(start).search(/\s/u);
    const end = rest === -1 ? this.text.length : start + rest;
    this.cursor = end;
    return { start, end };
  }
}

function toMs(seconds: unknown): number {
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0
    ? Math.round(seconds * 1000)
    : 0;
}
