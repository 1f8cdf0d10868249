/**
 * The deepest a client's JSON may nest arrays and objects, counting the top-level object as level 1: the one
 * rule for every body and message a client sends, wherever it is read (the apps' bodies and messages, the
 * mirrors' bodies, the gateway's key stripping). Every body and message of the spec nests at most four levels;
 * the limit sits far above that, and far below what would exhaust the stack of code that walks a value
 * recursively afterwards (class-transformer, the cache key's canonical JSON, `JSON.stringify`). `JSON.parse`
 * itself does not recurse in V8, so parsing first and measuring after is safe.
 */
export const JSON_MAX_DEPTH = 32;

/** Why a client's parsed JSON cannot be taken: the top-level field it is in (if any) and the rule, in words. */
export interface JsonProblem {
  /** The top-level field holding the offending value; undefined when it is the value as a whole. */
  readonly field: string | undefined;
  /** A sentence naming the field and the rule (never the value: it may be sentence text). */
  readonly message: string;
}

/**
 * The first problem of a client's parsed JSON value, before anything walks or re-serialises it: arrays and
 * objects nested deeper than `JSON_MAX_DEPTH`, or a number `JSON.parse` read as ±Infinity (`1e400`), which no
 * serialiser can write back. Iterative, so no depth can overflow the stack. Undefined when the value is fine.
 */
export function jsonValueProblem(value: unknown): JsonProblem | undefined {
  if (!isNested(value)) return numberProblem(value, undefined);
  const top = Array.isArray(value) ? undefined : (value as Record<string, unknown>);
  const entries: Array<[string | undefined, unknown]> = top ? Object.entries(top) : [[undefined, value]];
  for (const [field, child] of entries) {
    const problem = top ? nestedProblem(child, field, 2) : nestedProblem(child, field, 1);
    if (problem) return problem;
  }
  return undefined;
}

function nestedProblem(value: unknown, field: string | undefined, depth: number): JsonProblem | undefined {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (!isNested(next.value)) {
      const problem = numberProblem(next.value, field);
      if (problem) return problem;
      continue;
    }
    if (next.depth > JSON_MAX_DEPTH) {
      const what = field ?? 'the value';
      return {
        field,
        message: `${what} nests arrays and objects deeper than the limit of ${JSON_MAX_DEPTH} levels`,
      };
    }
    for (const child of Object.values(next.value)) pending.push({ value: child, depth: next.depth + 1 });
  }
  return undefined;
}

function numberProblem(value: unknown, field: string | undefined): JsonProblem | undefined {
  if (typeof value !== 'number' || Number.isFinite(value)) return undefined;
  const what = field ?? 'the value';
  return { field, message: `${what} holds a number too large to represent (it must be finite)` };
}

function isNested(value: unknown): value is object {
  return value !== null && typeof value === 'object';
}
