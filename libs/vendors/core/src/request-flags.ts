/*
 * How a vendor reads a boolean its clients send, in a query parameter, a body field or a socket message: one rule
 * for every mirror. Clients spell a boolean as their language writes it (a Python client puts `True` in a query,
 * others `1`), and the vendors' servers read each spelling alike, so a mirror that compared a value with the string
 * `true` ignored a flag the vendor honours.
 */

/**
 * A boolean as the vendors read one: JSON `true`/`false`, the numbers `1`/`0`, and the strings `true`/`false`/
 * `1`/`0` in any case (`True`, `TRUE`, `False`). Undefined for anything else (absent, or no boolean at all: the
 * caller refuses it or takes its default, as its vendor does).
 */
export function readFlag(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value !== 'string') return undefined;
  switch (value.toLowerCase()) {
    case 'true':
    case '1':
      return true;
    case 'false':
    case '0':
      return false;
    default:
      return undefined;
  }
}

/** Whether a flag is set: true only where `readFlag` reads true (absent or unreadable is off). */
export function flagIsSet(value: unknown): boolean {
  return readFlag(value) === true;
}

/**
 * A query parameter's flag: `absent` where the query does not have it, undefined where its value is no boolean
 * (for the caller to refuse in its vendor's words).
 */
export function queryFlag<Absent>(
  query: URLSearchParams,
  name: string,
  absent: Absent,
): boolean | Absent | undefined {
  const raw = query.get(name);
  return raw === null ? absent : readFlag(raw);
}

/**
 * A `read` for a boolean query parameter or body field of a whole-request key: every spelling of a boolean
 * written as `true` or `false`, so requests the vendor reads alike share one entry. Other values are unchanged.
 */
export function flagSpelling(value: string): string {
  const flag = readFlag(value);
  return flag === undefined ? value : String(flag);
}
