import type { JsonValue } from '@router/vendors-core';

/**
 * The deepest nesting of arrays and objects written. Client JSON is held to 32 levels before it reaches a key
 * (`JSON_MAX_DEPTH`, libs/service-kit), and a canonical request wraps it in a few more; the bound keeps this
 * recursive walk from ever running out of stack, whatever a caller forgot to check.
 */
export const CANONICAL_MAX_DEPTH = 64;

/**
 * A stable JSON text for a JSON value: object keys sorted (by UTF-16 code units, at every depth), no
 * whitespace, numbers in their shortest form (so `1` and `1.0` are one text, and `-0` is written `0`).
 * Properties whose value is `undefined` are left out, as JSON.stringify would. Anything that is not plain
 * JSON (a non-finite number, a class instance, a function, a cycle, a hole or `undefined` in an array)
 * throws a TypeError instead of being written in some lossy form, because two different inputs must
 * never give one text, and so does nesting deeper than `CANONICAL_MAX_DEPTH`. The error names the kind of
 * value only, never the value: it may be sentence text.
 */
export function canonicalJson(value: JsonValue): string {
  return write(value, new Set());
}

/**
 * A copy of a JSON value in canonical form: keys sorted, `-0` as `0`, `undefined` properties left out.
 * `canonicalJson(canonicalValue(v)) === canonicalJson(v)` for every JSON value.
 */
export function canonicalValue(value: JsonValue): JsonValue {
  return copy(value, new Set());
}

function write(value: unknown, open: Set<object>): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return JSON.stringify(finite(value));
    case 'object':
      return within(value, open, () => {
        if (Array.isArray(value))
          return `[${arrayItems(value)
            .map((item) => write(item, open))
            .join(',')}]`;
        const record = plainObject(value);
        const parts = definedKeys(record).map((key) => `${JSON.stringify(key)}:${write(record[key], open)}`);
        return `{${parts.join(',')}}`;
      });
    default:
      throw new TypeError(`canonicalJson: a ${typeof value} is not JSON`);
  }
}

function copy(value: unknown, open: Set<object>): JsonValue {
  if (value === null) return null;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      // `+ 0` turns -0 into 0 and leaves every other number as it is.
      return finite(value) + 0;
    case 'object':
      return within(value, open, () => {
        if (Array.isArray(value)) return arrayItems(value).map((item) => copy(item, open));
        const record = plainObject(value);
        // fromEntries defines own properties, so a `__proto__` key stays data instead of a prototype.
        return Object.fromEntries(definedKeys(record).map((key) => [key, copy(record[key], open)]));
      });
    default:
      throw new TypeError(`canonicalJson: a ${typeof value} is not JSON`);
  }
}

function finite(value: number): number {
  if (!Number.isFinite(value)) throw new TypeError('canonicalJson: a non-finite number is not JSON');
  return value;
}

/** `open` holds the arrays and objects being written, outermost first: its size is the current depth. */
function within<T>(value: object, open: Set<object>, body: () => T): T {
  if (open.has(value)) throw new TypeError('canonicalJson: a cyclic structure is not JSON');
  if (open.size >= CANONICAL_MAX_DEPTH) {
    throw new TypeError(`canonicalJson: nesting deeper than ${CANONICAL_MAX_DEPTH} levels`);
  }
  open.add(value);
  try {
    return body();
  } finally {
    open.delete(value);
  }
}

function arrayItems(array: readonly unknown[]): unknown[] {
  const items: unknown[] = [];
  for (let i = 0; i < array.length; i += 1) {
    if (!(i in array) || array[i] === undefined) {
      throw new TypeError('canonicalJson: an array hole or undefined item is not JSON');
    }
    items.push(array[i]);
  }
  return items;
}

function plainObject(value: object): Record<string, unknown> {
  // Any realm's Object.prototype (its own prototype is null) counts, so objects from a vm context or
  // structuredClone pass while dates, buffers and class instances do not.
  const proto = Object.getPrototypeOf(value) as object | null;
  if (proto !== null && Object.getPrototypeOf(proto) !== null) {
    throw new TypeError('canonicalJson: only plain objects are JSON objects');
  }
  return value as Record<string, unknown>;
}

function definedKeys(record: Record<string, unknown>): string[] {
  return Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort();
}
