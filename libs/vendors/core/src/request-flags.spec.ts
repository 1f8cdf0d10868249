import { flagIsSet, flagSpelling, queryFlag, readFlag } from './request-flags';

describe('request flags: a boolean as the vendors read one', () => {
  it.each([true, 'true', 'True', 'TRUE', 'tRuE', 1, '1'])('reads %p as true', (value) => {
    expect(readFlag(value)).toBe(true);
    expect(flagIsSet(value)).toBe(true);
  });

  it.each([false, 'false', 'False', 'FALSE', 0, '0'])('reads %p as false', (value) => {
    expect(readFlag(value)).toBe(false);
    expect(flagIsSet(value)).toBe(false);
  });

  it.each([
    undefined,
    null,
    '',
    'yes',
    'on',
    't',
    ' true',
    'true ',
    '01',
    2,
    -1,
    0.5,
    'null',
    [],
    {},
    [true],
  ])('reads %p as no boolean, and as a flag that is not set', (value) => {
    expect(readFlag(value)).toBeUndefined();
    expect(flagIsSet(value)).toBe(false);
  });

  it("reads a query parameter's flag, its absence as the caller's, and a value that is no boolean as undefined", () => {
    const query = new URLSearchParams('a=True&b=0&c=maybe&d=');
    expect(queryFlag(query, 'a', null)).toBe(true);
    expect(queryFlag(query, 'b', null)).toBe(false);
    expect(queryFlag(query, 'c', null)).toBeUndefined();
    expect(queryFlag(query, 'd', null)).toBeUndefined();
    expect(queryFlag(query, 'missing', null)).toBeNull();
    expect(queryFlag(query, 'missing', false)).toBe(false);
  });

  it('spells every boolean as true or false for a key, and leaves any other value as it was', () => {
    expect(['True', '1', 'TRUE', 'true'].map(flagSpelling)).toEqual(['true', 'true', 'true', 'true']);
    expect(['False', '0', 'false'].map(flagSpelling)).toEqual(['false', 'false', 'false']);
    expect(['maybe', '', '2'].map(flagSpelling)).toEqual(['maybe', '', '2']);
  });
});
