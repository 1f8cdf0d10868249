import { fieldNestedTooDeep, JSON_MAX_DEPTH } from './json-depth';

/** `{"<field>": [[…]]}` with the top-level object at level 1 and `levels` levels in all. */
function nested(levels: number, field = 'field'): Record<string, unknown> {
  return JSON.parse(`{"${field}":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`) as Record<
    string,
    unknown
  >;
}

describe('fieldNestedTooDeep', () => {
  it('passes an object nested exactly to the limit, and scalars and empty values at any place', () => {
    expect(fieldNestedTooDeep(nested(JSON_MAX_DEPTH))).toBeUndefined();
    expect(fieldNestedTooDeep({ a: 1, b: null, c: 'x', d: [], e: {} })).toBeUndefined();
  });

  it('names the first field that nests one level past the limit, in arrays or objects', () => {
    expect(fieldNestedTooDeep({ ok: [1], ...nested(JSON_MAX_DEPTH + 1, 'deep') })).toBe('deep');
    const objects = (levels: number): Record<string, unknown> =>
      JSON.parse(`${'{"x":'.repeat(levels)}1${'}'.repeat(levels)}`) as Record<string, unknown>;
    expect(fieldNestedTooDeep(objects(JSON_MAX_DEPTH))).toBeUndefined();
    expect(fieldNestedTooDeep(objects(JSON_MAX_DEPTH + 1))).toBe('x');
  });

  it('measures a value far deeper than the stack allows without overflowing it', () => {
    expect(fieldNestedTooDeep(nested(100_000, 'x'))).toBe('x');
  });
});
