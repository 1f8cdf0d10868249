import { fieldNestedTooDeep, JSON_MAX_DEPTH, RouterError } from '@router/contracts';

// The depth rule lives in contracts, where the gateway's key stripping (libs/vendors/core) reads it too.
export { JSON_MAX_DEPTH };

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
