import { createIncrementalSplitter, splitText } from './piece.splitter';
import type { IncrementalSplitter, Splitter } from './text.types';

/** No vendor input limit: outside the limit's own tests, pieces end only at sentence and clause ends. */
const NO_LIMIT = Number.POSITIVE_INFINITY;

/** Pushes each delta and records what every push released. */
function releases(splitter: IncrementalSplitter, deltas: readonly string[]): string[][] {
  return deltas.map((delta) => splitter.push(delta));
}

function feed(text: string, kind: Splitter, chunkSize: number): string[] {
  const splitter = createIncrementalSplitter(kind, NO_LIMIT);
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += chunkSize)
    pieces.push(...splitter.push(text.slice(i, i + chunkSize)));
  pieces.push(...splitter.flush());
  return pieces;
}

const withoutWhitespace = (text: string): string => text.replace(/\p{White_Space}/gu, '');

describe('createIncrementalSplitter', () => {
  it('releases the first piece of a reply at its first clause end', () => {
    const splitter = createIncrementalSplitter('router', NO_LIMIT);
    expect(releases(splitter, ['Thank you for calling', ' Acme support,', ' how', ' can I help?'])).toEqual([
      [],
      [],
      ['Thank you for calling Acme support,'],
      [],
    ]);
    expect(splitter.flush()).toEqual(['how can I help?']);
  });

  it('releases a sentence at the whitespace after its full stop, without waiting for more text', () => {
    const splitter = createIncrementalSplitter('router', NO_LIMIT);
    expect(releases(splitter, ['Your order has shipped.', ' '])).toEqual([[], ['Your order has shipped.']]);
    expect(releases(splitter, ['Please ask Dr.', ' ', 'Rao.', ' ', 'He', ' knows.'])).toEqual([
      [],
      [],
      [],
      ['Please ask Dr. Rao.'],
      [],
      [],
    ]);
    expect(splitter.flush()).toEqual(['He knows.']);
  });

  it.each<[string, readonly string[], string]>([
    ['a title', ['Please ask Dr. ', 'Smith now. '], 'Please ask Dr. Smith now.'],
    ['a time, before a lowercase word', ['Meet at 10 a.m. ', 'the latest. '], 'Meet at 10 a.m. the latest.'],
    ['a decimal', ['It costs 3.', '5 dollars. '], 'It costs 3.5 dollars.'],
    [
      'a URL',
      ['Open https://example.com/docs.', 'html today. '],
      'Open https://example.com/docs.html today.',
    ],
    ['an abbreviation before a number', ['It is No. ', '5 on the list. '], 'It is No. 5 on the list.'],
  ])('holds a full stop after %s: no release until the text settles it', (_what, deltas, sentence) => {
    const splitter = createIncrementalSplitter('router', NO_LIMIT);
    expect(releases(splitter, deltas)).toEqual([[], [sentence]]);
  });

  it('lets the next word settle an abbreviation that may end a sentence', () => {
    const splitter = createIncrementalSplitter('router', NO_LIMIT);
    expect(releases(splitter, ['It opens at 9 a.m. ', 'It closes at 5. '])).toEqual([
      [],
      ['It opens at 9 a.m.', 'It closes at 5.'],
    ]);
  });

  it('releases a question as soon as whitespace follows it', () => {
    const splitter = createIncrementalSplitter('router', NO_LIMIT);
    expect(releases(splitter, ['Really?', '!', ' ', 'Yes'])).toEqual([[], [], ['Really?!'], []]);
  });

  it('releases a danda sentence once the character after it arrives', () => {
    const splitter = createIncrementalSplitter('router', NO_LIMIT);
    expect(releases(splitter, ['नमस्ते।', 'आप'])).toEqual([[], ['नमस्ते।']]);
  });

  it('releases a sentence at a line break without waiting', () => {
    const splitter = createIncrementalSplitter('router', NO_LIMIT);
    expect(releases(splitter, ['Steps:\n', '1. Open'])).toEqual([['Steps:'], []]);
  });

  it('waits for the character after a comma before cutting a clause', () => {
    const splitter = createIncrementalSplitter('router', NO_LIMIT);
    expect(releases(splitter, ['We sold it for 1,', '250 dollars,', '250', ', ', 'and'])).toEqual([
      [],
      [],
      [],
      ['We sold it for 1,250 dollars,250,'],
      [],
    ]);
  });

  it('lets the standard tokenizer decide only once the deciding text arrived', () => {
    const splitter = createIncrementalSplitter('standard', NO_LIMIT);
    expect(releases(splitter, ['Buy etc.', ' 5', ' apples.', ' Now'])).toEqual([
      [],
      [],
      [],
      ['Buy etc. 5 apples.'],
    ]);
    expect(splitter.flush()).toEqual(['Now']);

    const early = createIncrementalSplitter('standard', NO_LIMIT);
    expect(releases(early, ['Dr.', ' ', 'S'])).toEqual([[], [], ['Dr.']]);
  });

  it('does not decide on half of a surrogate pair', () => {
    const emoji = '😀';
    const splitter = createIncrementalSplitter('router', NO_LIMIT);
    const text = `${emoji.repeat(19)}, ok`;
    const pieces = [
      ...splitter.push(text.slice(0, 37)),
      ...splitter.push(text.slice(37)),
      ...splitter.flush(),
    ];
    expect(pieces).toEqual([`${emoji.repeat(19)},`, 'ok']);
  });

  it('is empty after flush and can split a new text', () => {
    const splitter = createIncrementalSplitter('router', NO_LIMIT);
    expect(splitter.push('Hello there')).toEqual([]);
    expect(splitter.flush()).toEqual(['Hello there']);
    expect(splitter.flush()).toEqual([]);
    expect(splitter.push('Next one')).toEqual([]);
    expect(splitter.flush()).toEqual(['Next one']);
  });

  it('ignores empty deltas and never releases an empty piece', () => {
    const splitter = createIncrementalSplitter('standard', NO_LIMIT);
    expect(splitter.push('')).toEqual([]);
    expect(splitter.push('   \n\n  ')).toEqual([]);
    expect(splitter.flush()).toEqual([]);
  });
});

