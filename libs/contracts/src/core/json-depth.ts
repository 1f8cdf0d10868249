/**
 * The deepest a client's JSON may nest arrays and objects, counting the top-level object as level 1: the one
 * rule for every body and message a client sends, wherever it is read (the apps' bodies and messages, the
 * gateway's key stripping). Every body and message of the spec nests at most four levels; the limit sits far
 * above that, and far below what would exhaust the stack of code that walks a value recursively afterwards
 * (class-transformer, the cache key's canonical JSON, `JSON.stringify`). `JSON.parse` itself does not recurse
 * in V8, so parsing first and measuring after is safe.
 */
export const JSON_MAX_DEPTH = 32;

/**
 * The first field of a parsed JSON object whose value nests arrays and objects past `JSON_MAX_DEPTH` (the
 * object holding the fields being level 1), or undefined when none does. Iterative, so no depth can
 * overflow the stack; it stops at the first level past the limit, so a deep value costs no more than a
 * shallow one of its size.
 */
export function fieldNestedTooDeep(fields: Readonly<Record<string, unknown>>): string | undefined {
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
