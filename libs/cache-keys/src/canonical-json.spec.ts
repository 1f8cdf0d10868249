import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import type { JsonValue } from '@router/vendors-core';
import { CANONICAL_MAX_DEPTH, canonicalJson, canonicalValue } from './canonical-json';

describe('canonicalJson', () => {
  it('sorts keys at every depth and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [true, null], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[true,null]},"b":1}',
    );
  });

  it('writes 1 and 1.0 alike and -0 as 0', () => {
    expect(canonicalJson({ n: 1.0 })).toBe(canonicalJson({ n: 1 }));
    expect(canonicalJson(-0)).toBe('0');
    expect(canonicalJson([0.5, -0, 1e21])).toBe('[0.5,0,1e+21]');
  });

  it('keeps case, punctuation and whitespace inside strings, escaping lone surrogates', () => {
    expect(canonicalJson('Hi, there!')).not.toBe(canonicalJson('hi, there!'));
    expect(canonicalJson('a  b')).not.toBe(canonicalJson('a b'));
    expect(canonicalJson('\ud800')).toBe('"\\ud800"');
  });

  it('leaves out undefined properties like JSON.stringify', () => {
    const withUndefined = { a: 1, b: undefined } as unknown as JsonValue;
    expect(canonicalJson(withUndefined)).toBe('{"a":1}');
  });

  it('keeps a __proto__ key as data', () => {
    const parsed = JSON.parse('{"__proto__":{"x":1},"a":2}') as JsonValue;
    expect(canonicalJson(parsed)).toBe('{"__proto__":{"x":1},"a":2}');
    expect(canonicalJson(canonicalValue(parsed))).toBe('{"__proto__":{"x":1},"a":2}');
  });

  it.each([
    ['NaN', NaN],
    ['Infinity', Infinity],
    ['a Date', new Date(0)],
    ['a Buffer', Buffer.from('x')],
    ['a function', () => 1],
    ['a bigint', 1n],
    ['an array hole', new Array(2)],
    ['undefined in an array', [undefined]],
  ])('refuses %s', (_name, value) => {
    expect(() => canonicalJson(value as unknown as JsonValue)).toThrow(TypeError);
  });

  it('takes plain objects from another realm or without a prototype, but no class instance', () => {
    const foreign = runInNewContext('({ b: 1, a: [2] })') as JsonValue;
    expect(canonicalJson(foreign)).toBe('{"a":[2],"b":1}');
    expect(canonicalJson(Object.assign(Object.create(null) as object, { a: 1 }) as JsonValue)).toBe(
      '{"a":1}',
    );
    class Point {
      x = 1;
    }
    expect(() => canonicalJson(new Point() as unknown as JsonValue)).toThrow(TypeError);
  });

  it('refuses a cycle but not a shared subtree', () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic as JsonValue)).toThrow(/cyclic/);
  });

  it('writes nesting up to its bound and refuses deeper with a TypeError, never a stack overflow', () => {
    const nested = (levels: number) => JSON.parse(`${'['.repeat(levels)}${']'.repeat(levels)}`) as JsonValue;
    expect(canonicalJson(nested(CANONICAL_MAX_DEPTH))).toBe(JSON.stringify(nested(CANONICAL_MAX_DEPTH)));
    for (const levels of [CANONICAL_MAX_DEPTH + 1, 20_000]) {
      expect(() => canonicalJson(nested(levels))).toThrow(/^canonicalJson: nesting deeper than 64 levels$/);
      expect(() => canonicalValue({ x: nested(levels) })).toThrow(TypeError);
    }
  });

  it('never puts the value into its error message', () => {
    expect(() => canonicalJson({ secretSentence: NaN })).toThrow(
      /^canonicalJson: a non-finite number is not JSON$/,
    );
  });

  it('is a function of the value: equal to JSON.parse of itself, and the same for canonicalValue', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value as JsonValue);
        expect(canonicalJson(JSON.parse(text) as JsonValue)).toBe(text);
        expect(canonicalJson(canonicalValue(value as JsonValue))).toBe(text);
        // Same data as JSON.stringify, where JSON.stringify is lossless.
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it('does not depend on key insertion order', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (record) => {
        const reversed = Object.fromEntries(Object.entries(record).reverse());
        expect(canonicalJson(reversed as JsonValue)).toBe(canonicalJson(record as JsonValue));
      }),
    );
  });
});
