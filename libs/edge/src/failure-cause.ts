import { isNativeError } from 'node:util/types';

/** What a log line says of an unexpected failure at the gateway. */
export interface FailureCause {
  /** The error's class (`RangeError`, `TypeError` …), or the type of what was thrown. */
  type: string;
  /** A system error's code (`ECONNRESET` …). */
  code?: string;
  /** The top frames of its stack. */
  at?: string[];
}

/**
 * An unexpected failure as a log line may carry it: its type, code and where it happened, never its message,
 * since a parser's or serialiser's message can quote what the client sent (a sentence, a key).
 */
export function failureCause(error: unknown): FailureCause {
  // isNativeError as well: an error made in another realm (a vm context) is no `instanceof Error` here.
  if (!(error instanceof Error) && !isNativeError(error)) return { type: typeof error };
  const code = (error as { code?: unknown }).code;
  // V8's stack opens with `<name>: <message>`, which may span lines: only what follows it is read.
  const header = error.message === '' ? error.name : `${error.name}: ${error.message}`;
  const stack = error.stack?.startsWith(header) ? error.stack.slice(header.length) : '';
  const at = stack
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('at '))
    .slice(0, 5);
  return {
    type: error.name,
    ...(typeof code === 'string' ? { code } : {}),
    ...(at.length > 0 ? { at } : {}),
  };
}
