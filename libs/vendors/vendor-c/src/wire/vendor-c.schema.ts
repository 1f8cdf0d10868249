import { readFlag, queryFlag } from '@router/vendors-core';
import type { SchemaIssue } from './vendor-c.errors';

/**
 * Small pydantic-like field checks: each returns the 422 issues for one field (empty when it is fine), with
 * the vendor's `loc`/`msg`/`type` wording. The simulator and the mirror refuse with them alike.
 */
type Loc = readonly (string | number)[];

export function missing(loc: Loc): SchemaIssue {
  return { loc, msg: 'field required', type: 'value_error.missing' };
}

export function checkString(
  value: unknown,
  loc: Loc,
  options: { required?: boolean; minLength?: number } = {},
): SchemaIssue[] {
  if (value === undefined || value === null) return options.required ? [missing(loc)] : [];
  if (typeof value !== 'string') return [{ loc, msg: 'str type expected', type: 'type_error.str' }];
  if (options.minLength !== undefined && value.length < options.minLength) {
    return [
      {
        loc,
        msg: `ensure this value has at least ${options.minLength} characters`,
        type: 'value_error.any_str.min_length',
      },
    ];
  }
  return [];
}

export function checkNumber(
  value: unknown,
  loc: Loc,
  min: number,
  max: number,
  integer = false,
): SchemaIssue[] {
  if (value === undefined || value === null) return [];
  if (typeof value !== 'number' || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    return [
      {
        loc,
        msg: integer ? 'value is not a valid integer' : 'value is not a valid float',
        type: integer ? 'type_error.integer' : 'type_error.float',
      },
    ];
  }
  if (value < min)
    return [
      { loc, msg: `ensure this value is greater than or equal to ${min}`, type: 'value_error.number.not_ge' },
    ];
  if (value > max)
    return [
      { loc, msg: `ensure this value is less than or equal to ${max}`, type: 'value_error.number.not_le' },
    ];
  return [];
}

/** A boolean field: any spelling the vendor reads as one (`readFlag`: `true`, `"True"`, `1` …). */
export function checkBoolean(value: unknown, loc: Loc): SchemaIssue[] {
  if (value === undefined || value === null || readFlag(value) !== undefined) return [];
  return [{ loc, msg: 'value could not be parsed to a boolean', type: 'type_error.bool' }];
}

export function checkEnum(value: unknown, loc: Loc, values: readonly string[]): SchemaIssue[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string' && values.includes(value)) return [];
  return [
    {
      loc,
      msg: `value is not a valid enumeration member; permitted: ${values.map((v) => `'${v}'`).join(', ')}`,
      type: 'type_error.enum',
    },
  ];
}

export function checkStringArray(value: unknown, loc: Loc, maxItems: number): SchemaIssue[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return [{ loc, msg: 'value is not a valid list', type: 'type_error.list' }];
  if (value.length > maxItems)
    return [
      { loc, msg: `ensure this value has at most ${maxItems} items`, type: 'value_error.list.max_items' },
    ];
  return value.flatMap((item, i) => checkString(item, [...loc, i], { required: true }));
}

/** A boolean query parameter, read by the mirrors' one rule (`queryFlag`: `true`, `True`, `1` …). */
export function queryBoolean(
  query: URLSearchParams,
  name: string,
  fallback: boolean,
): { value: boolean; issues: SchemaIssue[] } {
  const value = queryFlag(query, name, fallback);
  if (value !== undefined) return { value, issues: [] };
  return {
    value: fallback,
    issues: [
      { loc: ['query', name], msg: 'value could not be parsed to a boolean', type: 'type_error.bool' },
    ],
  };
}

/** An integer query parameter within a range. */
export function queryInteger(
  query: URLSearchParams,
  name: string,
  fallback: number | undefined,
  min: number,
  max: number,
): { value: number | undefined; issues: SchemaIssue[] } {
  const raw = query.get(name);
  if (raw === null) return { value: fallback, issues: [] };
  const value = /^-?\d+$/.test(raw) ? Number(raw) : Number.NaN;
  const issues = checkNumber(Number.isNaN(value) ? raw : value, ['query', name], min, max, true);
  return { value: issues.length === 0 ? value : fallback, issues };
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks a voice-settings object (`voice_settings` in a body or a socket message, or a settings edit). */
export function settingsIssues(value: Record<string, unknown>, loc: readonly string[]): SchemaIssue[] {
  return [
    ...checkNumber(value['stability'], [...loc, 'stability'], 0, 1),
    ...checkNumber(value['similarity_boost'], [...loc, 'similarity_boost'], 0, 1),
    ...checkNumber(value['style'], [...loc, 'style'], 0, 1),
    ...checkNumber(value['speed'], [...loc, 'speed'], 0.7, 1.2),
    ...checkBoolean(value['use_speaker_boost'], [...loc, 'use_speaker_boost']),
  ];
}

/** Checks a dialogue's voice settings (`settings` in a body, `voice_settings` on the socket): stability only. */
export function dialogueSettingsIssues(value: unknown, loc: readonly string[]): SchemaIssue[] {
  if (value === undefined || value === null) return [];
  if (!isObject(value)) return [{ loc, msg: 'value is not a valid dict', type: 'type_error.dict' }];
  return [
    ...checkNumber(value['stability'], [...loc, 'stability'], 0, 1),
    ...Object.keys(value)
      .filter((name) => name !== 'stability')
      .map((name) => ({ loc: [...loc, name], msg: 'extra fields not permitted', type: 'value_error.extra' })),
  ];
}
