import { StringDecoder } from 'node:string_decoder';
import type { JsonValue } from './catalogue.types';
import type { AnswerReading, AnswerVerdict } from './drop-in.types';
import { LineSplitter, SseFramer, type SseEvent, writeSseEvent } from './upstream-parse';

/*
 * The answer readings a vendor's `DropInWire.readAnswer` is made of, one per framing: a body that is whole once
 * it ended normally (audio), one JSON document, JSON lines and server-sent events. The vendor says what each
 * frame is and how it is stored; these know only the framing and when an answer is whole.
 */

/** What one frame of a streamed answer is: a part of it, its final frame, or an error sent after the 200. */
export type FrameKind = 'part' | 'final' | 'error';

const WHOLE: AnswerVerdict = Object.freeze({ complete: true });

/** The router's words for an answer that is not whole (logged; never the vendor's words, which can echo text). */
export const NOT_WHOLE = Object.freeze({
  error: 'the vendor reported an error inside the answer',
  noFinal: 'the answer ended before its final frame',
  cut: 'the answer ended inside a frame',
  notJson: 'the answer is not the JSON document it should be',
  short: 'the answer ended before the length its header gives',
});

const notWhole = (reason: string): AnswerVerdict => ({ complete: false, reason });

/** The vendor's rule for a frame, run so that a rule that throws marks the answer not whole, never the take. */
function kindOf<T>(rule: (frame: T) => FrameKind, frame: T): FrameKind {
  try {
    return rule(frame);
  } catch {
    return 'error';
  }
}

/** A body that is whole once it ended normally (audio, which has no frames), stored as it came. */
export function wholeBodyAnswer(): AnswerReading {
  return { push: () => undefined, end: () => WHOLE, stored: (body) => body };
}

/** Header bytes a WAV reading holds while it looks for the `data` chunk; past them it cannot tell. */
const WAV_HEADER_LIMIT = 4096;
/** The sizes a streaming WAV writer leaves open while the length is unknown. */
const OPEN_WAV_SIZES: ReadonlySet<number> = new Set([0, 0xffffffff]);

/**
 * The `data` chunk of a RIFF/WAVE header: where its samples start and its size; `more` while the header is not
 * all there; null for a body that is not RIFF/WAVE, or whose header is longer than a reading holds.
 */
function wavDataChunk(head: Buffer): { start: number; size: number } | 'more' | null {
  if (head.length < 12) return 'more';
  if (head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 12) !== 'WAVE') return null;
  let offset = 12;
  while (offset + 8 <= head.length) {
    const size = head.readUInt32LE(offset + 4);
    if (head.toString('latin1', offset, offset + 4) === 'data') return { start: offset + 8, size };
    offset += 8 + size + (size % 2);
  }
  return head.length >= WAV_HEADER_LIMIT ? null : 'more';
}

/**
 * A WAV file: whole once its body ended with all the sample bytes its header's `data` size gives. A size left
 * open (as streaming writers leave it) says nothing, nor does a body that is not RIFF/WAVE: such an answer is
 * whole once it ended, as audio is. One that ended inside its header is not. Stored as it came.
 */
export function wavAnswer(): AnswerReading {
  // Undefined while the header is read; then the size to reach, or null when there is none to check.
  let expected: number | null | undefined;
  let head = Buffer.alloc(0);
  let received = 0;
  return {
    push(chunk) {
      if (expected !== undefined) {
        received += chunk.length;
        return;
      }
      head = Buffer.concat([head, chunk]);
      const data = wavDataChunk(head);
      if (data === 'more') return;
      expected = data === null || OPEN_WAV_SIZES.has(data.size) ? null : data.size;
      received = data === null ? 0 : Math.max(0, head.length - data.start);
      head = Buffer.alloc(0);
    },
    end() {
      if (expected === undefined) return notWhole(NOT_WHOLE.cut);
      return expected === null || received >= expected ? WHOLE : notWhole(NOT_WHOLE.short);
    },
    stored: (body) => body,
  };
}

/** The frames of one answer counted as they come; decided once an error is seen. */
class FrameTally {
  private error = false;
  private final = false;

  constructor(private readonly finalFrame: boolean) {}

  /** Whether the answer is already known not to be whole (later frames need no reading). */
  get failed(): boolean {
    return this.error;
  }

  count(kind: FrameKind): void {
    if (kind === 'error') this.error = true;
    else if (kind === 'final') this.final = true;
  }

  verdict(cut: boolean): AnswerVerdict {
    if (this.error) return notWhole(NOT_WHOLE.error);
    if (cut) return notWhole(NOT_WHOLE.cut);
    if (this.finalFrame && !this.final) return notWhole(NOT_WHOLE.noFinal);
    return WHOLE;
  }
}

