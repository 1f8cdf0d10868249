import { jsonValueProblem, RouterError } from '@router/contracts';

// The rule for client JSON lives in contracts, where the gateway's key stripping (libs/vendors/core) reads it too.
export { JSON_MAX_DEPTH, type JsonProblem, jsonValueProblem } from '@router/contracts';

/**
 * A client's parsed JSON (an HTTP body, a WebSocket message) as its object of fields, checked before
 * anything walks it: `subject` ("the body", "a message") must be a JSON object, and no field may nest
 * arrays and objects deeper than `JSON_MAX_DEPTH` or hold a number out of range. Throws `bad_request` (with
 * `status` where a surface's contract gives validation another one, as 422 for provider keys) naming the rule
 * and the field.
 */
export function jsonObjectOf(value: unknown, subject: string, status?: number): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw RouterError.badRequest(`${subject} must be a JSON object`, status);
  }
  const problem = jsonValueProblem(value);
  if (problem) throw RouterError.badRequest(problem.message, status);
  return value as Record<string, unknown>;
}
