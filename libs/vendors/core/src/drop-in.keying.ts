import type { JsonValue } from './catalogue.types';
import { findOption, optionRule } from './catalogue.queries';
import type { DropInKeying, DropInRequest } from './drop-in.types';
import { isPlainObject } from './settings.values';
import type { VendorDefinition } from './vendor-definition.types';

/*
 * The canonical form of a whole drop-in request (`DropInKeying.canonical`), from a declaration of how the vendor
 * reads it: which body fields and query parameters it fills with a default when they are left out, which it
 * reads as left out when null, which spellings of a value or a name it reads alike. Two requests the vendor
 * reads alike get one form; anything not declared (text, unknown fields, unknown parameters) is kept verbatim,
 * so two requests that differ in anything the vendor reads never share one. Declare only equalities the vendor
 * really has: merging a spelling it refuses with one it takes would replay an answer where it would refuse.
 */

/**
 * How a default the vendor fills is keyed: `filled` (a request that leaves it out is keyed with it spelled out)
 * or `omitted` (a request that spells it out is keyed as one that leaves it out). Both give the two requests one
 * key; `omitted` adds a default to a wire without changing the keys of the requests that leave it out.
 */
export type DefaultKeying = 'filled' | 'omitted';

/** How the vendor reads one body field (a JSON value), for the key. */
export interface BodyFieldRule {
  /** The value the vendor takes when the field is left out, as the key spells it. */
  readonly default?: JsonValue;
  /** How `default` is keyed; `filled` unless said. */
  readonly keyDefault?: DefaultKeying;
  /** The vendor reads `null` as the field left out (its default, if it has one). */
  readonly nullIsAbsent?: boolean;
  /** Other names the vendor reads as this field (a protobuf JSON field's proto name beside its JSON name). */
  readonly aliases?: readonly string[];
  /**
   * The value as the vendor means it: each spelling it reads alike becomes one (`numberFromString`). A value it
   * cannot read comes back as it was (the vendor refuses it; its spelling stays its own).
   */
  readonly read?: (value: JsonValue) => JsonValue;
  /** The fields of an object value, read by the same rules (the others kept verbatim). */
  readonly fields?: BodyFields;
  /** An object value with no field left (its nulls read as left out) is the field left out. */
  readonly emptyIsAbsent?: boolean;
  /** The rule of each item of an array value (its `fields` and `read`; an item is never left out). */
  readonly items?: BodyFieldRule;
}

export type BodyFields = Readonly<Record<string, BodyFieldRule>>;

/** How the vendor reads one query parameter, for the key. */
export interface QueryParameterRule {
  /** The value the vendor takes when the parameter is left out, as the key spells it. */
  readonly default?: string;
  /** How `default` is keyed; `filled` unless said. */
  readonly keyDefault?: DefaultKeying;
  /** Other names the vendor reads as this parameter. */
  readonly aliases?: readonly string[];
  /** The value as the vendor means it (`1` and `true` for a flag it reads both ways); unread values unchanged. */
  readonly read?: (value: string) => string;
}

/** How the vendor reads a request of one endpoint: its query parameters, its JSON body's fields. */
export interface RequestShape {
  readonly query?: Readonly<Record<string, QueryParameterRule>>;
  readonly body?: BodyFields;
  /**
   * How the vendor matches the names of fields and parameters: `exact` (the default) or `any-case` (a server
   * that matches them whatever their case, such as Go's JSON decoder). Header names need no rule: HTTP reads
   * them in any case, and a `DropInRequest` has them lower-case.
   */
  readonly names?: 'exact' | 'any-case';
}

export type CanonicalRequest = Extract<DropInKeying, { cacheable: true }>['canonical'];

/**
 * The canonical form of a request with a JSON object body: method and path as sent, the query and the body
 * by `shape` (see `canonicalQuery`, `canonicalBody`).
 */
export function canonicalRequest(
  request: DropInRequest,
  shape: RequestShape,
  body: Readonly<Record<string, JsonValue>>,
): CanonicalRequest {
  return {
    method: request.method,
    path: request.path,
    query: canonicalQuery(request.query, shape.query ?? {}, shape.names),
    body: canonicalBody(body, shape.body ?? {}, shape.names),
  };
}

/**
 * A query string as the vendor reads it, each parameter's values in the order sent: a declared parameter sent
 * once under one of its names is keyed under its own name with its value read; left out, with its default.
 * A parameter sent more than once, or under more than one of its names, is kept as sent: which the vendor
 * takes is its own business, so the key keeps them all. Every other parameter is kept as sent.
 */
