import { CheckFailure, describeType } from './payload-check.error';

/**
 * Validates an unknown value and returns it typed (objects are rebuilt with their declared fields only), or
 * throws a CheckFailure naming the field. `path` is where the value sits in the message ('' for the root).
 */
export type Checker<T> = (value: unknown, path: string) => T;

/** A checker whose field may be absent from its object. */
export type OptionalChecker<T> = Checker<T | undefined> & { readonly optional: true };

export type Infer<C> = C extends Checker<infer T> ? T : never;

type Shape = Record<string, Checker<unknown>>;
type OptionalKeys<S extends Shape> = {
  [K in keyof S]: S[K] extends { readonly optional: true } ? K : never;
}[keyof S];
type RequiredKeys<S extends Shape> = Exclude<keyof S, OptionalKeys<S>>;
/** Flattens an intersection so editors show one object type. */
type Flatten<T> = { [K in keyof T]: T[K] } & {};
export type ObjectOf<S extends Shape> = Flatten<
  { [K in RequiredKeys<S>]: Infer<S[K]> } & { [K in OptionalKeys<S>]?: Exclude<Infer<S[K]>, undefined> }
>;

type Literal = string | number | boolean | null;

function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array)
  );
}

function string(opts: { minLength?: number; maxLength?: number; pattern?: RegExp } = {}): Checker<string> {
  return (value, path) => {
    if (typeof value !== 'string') throw new CheckFailure(path, 'must be a string', describeType(value));
    if (opts.minLength !== undefined && value.length < opts.minLength) {
      throw new CheckFailure(path, `must have at least ${opts.minLength} characters`, `${value.length}`);
    }
    if (opts.maxLength !== undefined && value.length > opts.maxLength) {
      throw new CheckFailure(path, `must have at most ${opts.maxLength} characters`, `${value.length}`);
    }
    if (opts.pattern && !opts.pattern.test(value)) {
      throw new CheckFailure(path, `must match ${String(opts.pattern)}`, 'a string that does not');
    }
    return value;
  };
}

function number(opts: { min?: number; max?: number; integer?: boolean } = {}): Checker<number> {
  const kind = opts.integer ? 'an integer' : 'a number';
  return (value, path) => {
    if (typeof value !== 'number' || !Number.isFinite(value) || (opts.integer && !Number.isInteger(value))) {
      throw new CheckFailure(path, `must be ${kind}`, describeType(value));
    }
    if (opts.min !== undefined && value < opts.min)
      throw new CheckFailure(path, `must be >= ${opts.min}`, `${value}`);
    if (opts.max !== undefined && value > opts.max)
      throw new CheckFailure(path, `must be <= ${opts.max}`, `${value}`);
    return value;
  };
}

function boolean(): Checker<boolean> {
  return (value, path) => {
    if (typeof value !== 'boolean') throw new CheckFailure(path, 'must be a boolean', describeType(value));
    return value;
  };
}

function literal<const V extends readonly [Literal, ...Literal[]]>(...values: V): Checker<V[number]> {
  const allowed = new Set<unknown>(values);
  const expected = `must be one of ${values.map((v) => JSON.stringify(v)).join('|')}`;
  return (value, path) => {
    if (!allowed.has(value)) {
      // Naming only the type keeps free text out of error messages.
      throw new CheckFailure(
        path,
        expected,
        typeof value === 'string' ? 'another string' : describeType(value),
      );
    }
    return value as V[number];
  };
}

function optional<T>(inner: Checker<T>): OptionalChecker<T> {
  const checker: Checker<T | undefined> = (value, path) =>
    value === undefined ? undefined : inner(value, path);
  return Object.assign(checker, { optional: true as const });
}

function nullable<T>(inner: Checker<T>): Checker<T | null> {
  return (value, path) => (value === null ? null : inner(value, path));
}

/** Unknown fields are dropped, so a newer sender may add optional fields without breaking older receivers. */
function object<S extends Shape>(shape: S): Checker<ObjectOf<S>> {
  const entries = Object.entries(shape);
  return (value, path) => {
    if (!isPlainObject(value)) throw new CheckFailure(path, 'must be an object', describeType(value));
    const out: Record<string, unknown> = {};
    for (const [key, checker] of entries) {
      const field = checker(value[key], join(path, key));
      if (field !== undefined) out[key] = field;
    }
    return out as ObjectOf<S>;
  };
}

function array<T>(item: Checker<T>, opts: { maxLength?: number } = {}): Checker<T[]> {
  return (value, path) => {
    if (!Array.isArray(value)) throw new CheckFailure(path, 'must be an array', describeType(value));
    if (opts.maxLength !== undefined && value.length > opts.maxLength) {
      throw new CheckFailure(path, `must have at most ${opts.maxLength} items`, `${value.length}`);
    }
    return value.map((v, i) => item(v, join(path, i)));
  };
}

function record<T>(item: Checker<T>): Checker<Record<string, T>> {
  return (value, path) => {
    if (!isPlainObject(value)) throw new CheckFailure(path, 'must be an object', describeType(value));
    const out: Record<string, T> = {};
    for (const [key, v] of Object.entries(value)) out[key] = item(v, join(path, key));
    return out;
  };
}

/** An object with no fields: `{}` (any fields sent are dropped). */
function empty(): Checker<Record<string, never>> {
  return object({});
}

/** No payload at all, e.g. a stream without a trailer. */
function none(): Checker<undefined> {
  return (value, path) => {
    if (value !== undefined && value !== null)
      throw new CheckFailure(path, 'must be absent', describeType(value));
    return undefined;
  };
}

/** Anything JSON carries, unchecked; for fields another layer validates. */
function unknownValue(): Checker<unknown> {
  return (value) => value;
}

/** The checker helpers; compose them into one checker per message. */
export const check = {
  string,
  number,
  integer: (opts: { min?: number; max?: number } = {}) => number({ ...opts, integer: true }),
  boolean,
  literal,
  optional,
  nullable,
  object,
  array,
  record,
  empty,
  none,
  unknown: unknownValue,
};
