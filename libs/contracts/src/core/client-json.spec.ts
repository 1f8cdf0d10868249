import { JSON_MAX_DEPTH, jsonValueProblem } from './client-json';

/** `{"<field>": [[…]]}` with the top-level object at level 1 and `levels` levels in all. */
function nested(levels: number, field = 'field'): Record<string, unknown> {
  return JSON.parse(`{"${field}":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`) as Record<
    string,
    unknown
  >;
}

describe('jsonValueProblem: depth', () => {
  it('passes an object nested exactly to the limit, and scalars and empty values at any place', () => {
    expect(jsonValueProblem(nested(JSON_MAX_DEPTH))).toBeUndefined();
    expect(jsonValueProblem({ a: 1, b: null, c: 'x', d: [], e: {} })).toBeUndefined();
  });

  it('names the first field that nests one level past the limit, in arrays or objects', () => {
    expect(jsonValueProblem({ ok: [1], ...nested(JSON_MAX_DEPTH + 1, 'deep') })?.field).toBe('deep');
    const objects = (levels: number): Record<string, unknown> =>
      JSON.parse(`${'{"x":'.repeat(levels)}1${'}'.repeat(levels)}`) as Record<string, unknown>;
    expect(jsonValueProblem(objects(JSON_MAX_DEPTH))).toBeUndefined();
    expect(jsonValueProblem(objects(JSON_MAX_DEPTH + 1))?.field).toBe('x');
  });

  it('measures a value far deeper than the stack allows without overflowing it', () => {
    expect(jsonValueProblem(nested(100_000, 'x'))?.field).toBe('x');
  });
});

describe('jsonValueProblem: values', () => {
  it('finds nothing wrong with plain JSON of any kind within the limit', () => {
    for (const value of [null, 'text', 42, true, [], {}, nested(JSON_MAX_DEPTH), [[1, { a: [2] }]]]) {
      expect(jsonValueProblem(value)).toBeUndefined();
    }
  });

  it('names the field holding a number that overflowed to Infinity, at any depth', () => {
    expect(jsonValueProblem(JSON.parse('{"text":"hi","seed":1e400}'))).toEqual({
      field: 'seed',
      message: 'seed holds a number too large to represent (it must be finite)',
    });
    expect(jsonValueProblem(JSON.parse('{"a":{"b":[1,-1e999]}}'))?.field).toBe('a');
    expect(jsonValueProblem(JSON.parse('1e400'))).toEqual({
      field: undefined,
      message: 'the value holds a number too large to represent (it must be finite)',
    });
  });

  it('counts a top-level array as level 1, as a top-level object is', () => {
    const deep = (levels: number) => JSON.parse(`${'['.repeat(levels)}${']'.repeat(levels)}`) as unknown;
    expect(jsonValueProblem(deep(JSON_MAX_DEPTH))).toBeUndefined();
    expect(jsonValueProblem(deep(JSON_MAX_DEPTH + 1))?.message).toBe(
      `the value nests arrays and objects deeper than the limit of ${JSON_MAX_DEPTH} levels`,
    );
  });
});
