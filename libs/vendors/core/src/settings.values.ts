import type { JsonValue, OptionType } from './catalogue.types';
import { oneOf, quoted, rangeText, refuse } from './settings.messages';
import type { OptionField } from './vendor-definition.types';

/** The facts a scalar check needs; both an Option and an object option's field provide them. */
export interface ScalarSpec {
  readonly type: Exclude<OptionType, 'object' | 'array'>;
  readonly min?: number | null;
  readonly max?: number | null;
  readonly values?: readonly string[] | null;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * The value when it is a non-null scalar of the spec's type, inside its range and value list; otherwise a
 * `bad_request` naming `path`. Types are strict: `"1.0"` is not a number and `1` is not a boolean.
 * `context` ends range and value messages (e.g. ` for vendor_a`, ` at 22050 Hz for vendor_c mp3`).
 */
export function checkScalar(
  path: string,
  spec: ScalarSpec,
  value: unknown,
  context = '',
): string | number | boolean {
  switch (spec.type) {
    case 'boolean':
      if (typeof value !== 'boolean') refuse(`${path} must be true or false`);
      return value;
    case 'string':
      if (typeof value !== 'string') refuse(`${path} must be a string`);
      if (spec.values && !spec.values.includes(value)) {
        refuse(`${path} ${quoted(value)} is not allowed${context}; use ${oneOf(spec.values)}`);
      }
      return value;
    case 'number':
    case 'integer': {
      const integer = spec.type === 'integer';
      if (typeof value !== 'number' || !Number.isFinite(value)) refuse(`${path} must be a number`);
      if (integer && !Number.isInteger(value)) refuse(`${path} must be an integer`);
      const min = spec.min ?? null;
      const max = spec.max ?? null;
      if ((min !== null && value < min) || (max !== null && value > max)) {
        refuse(`${path} must be ${rangeText(min, max, integer)}${context}`);
      }
      if (spec.values && !spec.values.includes(String(value))) {
        refuse(`${path} ${value} is not allowed${context}; use ${oneOf(spec.values)}`);
      }
      // `-0` and `0` are one setting.
      return value + 0;
    }
  }
}

/**
 * How far an object's field check follows the vendor rather than the native surfaces (a mirror's vendor mode,
 * see `SettingsMode`). The native surfaces take neither.
 */
export interface FieldLeniency {
  /** A field outside the rule is kept as sent, where the vendor reads it, instead of refused. */
  readonly keepUnknown: boolean;
  /** The vendor fills a field left out or sent as null: a required field may be missing, a null is left out. */
  readonly vendorFills: boolean;
}

const STRICT: FieldLeniency = { keepUnknown: false, vendorFills: false };

/**
 * An object made of known fields: every key a field (and, where `allowed` is given, one of those), every
 * required field present, each value checked. A null in a nullable field means the same as leaving it out,
 * so it is dropped; fields come out in the rule's order, so equal objects compare equal. `lenient` relaxes
 * this as the vendor does: unknown fields kept (after the known ones, as sent; never where `allowed` closes the
 * list, which the vendor refuses too), and fields the vendor fills left out.
 */
export function checkFields(
  path: string,
  fields: readonly OptionField[],
  value: unknown,
  allowed?: { readonly names: readonly string[]; readonly why: string },
  lenient: FieldLeniency = STRICT,
): Record<string, JsonValue> {
  if (!isPlainObject(value)) refuse(`${path} must be an object`);
  const names = fields.map((f) => f.name);
  const unknown: [string, JsonValue][] = [];
  for (const key of Object.keys(value)) {
    const known = names.includes(key);
    if (!known && (allowed || !lenient.keepUnknown)) {
      refuse(`${path}.${key} is not a field of ${path}; use ${oneOf(names)}`);
    }
    if (allowed && !allowed.names.includes(key)) {
      refuse(`${path}.${key} is not available ${allowed.why}; ${path} takes only ${oneOf(allowed.names)}`);
    }
    if (!known) unknown.push([key, checkJson(`${path}.${key}`, value[key])]);
  }
  const entries: [string, JsonValue][] = [];
  for (const field of fields) {
    const fieldPath = `${path}.${field.name}`;
    const given = Object.hasOwn(value, field.name) ? value[field.name] : undefined;
    const applies = !allowed || allowed.names.includes(field.name);
    if (given === undefined) {
      if (field.required && applies && !lenient.vendorFills) refuse(`${fieldPath} is required`);
      continue;
    }
    if (given === null) {
      if (!field.nullable && !lenient.vendorFills) refuse(`${fieldPath} must not be null`);
      continue;
    }
    entries.push([field.name, checkScalar(fieldPath, field, given)]);
  }
  // fromEntries defines own properties, so a client key such as `__proto__` stays a plain key.
  return Object.fromEntries([...entries, ...unknown]);
}

/**
 * A plain JSON value (for options whose shape the catalogue leaves open), copied so later changes to the
 * client's object cannot reach the settings.
 */
export function checkJson(path: string, value: unknown): JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) refuse(`${path} must be a finite number`);
    return value + 0;
  }
  if (Array.isArray(value)) return value.map((item, i) => checkJson(`${path}[${i}]`, item));
  if (isPlainObject(value)) {
    // fromEntries defines own properties, so a client key such as `__proto__` stays a plain key.
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, checkJson(`${path}.${k}`, v)]));
  }
  return refuse(`${path} must be JSON`);
}
