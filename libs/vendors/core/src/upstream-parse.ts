import { vendorMalformed } from './vendor-errors';
import type { VendorId } from './vendor-id';

/**
 * Readers for what vendors send back, shared by the adapters: the line framing of SSE and JSON-lines
 * bodies, JSON objects, and the refusal text of an error body. The vendor's own field names stay in its
 * adapter; these know only the framing.
 */

/**
 * Lines of a text that arrives in parts, without their `\n` or `\r\n`: each part gives the lines it
 * completes, `end()` what is left after the last line end. A part without a line end is only appended, so
 * a long line costs no more than its bytes however finely it is split.
 */
export class LineSplitter {
  private pending = '';

  push(text: string): string[] {
    let end = text.indexOf('\n');
    if (end === -1) {
      this.pending += text;
      return [];
    }
    const lines = [withoutCr(this.pending + text.slice(0, end))];
    let start = end + 1;
    while ((end = text.indexOf('\n', start)) !== -1) {
      lines.push(withoutCr(text.slice(start, end)));
      start = end + 1;
    }
    this.pending = text.slice(start);
    return lines;
  }

  /** What followed the last line end (a last line without one, or a line cut short); then empty. */
  end(): string {
    const rest = this.pending;
    this.pending = '';
    return rest;
  }
}

function withoutCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

/** Complete lines of a text stream without their `\n` or `\r\n` (any chunking; the last line also without an end). */
export async function* textLines(text: AsyncIterable<string>): AsyncGenerator<string> {
  const lines = new LineSplitter();
  for await (const part of text) yield* lines.push(part);
  const rest = lines.end();
  if (rest.trim() !== '') yield rest;
}

export interface SseEvent {
  readonly event: string;
  readonly data: string;
}

/**
 * Server-sent events of a text that arrives in parts: each part gives the events it completes (an event is
 * complete at its blank line; comments are skipped; an unnamed event is `message`), `end()` whether the text
 * stopped inside an event (one the stream cut before its blank line, which is never given).
 */
export class SseFramer {
  private readonly lines = new LineSplitter();
  private event = '';
  private data: string[] = [];
  /** Whether a field of an event not yet complete was read. */
  private open = false;

  push(text: string): SseEvent[] {
    const events: SseEvent[] = [];
    for (const line of this.lines.push(text)) {
      const complete = this.line(line);
      if (complete) events.push(complete);
    }
    return events;
  }

  /** Whether the text stopped inside an event: fields read but no blank line after them, or a line cut short. */
  end(): boolean {
    const rest = this.lines.end();
    return this.open || rest.trim() !== '';
  }

  private line(line: string): SseEvent | undefined {
    if (line === '') {
      const complete =
        this.data.length > 0 ? { event: this.event || 'message', data: this.data.join('\n') } : undefined;
      this.event = '';
      this.data = [];
      this.open = false;
      return complete;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    this.open = true;
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    return undefined;
  }
}

/** Server-sent events from a text stream; an event the stream cut before its blank line is dropped. */
export async function* parseSse(text: AsyncIterable<string>): AsyncGenerator<SseEvent> {
  const framer = new SseFramer();
  for await (const part of text) yield* framer.push(part);
}

/**
 * An event as the vendor would write it: its name (none for `message`), its data one `data:` line a line, each
 * line ended with `lineEnd` (the vendor's own: LF unless it ends its lines with CRLF).
 */
export function writeSseEvent({ event, data }: SseEvent, lineEnd: '\n' | '\r\n' = '\n'): string {
  const name = event === 'message' ? '' : `event: ${event}${lineEnd}`;
  return `${name}${data
    .split('\n')
    .map((line) => `data: ${line}${lineEnd}`)
    .join('')}${lineEnd}`;
}

/**
 * An event's data as the JSON object a vendor writes there, or undefined for data that is another JSON value;
 * throws for data that is not JSON (an answer reading's frame rule counts that as an error frame).
 */
export function sseEventObject(event: SseEvent): Record<string, unknown> | undefined {
  const data: unknown = JSON.parse(event.data);
  return typeof data === 'object' && data !== null && !Array.isArray(data)
    ? (data as Record<string, unknown>)
    : undefined;
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
