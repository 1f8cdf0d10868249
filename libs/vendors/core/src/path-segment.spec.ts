import fc from 'fast-check';
import { decodePathSegment } from './path-segment';

describe('decodePathSegment', () => {
  it('decodes what decodeURIComponent decodes, to the same text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        const segment = encodeURIComponent(text);
        expect(decodePathSegment(segment)).toBe(decodeURIComponent(segment));
      }),
    );
  });

  it('keeps an escape that is not one, as the vendors read it, instead of throwing', () => {
    expect(() => decodeURIComponent('%ZZ')).toThrow(URIError);
    expect(decodePathSegment('%ZZ')).toBe('%ZZ');
    expect(decodePathSegment('a%')).toBe('a%');
    expect(decodePathSegment('%4')).toBe('%4');
    expect(decodePathSegment('%41%ZZ%42')).toBe('A%ZZB');
  });

  it('replaces a byte run that is not UTF-8 with U+FFFD', () => {
    expect(() => decodeURIComponent('%E0%A4')).toThrow(URIError);
    expect(decodePathSegment('%E0%A4')).toBe('\uFFFD');
    expect(decodePathSegment('v%FFx')).toBe('v\uFFFDx');
  });

  it('never throws, whatever the segment', () => {
    fc.assert(fc.property(fc.string(), (segment) => typeof decodePathSegment(segment) === 'string'));
  });
});
