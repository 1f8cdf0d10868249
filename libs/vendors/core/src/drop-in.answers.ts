import { StringDecoder } from 'node:string_decoder';
import type { JsonValue } from './catalogue.types';
import { type AudioExpectation, checkAudio } from './audio-completeness';
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

/**
 * A body read as a whole once it ended normally, stored as it came: for answers that are never stored (a request
 * the wire does not cache), and for the framings whose every byte the client had anyway.
 */
export function wholeBodyAnswer(): AnswerReading {
  return { push: () => undefined, end: () => WHOLE, stored: (body) => body };
}

/**
 * Audio: whole once its body ended and `checkAudio` finds it whole against what the request asked for (its
 * layout, the least its text can play); `undefined` where the wire cannot tell what was asked (never whole).
 * Stored as it came. The chunks are the take's own buffers, kept by reference and read once at the end.
 */
export function audioAnswer(expected: AudioExpectation | undefined): AnswerReading {
  const chunks: Buffer[] = [];
  return {
    push(chunk) {
      chunks.push(chunk);
    },
    end() {
      const check = checkAudio(Buffer.concat(chunks), expected ?? UNKNOWN_AUDIO);
      chunks.length = 0;
      return check.verdict === 'whole' ? WHOLE : notWhole(check.reason);
    },
    stored: (body) => body,
  };
}

const UNKNOWN_AUDIO: AudioExpectation = { layout: { kind: 'unknown' }, leastMs: 0 };

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
  /**
   * Where the lines carry the audio (`of`: a line's audio, base64), what it is checked against once the lines
   * are whole (`audioAnswer`'s check): lines with no final one say nothing of an answer ended between two.
   */
  readonly audio?: {
    readonly of: (value: unknown) => string | undefined;
    readonly expected: AudioExpectation;
  };
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
  const audio: Buffer[] = [];
  const count = (value: unknown): void => {
    const kind = kindOf(rules.line, value);
    tally.count(kind);
    const base64 = kind === 'error' ? undefined : rules.audio?.of(value);
    if (base64) audio.push(Buffer.from(base64, 'base64'));
  };
  const read = (line: string): void => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      tally.count('error');
      return;
    }
    count(value);
  };
  const verdict = (cut: boolean): AnswerVerdict => {
    const framed = tally.verdict(cut);
    if (!framed.complete || !rules.audio) return framed;
    const check = checkAudio(Buffer.concat(audio), rules.audio.expected);
    return check.verdict === 'whole' ? WHOLE : notWhole(check.reason);
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
      if (rest.trim() === '') return verdict(false);
      let last: unknown;
      try {
        last = JSON.parse(rest);
      } catch {
        return tally.verdict(true);
      }
      count(last);
      return verdict(false);
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
