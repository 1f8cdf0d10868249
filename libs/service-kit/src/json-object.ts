import { RouterError } from '@router/contracts';

/**
 * The deepest a client's JSON may nest arrays and objects, counting the top-level object as level 1. Every
 * body and message of the spec nests at most four levels; the limit sits far above that, and far below what
 * would exhaust the stack of code that walks a value recursively afterwards (class-transformer, the cache
 * key's canonical JSON). `JSON.parse` itself does not recurse in V8, so parsing first and checking after is safe.
 */
export const JSON_MAX_DEPTH = 32;

/**
 * A client's parsed JSON (an HTTP body, a WebSocket message) as its object of fields, checked before
 * anything walks it: `subject` ("the body", "a message") must be a JSON object, and no field may nest
 * arrays and objects deeper than `JSON_MAX_DEPTH`. Throws `bad_request` (with `status` where a surface's
 * contract gives validation another one, as 422 for provider keys) naming the rule and the field.
 */
export function jsonObjectOf(value: unknown, subject: string, status?: number): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw RouterError.badRequest(`${subject} must be a JSON object`, status);
  }
  const fields = value as Record<string, unknown>;
  const tooDeep = fieldNestedTooDeep(fields);
  if (tooDeep !== undefined) {
    throw RouterError.badRequest(
      `${tooDeep} nests arrays and objects deeper than the limit of ${JSON_MAX_DEPTH} levels`,
      status,
    );
  }
  return fields;
}

/** The first field whose value passes the depth limit; iterative, so no depth can overflow the stack. */
function fieldNestedTooDeep(fields: Record<string, unknown>): string | undefined {
  for (const [name, value] of Object.entries(fields)) {
    if (!isNested(value)) continue;
    const pending: Array<{ value: object; depth: number }> = [{ value, depth: 2 }];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      if (next.depth > JSON_MAX_DEPTH) return name;
      for (const child of Object.values(next.value)) {
        if (isNested(child)) pending.push({ value: child, depth: next.depth + 1 });
      }
    }
  }
  return undefined;
}

function isNested(value: unknown): value is object {
  return value !== null && typeof value === 'object';
}
