import { assertValidBlobName, assertValidBlobPrefix } from './blob-name';
import { InvalidBlobNameError } from './blob-store.errors';

describe('assertValidBlobName', () => {
  it.each(['a', 'org-1/ab12.mp3', 'A_b-c.d/e/f', '0', 'x'.repeat(255), `${'a/'.repeat(300)}z`])(
    'accepts %s',
    (name) => {
      expect(() => assertValidBlobName(name)).not.toThrow();
    },
  );

  it.each([
    ['empty', ''],
    ['leading slash', '/a'],
    ['trailing slash', 'a/'],
    ['double slash', 'a//b'],
    ['dot segment', 'a/./b'],
    ['parent segment', 'a/../b'],
    ['hidden segment', 'a/.tmp/b'],
    ['space', 'a b'],
    ['plus', 'a+b'],
    ['percent', 'a%20'],
    ['backslash', 'a\\b'],
    ['non-ASCII', 'caf\u00e9'],
    ['over-long segment', 'x'.repeat(256)],
    ['over-long name', 'ab/'.repeat(400)],
  ])('refuses %s', (_label, name) => {
    expect(() => assertValidBlobName(name)).toThrow(InvalidBlobNameError);
  });

  it('cuts the name in its message', () => {
    expect(() => assertValidBlobName(`${'y'.repeat(300)} `)).toThrow(/^invalid blob name "y{80}"/);
  });
});

describe('assertValidBlobPrefix', () => {
  it.each(['', 'org', 'org/', 'org/ab', 'a/b.'])('accepts %s', (prefix) => {
    expect(() => assertValidBlobPrefix(prefix)).not.toThrow();
  });

  it.each(['a b', 'a+', '%', 'x'.repeat(1025)])('refuses %s', (prefix) => {
    expect(() => assertValidBlobPrefix(prefix)).toThrow(InvalidBlobNameError);
  });
});