export function canonicalQuery(
  query: string,
  rules: Readonly<Record<string, QueryParameterRule>>,
  names: RequestShape['names'] = 'exact',
): Record<string, string[]> {
  const sent = new Map<string, string[]>();
  for (const [name, value] of new URLSearchParams(query)) sent.set(name, [...(sent.get(name) ?? []), value]);
  const match = nameMatcher(rules, names);
  const out = new Map<string, string[]>();
  const claimed = new Map<string, string[]>();
  for (const [name, values] of sent) {
    const declared = match(name);
    if (declared === undefined) out.set(name, values);
    else claimed.set(declared, [...(claimed.get(declared) ?? []), name]);
  }
  for (const [name, rule] of Object.entries(rules)) {
    const spellings = claimed.get(name) ?? [];
    const values = spellings.length === 1 ? (sent.get(spellings[0] ?? '') ?? []) : [];
    if (spellings.length > 1 || values.length > 1) {
      for (const spelling of spellings) out.set(spelling, sent.get(spelling) ?? []);
      continue;
    }
    const value = values[0] === undefined ? undefined : (rule.read?.(values[0]) ?? values[0]);
    const keyed = keyedValue(value, rule.default, rule.keyDefault, (a, b) => a === b);
    if (keyed !== undefined) out.set(name, [keyed]);
  }
  return Object.fromEntries(out);
}

/**
 * A JSON object body as the vendor reads it: each declared field sent under one of its names keyed under its
 * own name, its value read by its rule (nested objects and array items too); a null the vendor reads as left
 * out, and an object left empty where that is the field left out, dropped; a field left out keyed with its
 * default. A field sent under more than one of its names is kept as sent, and so is every undeclared field.
 */
export function canonicalBody(
  body: Readonly<Record<string, JsonValue>>,
  fields: BodyFields,
  names: RequestShape['names'] = 'exact',
): Record<string, JsonValue> {
  const match = nameMatcher(fields, names);
  const out = new Map<string, JsonValue>();
  const claimed = new Map<string, string[]>();
  for (const [name, value] of Object.entries(body)) {
    const declared = match(name);
    if (declared === undefined) out.set(name, value);
    else claimed.set(declared, [...(claimed.get(declared) ?? []), name]);
  }
  for (const [name, rule] of Object.entries(fields)) {
    const spellings = claimed.get(name) ?? [];
    if (spellings.length > 1) {
      for (const spelling of spellings) out.set(spelling, body[spelling] ?? null);
      continue;
    }
    const given = spellings[0] === undefined ? undefined : body[spellings[0]];
    const value = given === undefined ? undefined : fieldValue(given, rule, names);
    const keyed = keyedValue(value, rule.default, rule.keyDefault, sameJson);
    if (keyed !== undefined) out.set(name, keyed);
  }
  // fromEntries defines own properties, so a `__proto__` field stays a field.
  return Object.fromEntries(out);
}

/** One field's value as the vendor reads it; undefined where that is the field left out. */
function fieldValue(
  value: JsonValue,
  rule: BodyFieldRule,
  names: RequestShape['names'],
): JsonValue | undefined {
  if (value === null && rule.nullIsAbsent) return undefined;
  const read = readValue(value, rule, names);
  if (rule.emptyIsAbsent && isPlainObject(read) && Object.keys(read).length === 0) return undefined;
  return read;
}

function readValue(value: JsonValue, rule: BodyFieldRule, names: RequestShape['names']): JsonValue {
  let read = value;
  if (rule.fields && isPlainObject(value)) read = canonicalBody(value, rule.fields, names);
  const items = rule.items;
  if (items && Array.isArray(read)) read = read.map((item: JsonValue) => readValue(item, items, names));
  return rule.read ? rule.read(read) : read;
}

/** The value the key holds: the default where left out (`filled`), nothing where it is the default (`omitted`). */
function keyedValue<T>(
  value: T | undefined,
  fallback: T | undefined,
  keying: DefaultKeying = 'filled',
  same: (a: T, b: T) => boolean,
): T | undefined {
  if (fallback === undefined) return value;
  // A null is a value here: the rule said whether the vendor reads it as left out.
  if (keying === 'filled') return value === undefined ? fallback : value;
  return value !== undefined && same(value, fallback) ? undefined : value;
}

