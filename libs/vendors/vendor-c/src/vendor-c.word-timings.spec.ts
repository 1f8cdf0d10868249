import { CharacterTrack, characterTimings, preferredAlignment, wordTimings } from './vendor-c.word-timings';

/** A track where every character takes 100 ms, optionally in chunks with their own time base. */
function track(
  text: string,
  chunkSizes: number[] = [Array.from(text).length],
  relative = false,
): CharacterTrack {
  const chars = Array.from(text);
  const t = new CharacterTrack();
  let at = 0;
  for (const size of chunkSizes) {
    const part = chars.slice(at, at + size);
    const base = relative ? at : 0;
    t.add({
      characters: part,
      character_start_times_seconds: part.map((_, i) => (at + i - base) * 0.1),
      character_end_times_seconds: part.map((_, i) => (at + i + 1 - base) * 0.1),
    });
    at += size;
  }
  return t;
}

const spans = (text: string, words: { start: number; end: number }[]) =>
  words.map((w) => text.slice(w.start, w.end));

describe('preferredAlignment', () => {
  it('takes the option, else original for ja, ko and zh, else normalized', () => {
    expect(preferredAlignment('original', 'en')).toBe('original');
    expect(preferredAlignment(undefined, 'ja')).toBe('original');
    expect(preferredAlignment(undefined, 'en')).toBe('normalized');
    expect(preferredAlignment(undefined, null)).toBe('normalized');
  });
});

describe('wordTimings', () => {
  it('gives each word of the text its characters’ times, punctuation left out', () => {
    const text = 'Hi, you there!';
    const words = wordTimings(text, { normalized: track(text) }, 'normalized', 'en');
    expect(words).toEqual([
      { start: 0, end: 2, startMs: 0, endMs: 200 },
      { start: 4, end: 7, startMs: 400, endMs: 700 },
      { start: 8, end: 13, startMs: 800, endMs: 1300 },
    ]);
  });

  it('joins streamed chunks, also where each chunk counts its times from its own start', () => {
    const text = 'one two three four';
    const absolute = wordTimings(text, { original: track(text, [5, 6, 7]) }, 'original', 'en');
    const relative = wordTimings(text, { original: track(text, [5, 6, 7], true) }, 'original', 'en');
    expect(relative).toEqual(absolute);
    expect(absolute.at(-1)).toEqual({ start: 14, end: 18, startMs: 1400, endMs: 1800 });
  });

  it('tolerates whitespace the alignment adds or drops', () => {
    const text = 'Hello  world';
    const words = wordTimings(text, { original: track(' Hello world ') }, 'original', 'en');
    expect(spans(text, words)).toEqual(['Hello', 'world']);
    expect(words[1]).toMatchObject({ startMs: 700, endMs: 1200 });
  });

  it('maps a normalized alignment that rewrote a word onto the text group by group', () => {
    const text = 'Dr. Ray paid 5 dollars';
    const words = wordTimings(
      text,
      { normalized: track('Doctor Ray paid five dollars') },
      'normalized',
      'en',
    );
    expect(spans(text, words)).toEqual(['Dr', 'Ray', 'paid', '5', 'dollars']);
    expect(words[1]).toMatchObject({ startMs: 700, endMs: 1000 });
    expect(words[3]).toMatchObject({ startMs: 1600, endMs: 2000 });
  });

  it('falls back to the other alignment, then spreads times over the whole take', () => {
    const text = 'It costs 1,250 now';
    const normalized = track('It costs one thousand two hundred fifty now');
    const withOriginal = wordTimings(text, { normalized, original: track(text) }, 'normalized', 'en');
    expect(withOriginal.map((w) => w.startMs)).toEqual([0, 300, 900, 1500]);
    const alone = wordTimings(text, { normalized }, 'normalized', 'en');
    expect(spans(text, alone)).toEqual(['It', 'costs', '1,250', 'now']);
    const starts = alone.map((w) => w.startMs);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(alone.at(-1)?.endMs).toBe(4300);
  });

  it('segments words of a language written without spaces', () => {
    const text = '今日は良い天気です。';
    const words = wordTimings(text, { original: track(text) }, 'original', 'ja');
    expect(words.length).toBeGreaterThan(1);
    expect(spans(text, words).join('')).toBe('今日は良い天気です');
  });

  it('keeps UTF-16 offsets right around characters outside the BMP', () => {
    const text = 'go 😀 now';
    const words = wordTimings(text, { original: track(text) }, 'original', 'en');
    expect(spans(text, words)).toEqual(['go', 'now']);
    expect(words[1]).toMatchObject({ start: 6, end: 9, startMs: 500, endMs: 800 });
  });

  it('gives no words without an alignment', () => {
    expect(wordTimings('Hello', {}, 'normalized', 'en')).toEqual([]);
  });
});

describe('characterTimings', () => {
  it("times each character of the text by the vendor's alignment, with UTF-16 offsets", () => {
    const text = 'Hé 😀!';
    const timings = characterTimings(text, track(text, [2, 3]));
    expect(
      timings?.map((c) => [text.slice(c.start, c.end), Math.round(c.startMs), Math.round(c.endMs)]),
    ).toEqual([
      ['H', 0, 100],
      ['é', 100, 200],
      [' ', 200, 300],
      ['😀', 300, 400],
      ['!', 400, 500],
    ]);
  });

  it('gives none when the alignment does not spell the text (the vendor rewrote it)', () => {
    expect(characterTimings('It costs 5.', track('It costs five.'))).toBeNull();
    expect(characterTimings('Hello.', track('Hellp.'))).toBeNull();
  });
});