describe('splitText', () => {
  it.each<Splitter>(['router', 'standard'])('returns nothing for blank text (%s)', (kind) => {
    expect(splitText('', kind, NO_LIMIT)).toEqual([]);
    expect(splitText(' \t\n ', kind, NO_LIMIT)).toEqual([]);
  });

  it.each<Splitter>(['router', 'standard'])('collapses whitespace inside pieces (%s)', (kind) => {
    expect(splitText('  Hello \t  there   friend  ', kind, NO_LIMIT)).toEqual(['Hello there friend']);
  });
});

describe('20,000-character inputs', () => {
  const paragraph =
    'Dr. Smith arrived at 10 a.m. and paid $1,250.50 for it. Visit https://example.com/a.b?c=d, or mail ' +
    'help@example.com. Wait... what?! मैं ठीक हूँ। আমি ভালো আছি। 今日は晴れです。 We sold 12,50,000 units, ' +
    'which is a record for the year, and more. 1. Open the app. 2. Sign in.\n';
  const text = paragraph.repeat(Math.ceil(20000 / paragraph.length));

  it.each<Splitter>(['router', 'standard'])(
    'splits many sentences the same whole or delta by delta (%s)',
    (kind) => {
      expect(text.length).toBeGreaterThanOrEqual(20000);
      const whole = splitText(text, kind, NO_LIMIT);
      const onePerDelta = splitText(paragraph, kind, NO_LIMIT);
      expect(whole).toEqual(Array.from({ length: text.length / paragraph.length }, () => onePerDelta).flat());
      expect(feed(text, kind, 1)).toEqual(whole);
      expect(feed(text, kind, 7)).toEqual(whole);
      expect(withoutWhitespace(whole.join(''))).toBe(withoutWhitespace(text));
    },
  );

  it.each<Splitter>(['router', 'standard'])('keeps one long sentence whole (%s)', (kind) => {
    const sentence = `${'word and 3.14 and e.g. more '.repeat(20000 / 28 + 1)}end`.replace(
      /e\.g\. /g,
      'e.g.x ',
    );
    expect(feed(sentence, kind, 1)).toEqual([sentence.replace(/\s+/g, ' ').trim()]);
    expect(splitText(sentence, kind, NO_LIMIT)).toEqual([sentence.replace(/\s+/g, ' ').trim()]);
  });

  it.each<Splitter>(['router', 'standard'])('copes with long runs after a terminator (%s)', (kind) => {
    const spaces = `Go etc.${' '.repeat(20000)}now`;
    expect(feed(spaces, kind, 1)).toEqual(['Go etc. now']);
    const dots = `Hmm${'.'.repeat(20000)} ok`;
    expect(feed(dots, kind, 1)).toEqual(splitText(dots, kind, NO_LIMIT));
    const digits = `Go etc. ${'5 '.repeat(10000)}apples`;
    expect(feed(digits, kind, 3)).toEqual(splitText(digits, kind, NO_LIMIT));
    expect(splitText(digits, kind, NO_LIMIT)).toHaveLength(1);
  });

  it('splits 20,000 characters of short clauses into pieces of at least 20 characters', () => {
    const clauses = 'one two three four five, '.repeat(800);
    const pieces = feed(clauses, 'router', 5);
    expect(pieces).toHaveLength(800);
    expect(pieces.every((piece) => piece === 'one two three four five,')).toBe(true);
  });
});
