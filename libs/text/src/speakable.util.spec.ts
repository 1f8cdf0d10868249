import { splitText } from './piece.splitter';
import { isSpeakable } from './speakable.util';
import type { UnspeakableRule } from './text.types';

describe('isSpeakable', () => {
  const cases: ReadonlyArray<readonly [piece: string, rule: UnspeakableRule, speakable: boolean]> = [
    ['Hello.', 'no-letter-or-digit', true],
    ['42', 'no-letter-or-digit', true],
    ['४२', 'no-letter-or-digit', true],
    ['नमस्ते।', 'no-letter-or-digit', true],
    ['...', 'no-letter-or-digit', false],
    ['?!', 'no-letter-or-digit', false],
    ['$ %', 'no-letter-or-digit', false],
    ['😀', 'no-letter-or-digit', false],
    [':)', 'no-letter-or-digit', false],
    ['।', 'no-letter-or-digit', false],
    ['', 'no-letter-or-digit', false],
    ['Hello.', 'punctuation-only', true],
    ['...', 'punctuation-only', false],
    ['?! — «»', 'punctuation-only', false],
    ['।॥', 'punctuation-only', false],
    ['$', 'punctuation-only', true],
    ['😀', 'punctuation-only', true],
    ['', 'punctuation-only', false],
    ['...', null, true],
    ['😀', null, true],
    ['', null, false],
    ['  ', null, false],
  ];

  it.each(cases)('%j under %s -> %s', (piece, rule, speakable) => {
    expect(isSpeakable(piece, rule)).toBe(speakable);
  });

  it('lets vendor_a skip a trailing run with no letter or digit, which the splitter makes a piece of its own', () => {
    const pieces = splitText('Thanks for waiting. :) ...', 'router', Number.POSITIVE_INFINITY);
    expect(pieces).toEqual(['Thanks for waiting.', ':) ...']);
    expect(pieces.map((piece) => isSpeakable(piece, 'no-letter-or-digit'))).toEqual([true, false]);
  });
});