export interface JsonLinesRules {
  /** What a line's JSON value is. A line that is not JSON is an error. */
  readonly line: (value: unknown) => FrameKind;
  /**
   * Whether a whole answer ends with a final line; without one (false), a whole answer is one whose body ended
   * normally on a whole line.
   */
  readonly finalFrame: boolean;
  /** A line's stored form (undefined: left out of the stored answer); absent: the body is stored as it came. */
  readonly stored?: (value: unknown) => JsonValue | undefined;
}

/**
 * JSON lines (one JSON value a line, blank lines skipped): whole when no line is an error, the final line is
 * there where the vendor sends one, and the body did not stop inside a line (a last line without its line end
 * counts if it is whole JSON).
 */
export function jsonLinesAnswer(rules: JsonLinesRules): AnswerReading {
  const decoder = new StringDecoder('utf8');
  const lines = new LineSplitter();
  const tally = new FrameTally(rules.finalFrame);
  const read = (line: string): void => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      tally.count('error');
      return;
    }
    tally.count(kindOf(rules.line, value));
  };
  return {
    push(chunk) {
      if (tally.failed) return;
      for (const line of lines.push(decoder.write(chunk))) read(line);
    },
    end() {
      if (tally.failed) return tally.verdict(false);
      for (const line of lines.push(decoder.end())) read(line);
      const rest = lines.end();
      if (rest.trim() === '') return tally.verdict(false);
      try {
        tally.count(kindOf(rules.line, JSON.parse(rest)));
        return tally.verdict(false);
      } catch {
        return tally.verdict(true);
      }
    },
    stored(body) {
      const { stored } = rules;
      if (!stored) return body;
      let out = '';
      for (const line of body.toString('utf8').split('\n')) {
        if (line.trim() === '') continue;
        const kept = stored(JSON.parse(line));
        if (kept !== undefined) out += `${JSON.stringify(kept)}\n`;
      }
      return Buffer.from(out, 'utf8');
    },
  };
}

export interface SseRules {
  /** What an event is (its name, or its data's `type` where the vendor names events inside the data). */
  readonly event: (event: SseEvent) => FrameKind;
  /** An event's stored form (undefined: left out of the stored answer); absent: the body is stored as it came. */
  readonly stored?: (event: SseEvent) => SseEvent | undefined;
  /** How the vendor ends each line of its events, for the stored ones: LF unless said. */
  readonly lineEnd?: '\n' | '\r\n';
}

/**
 * Server-sent events: whole when the final event came, no event is an error, and the stream did not stop
 * inside an event. Events after the final one (a `[DONE]` sentinel) are parts. Stored events are written as
 * the vendor writes them (`event:` only for a named event, one `data:` line a line of data, its line end);
 * comments are not kept.
 */
export function sseAnswer(rules: SseRules): AnswerReading {
  const decoder = new StringDecoder('utf8');
  const framer = new SseFramer();
  const tally = new FrameTally(true);
  const read = (events: readonly SseEvent[]): void => {
    for (const event of events) tally.count(kindOf(rules.event, event));
  };
  return {
    push(chunk) {
      if (!tally.failed) read(framer.push(decoder.write(chunk)));
    },
    end() {
      if (tally.failed) return tally.verdict(false);
      read(framer.push(decoder.end()));
      return tally.verdict(framer.end());
    },
    stored(body) {
      const { stored } = rules;
      if (!stored) return body;
      const framer = new SseFramer();
      let out = '';
      for (const event of framer.push(body.toString('utf8'))) {
        const kept = stored(event);
        if (kept) out += writeSseEvent(kept, rules.lineEnd);
      }
      return Buffer.from(out, 'utf8');
    },
  };
}

export interface JsonDocumentRules {
  /** Whether the document is the answer, or an error sent with the 200. */
  readonly document: (value: unknown) => 'whole' | 'error';
  /** The document's stored form; absent: the body is stored as it came. */
  readonly stored?: (value: unknown) => JsonValue;
}

/** One JSON document: whole when the body parses whole and is the answer, not an error. */
export function jsonDocumentAnswer(rules: JsonDocumentRules): AnswerReading {
  // The chunks are the take's own buffers: kept by reference, read once at the end.
  const chunks: Buffer[] = [];
  return {
    push(chunk) {
      chunks.push(chunk);
    },
    end() {
      let value: unknown;
      try {
        value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return notWhole(NOT_WHOLE.notJson);
      } finally {
        chunks.length = 0;
      }
      return kindOf((v: unknown) => (rules.document(v) === 'whole' ? 'final' : 'error'), value) === 'final'
        ? WHOLE
        : notWhole(NOT_WHOLE.error);
    },
    stored(body) {
      const { stored } = rules;
      return stored ? Buffer.from(JSON.stringify(stored(JSON.parse(body.toString('utf8')))), 'utf8') : body;
    },
  };
}
