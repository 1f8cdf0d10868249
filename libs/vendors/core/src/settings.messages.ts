import { RouterError } from '@router/contracts';

/** Longest list spelt out in a message; longer ones (vendor language lists) end with "and N more". */
const MAX_LISTED = 24;

/** Refuses the settings: a `bad_request` whose message names the field or rule (spec: Errors). */
export function refuse(message: string): never {
  throw RouterError.badRequest(message);
}

/** `a, b, c`, cut after MAX_LISTED items so a message stays readable. */
export function listOf(items: readonly (string | number)[]): string {
  if (items.length <= MAX_LISTED) return items.join(', ');
  return `${items.slice(0, MAX_LISTED).join(', ')} and ${items.length - MAX_LISTED} more`;
}

/** `one of a, b, c`, or the single value when there is only one choice. */
export function oneOf(items: readonly (string | number)[]): string {
  return items.length === 1 ? String(items[0]) : `one of ${listOf(items)}`;
}

/**
 * A range bound as the spec writes it: decimal settings keep one decimal (`2.0`, `1.0`) so the message
 * reads like the documented range; integer settings are plain (`30`, `200`).
 */
export function bound(value: number, integer: boolean): string {
  return !integer && Number.isInteger(value) ? value.toFixed(1) : String(value);
}

/** `between a and b`, `at least a` or `at most b`; null when there is no bound. */
export function rangeText(min: number | null, max: number | null, integer: boolean): string | null {
  if (min !== null && max !== null) return `between ${bound(min, integer)} and ${bound(max, integer)}`;
  if (min !== null) return `at least ${bound(min, integer)}`;
  if (max !== null) return `at most ${bound(max, integer)}`;
  return null;
}

/** A value quoted for a message, never longer than a short excerpt (it may be arbitrary client input). */
export function quoted(value: string): string {
  return JSON.stringify(value.length > 64 ? `${value.slice(0, 61)}...` : value);
}
