import { check, type Checker, type Infer } from './payload.checkers';
import { CheckFailure } from './payload-check.error';

function failure(checker: Checker<unknown>, value: unknown): string {
  try {
    checker(value, '');
  } catch (err) {
    if (err instanceof CheckFailure) return err.message;
    throw err;
  }
  throw new Error('expected the check to fail');
}

describe('payload checkers', () => {
  const order = check.object({
    id: check.string({ minLength: 1 }),
    kind: check.literal('a', 'b'),
    count: check.integer({ min: 0 }),
    note: check.optional(check.string()),
    parent: check.nullable(check.string()),
    lines: check.array(check.object({ sku: check.string(), qty: check.number({ min: 0 }) })),
  });

  it('returns the value with its declared fields only', () => {
    expect(
      order(
        { id: 'x', kind: 'a', count: 2, parent: null, lines: [{ sku: 's', qty: 1, extra: 1 }], extra: true },
        '',
      ),
    ).toEqual({ id: 'x', kind: 'a', count: 2, parent: null, lines: [{ sku: 's', qty: 1 }] });
  });

  it('names the failing field by its path and the type it got, never the value', () => {
    const valid = { id: 'x', kind: 'a', count: 2, parent: null, lines: [] };
    expect(
      failure(order, {
        ...valid,
        lines: [
          { sku: 's', qty: 1 },
          { sku: 3, qty: 1 },
        ],
      }),
    ).toBe('lines[1].sku must be a string (got number)');
    expect(failure(order, { ...valid, kind: 'secret sentence text' })).toBe(
      'kind must be one of "a"|"b" (got another string)',
    );
    expect(failure(order, { ...valid, count: 1.5 })).toBe('count must be an integer (got number)');
    expect(failure(order, { ...valid, count: -1 })).toBe('count must be >= 0 (got -1)');
    expect(failure(order, { ...valid, id: '' })).toBe('id must have at least 1 characters (got 0)');
    expect(failure(order, { ...valid, parent: undefined })).toBe('parent must be a string (got undefined)');
    expect(failure(order, [])).toBe('value must be an object (got array)');
    expect(failure(check.number(), Number.NaN)).toBe('value must be a number (got NaN)');
  });

  it('treats optional fields as absent when undefined and checks them when present', () => {
    const valid = { id: 'x', kind: 'b', count: 0, parent: 'p', lines: [] };
    expect(order(valid, '')).not.toHaveProperty('note');
    expect(failure(order, { ...valid, note: 5 })).toBe('note must be a string (got number)');
  });

  it('none() accepts only an absent payload; empty() any object, keeping nothing', () => {
    expect(check.none()(undefined, '')).toBeUndefined();
    expect(failure(check.none(), {})).toBe('value must be absent (got object)');
    expect(check.empty()({ a: 1 }, '')).toEqual({});
  });

  it('infers the TypeScript type of a composed checker', () => {
    type Order = Infer<typeof order>;
    const typed: Order = { id: 'x', kind: 'a', count: 1, parent: null, lines: [] };
    // @ts-expect-error kind is a closed set
    const wrong: Order = { ...typed, kind: 'c' };
    expect(wrong).toBeDefined();
  });
});
