import { RouterError } from '@router/contracts';
import { JSON_MAX_DEPTH, jsonObjectOf } from './json-object';

/** `{"field": [[…]]}` with the top-level object at level 1 and `levels` levels in all. */
function nested(levels: number, field = 'field'): unknown {
  return JSON.parse(`{"${field}":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`);
}

function refusal(run: () => unknown): RouterError {
  try {
    run();
  } catch (error) {
    if (error instanceof RouterError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('jsonObjectOf', () => {
  it('returns an object within the limit as it is', () => {
    const value = nested(JSON_MAX_DEPTH);
    expect(jsonObjectOf(value, 'the body')).toBe(value);
    const mixed = { a: 1, b: 'text', c: null, d: [1, { e: [true] }] };
    expect(jsonObjectOf(mixed, 'the body')).toBe(mixed);
  });

  it.each([null, [], [{ a: 1 }], 'text', 42, true])('refuses %j: it must be a JSON object', (value) => {
    const error = refusal(() => jsonObjectOf(value, 'the body'));
    expect(error).toMatchObject({
      code: 'bad_request',
      status: 400,
      message: 'the body must be a JSON object',
    });
  });

  it('refuses one level past the limit, naming the field and the limit', () => {
    const error = refusal(() => jsonObjectOf(nested(JSON_MAX_DEPTH + 1, 'api_key'), 'the body', 422));
    expect(error).toMatchObject({
      code: 'bad_request',
      status: 422,
      message: `api_key nests arrays and objects deeper than the limit of ${JSON_MAX_DEPTH} levels`,
    });
  });

  it('names the deep field among shallow ones, through objects as well as arrays', () => {
    const deepObject = JSON.parse(
      `${'{"x":'.repeat(JSON_MAX_DEPTH)}1${'}'.repeat(JSON_MAX_DEPTH)}`,
    ) as object;
    const value = { shallow: [1, 2, { a: 3 }], deep: deepObject, after: 'x' };
    expect(refusal(() => jsonObjectOf(value, 'a message')).message).toMatch(/^deep nests/);
  });

  it('refuses a value nested 100,000 levels deep without running out of stack', () => {
    expect(refusal(() => jsonObjectOf(nested(100_000, 'api_key'), 'the body')).message).toContain('api_key');
  });
});

describe('jsonObjectOf and numbers', () => {
  it('jsonObjectOf refuses a non-finite number as bad_request naming the field', () => {
    expect(refusal(() => jsonObjectOf(JSON.parse('{"speed":1e400}'), 'the body'))).toMatchObject({
      code: 'bad_request',
      message: 'speed holds a number too large to represent (it must be finite)',
    });
  });
});