/** The declared name a sent name stands for (its own, an alias, or either in any case), or undefined. */
function nameMatcher(
  rules: Readonly<Record<string, { readonly aliases?: readonly string[] }>>,
  names: RequestShape['names'],
): (sent: string) => string | undefined {
  const fold = names === 'any-case' ? (name: string) => name.toLowerCase() : (name: string) => name;
  const declared = new Map<string, string>();
  for (const [name, rule] of Object.entries(rules)) {
    for (const spelling of [name, ...(rule.aliases ?? [])]) declared.set(fold(spelling), name);
  }
  return (sent) => declared.get(fold(sent));
}

/** Whether two JSON values are equal (object keys in any order). */
function sameJson(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item: JsonValue, i) => sameJson(item, b[i] as JsonValue));
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]));
}

/** A body's JSON object, or undefined when the body is not one (such a request is the vendor's to refuse). */
export function jsonObjectBody(request: DropInRequest): Record<string, JsonValue> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(request.body).toString('utf8'));
    return isPlainObject(value) ? (value as Record<string, JsonValue>) : undefined;
  } catch {
    return undefined;
  }
}

/** JSON-number syntax: what every vendor that reads a number from a string takes, and nothing else. */
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * A `read` for a body field the vendor takes as a number or as a string spelling one (`"24000"`, `"1.0"`): such
 * a string is the number. Other values are unchanged.
 */
export function numberFromString(value: JsonValue): JsonValue {
  if (typeof value !== 'string' || !JSON_NUMBER.test(value)) return value;
  const number = Number(value);
  return Number.isFinite(number) ? number + 0 : value;
}

/**
 * A `read` for a query parameter whose values the vendor takes as numbers: a decimal spelling is written as the
 * number's shortest form (`01`, `1.0` and `1` are `1`). Other values are unchanged.
 */
export function numberQueryValue(value: string): string {
  if (!/^-?\d+(\.\d+)?$/.test(value)) return value;
  const number = Number(value);
  return Number.isSafeInteger(number) || !Number.isInteger(number) ? String(number + 0) : value;
}

/**
 * A `read` from the spellings the vendor reads as one value: `spellings` maps each value as the key writes it to
 * the other spellings of it (`{true: ['1'], false: ['0']}`), matched in any case with `ignoreCase`.
 */
export function sameSpellings(
  spellings: Readonly<Record<string, readonly string[]>>,
  options: { readonly ignoreCase?: boolean } = {},
): (value: string) => string {
  const fold = options.ignoreCase ? (s: string) => s.toLowerCase() : (s: string) => s;
  const canonical = new Map<string, string>();
  for (const [value, others] of Object.entries(spellings)) {
    for (const spelling of [value, ...others]) canonical.set(fold(spelling), value);
  }
  return (value) => canonical.get(fold(value)) ?? value;
}

/**
 * The key rule of a body field that is one of the vendor's router options, from its catalogue entry: its
 * default (the Option's own, where it has one), null as left out where the option is nullable (null asks for
 * the vendor's own behaviour, as in `resolveSettings`), and its object or array fields: each field's null as
 * left out where the field is nullable or the vendor fills it (`vendorFillsFields`), and an object with no
 * field left as the option left out where the vendor fills it whole then. Unknown names throw: a wire that
 * names an option the definition lacks is a programming error.
 */
export function optionFieldRule(def: VendorDefinition, name: string): BodyFieldRule {
  const option = findOption(def, name);
  if (!option) throw new Error(`optionFieldRule: ${def.id} has no option ${name}`);
  const rule = optionRule(def, name);
  const fields = rule.fields
    ? Object.fromEntries(
        rule.fields.map((field) => [
          field.name,
          field.nullable || rule.vendorFillsFields ? { nullIsAbsent: true } : {},
        ]),
      )
    : undefined;
  return {
    ...(option.default === null ? {} : { default: option.default }),
    ...(option.nullable ? { nullIsAbsent: true } : {}),
    ...(fields && option.type === 'object' ? { fields, emptyIsAbsent: rule.vendorFillsFields === true } : {}),
    ...(fields && option.type === 'array' ? { items: { fields } } : {}),
  };
}

/**
 * A JSON request as a vendor's client sends it (`body` as JSON, a string as it is), for the wires' tests: the
 * request every drop-in spec keys and reads.
 */
export function jsonDropInRequest(path: string, body: unknown, method = 'POST', query = ''): DropInRequest {
  return {
    method,
    path,
    query,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
  };
}

/** The keying of a request a wire must cache whole; throws where `keying` says it is not cacheable. */
export function cacheableKeying(
  keying: (request: DropInRequest) => DropInKeying,
  request: DropInRequest,
): Extract<DropInKeying, { cacheable: true }> {
  const keyed = keying(request);
  if (!keyed.cacheable) throw new Error('expected a cacheable request');
  return keyed;
}
