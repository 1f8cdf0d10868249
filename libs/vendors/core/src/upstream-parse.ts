import { vendorMalformed } from './vendor-errors';
import type { VendorId } from './vendor-id';

/**
 * Readers for what vendors send back, shared by the adapters: the line framing of SSE and JSON-lines
 * bodies, JSON objects, and the refusal text of an error body. The vendor's own field names stay in its
 * adapter; these know only the framing.
 */

/** Complete lines of a text stream without their `\n` or `\r\n` (any chunking; the last line also without an end). */
export async function* textLines(text: AsyncIterable<string>): AsyncGenerator<string> {
  let buffer = '';
  for await (const part of text) {
    buffer += part;
    let end: number;
    while ((end = buffer.indexOf('\n')) !== -1) {
      yield buffer.slice(0, end).replace(/\r$/, '');
      buffer = buffer.slice(end + 1);
    }
  }
  if (buffer.trim() !== '') yield buffer;
}

export interface SseEvent {
  readonly event: string;
  readonly data: string;
}

/** Server-sent events from a text stream; an event the stream cut before its blank line is dropped. */
export async function* parseSse(text: AsyncIterable<string>): AsyncGenerator<SseEvent> {
  let event = '';
  let data: string[] = [];
  for await (const line of textLines(text)) {
    if (line === '') {
      if (data.length > 0) yield { event: event || 'message', data: data.join('\n') };
      event = '';
      data = [];
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
}

/**
 * One JSON object the vendor sent (an SSE event's data, a JSON line), else a provider_unavailable naming
 * `what` it was. `T` should type every field `unknown`: the caller checks each before use.
 */
export function parseJsonObject<T extends object>(vendor: VendorId, text: string, what: string): T {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null) return parsed as T;
  } catch {
    // Reported below, like any other non-object.
  }
  throw vendorMalformed(vendor, `${what} that is not a JSON object`);
}

/**
 * A vendor's refusal text: what `pick` finds in a JSON error body, else the body itself (its first 1000
 * characters), so a gateway's plain-text or HTML error still reaches the client.
 */
export function readRefusal(
  body: string,
  pick: (json: Readonly<Record<string, unknown>>) => string | undefined,
): string {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === 'object' && parsed !== null) {
      const found = pick(parsed as Record<string, unknown>);
      if (found !== undefined) return found;
    }
  } catch {
    // Not JSON, or not the shape `pick` reads: the body itself is the vendor's message.
  }
  return body.slice(0, 1000);
}

/** The string at `path` inside a parsed JSON value, or undefined when anything on the way is missing or another type. */
export function stringAt(value: unknown, ...path: readonly string[]): string | undefined {
  let at = value;
  for (const key of path) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Readonly<Record<string, unknown>>)[key];
  }
  return typeof at === 'string' ? at : undefined;
}
