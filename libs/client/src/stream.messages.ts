import type { AudioFormat, JsonValue, SampleRate } from './api.types';
import { errorBodyOf, type RouterErrorBody } from './client.errors';

/**
 * The `/v1/stream` messages exactly as docs/stream-protocol.md has them on the wire (snake_case), with
 * the checks that turn a received text frame into one of them.
 */

/** The synthesis settings of a stream: the speech body's settings, vendor options in `options`. */
export interface StreamSettings {
  /** `<provider>/<model_id>`. */
  model: string;
  voice: string;
  language?: string | null;
  /** Default `mp3`. */
  response_format?: AudioFormat;
  speed?: number;
  /** The catalogue's streaming `sample_rates`. */
  sample_rate?: SampleRate;
  /** Vendor options under their catalogue names; a null option is its catalogue default. */
  options?: { [name: string]: JsonValue };
}

/**
 * The settings in force as the router resolved them (`ready`): every field present, defaults filled in.
 * Not always valid as input again: `speed` is null for a vendor without a top-level speed, and the speech
 * body (hence `updateSettings()`) takes a number or nothing there.
 */
export interface ResolvedStreamSettings {
  model: string;
  voice: string;
  /** Null where none was given and the vendor has no default. */
  language: string | null;
  response_format: AudioFormat;
  /**
   * Null where no speed is sent: a vendor without a top-level speed (vendor_c, vendor_j), or one whose
   * speed is optional and was left out (vendor_i).
   */
  speed: number | null;
  sample_rate: SampleRate;
  /**
   * The options that apply to the model and format, by catalogue name, with the value sent or its default
   * (null where it has none); options of other models or formats are left out.
   */
  options: { [name: string]: JsonValue };
}

// Client → router.

export interface SettingsMessage extends StreamSettings {
  type: 'settings';
}
export interface TextMessage {
  type: 'text';
  text: string;
}
export interface FlushMessage {
  type: 'flush';
  id?: string;
}
export interface InterruptMessage {
  type: 'interrupt';
  played_ms?: number;
}
export interface CloseMessage {
  type: 'close';
}
export type ClientMessage = SettingsMessage | TextMessage | FlushMessage | InterruptMessage | CloseMessage;

// Router → client.

export interface ReadyMessage {
  type: 'ready';
  session_id: string;
  settings: ResolvedStreamSettings;
}
export interface SentenceStartMessage {
  type: 'sentence_start';
  sentence: number;
  /** The piece as sent to the vendor (whitespace collapsed). */
  text: string;
  cached: boolean;
}
export interface WireWordTiming {
  word: string;
  /** Character offsets into the sentence's `text`. */
  start: number;
  end: number;
  /** Times from the start of the sentence's audio. */
  start_ms: number;
  end_ms: number;
}
export interface WordsMessage {
  type: 'words';
  sentence: number;
  words: WireWordTiming[];
}
export interface SentenceEndMessage {
  type: 'sentence_end';
  sentence: number;
  bytes: number;
  /** Null where the router cannot tell without decoding. */
  duration_ms: number | null;
}
export interface FlushedMessage {
  type: 'flushed';
  id: string | null;
  /**
   * The last sentence released before the flush on this connection (a flush with no new text names the
   * same one again), or null when none had been.
   */
  last_sentence: number | null;
}
export interface InterruptedMessage {
  type: 'interrupted';
  last_spoken: number | null;
  text_spoken: string;
  text_remaining: string;
}
export interface ErrorMessage {
  type: 'error';
  error: RouterErrorBody;
  /**
   * The failed sentence, when a sentence failed. Without it the error answers a `settings` message, or
   * refuses a malformed one, or is an `internal` failure.
   */
  sentence?: number;
}
export type ServerMessage =
  | ReadyMessage
  | SentenceStartMessage
  | WordsMessage
  | SentenceEndMessage
  | FlushedMessage
  | InterruptedMessage
  | ErrorMessage;

/** A binary frame: audio of the sentence most recently started (null if none had started). */
export interface AudioFrame {
  type: 'audio';
  sentence: number | null;
  data: Uint8Array;
}

/** Everything the router sends, in order: its messages and its audio frames. */
export type StreamEvent = ServerMessage | AudioFrame;

/** A text frame that is not a message of the protocol (the session closes with 1002). */
export class ProtocolViolation extends Error {
  override readonly name = 'ProtocolViolation';
}

type Fields = Record<string, unknown>;

const isIndex = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isIndexOrNull = (v: unknown): v is number | null => v === null || isIndex(v);

function check(ok: boolean, type: string, field: string): void {
  if (!ok) throw new ProtocolViolation(`A "${type}" message with a missing or invalid "${field}"`);
}

function isWord(v: unknown): v is WireWordTiming {
  if (typeof v !== 'object' || v === null) return false;
  const w = v as Fields;
  return (
    typeof w.word === 'string' &&
    isIndex(w.start) &&
    isIndex(w.end) &&
    isNumber(w.start_ms) &&
    isNumber(w.end_ms)
  );
}

/**
 * Checks a text frame from the router. Returns null for a message type this version does not know (a
 * newer router may add some); throws ProtocolViolation for anything else that is not as documented.
 */
export function parseServerMessage(text: string): ServerMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ProtocolViolation('A text frame that is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ProtocolViolation('A text frame that is not a JSON object');
  }
  const m = value as Fields;
  switch (m.type) {
    case 'ready':
      check(typeof m.session_id === 'string', 'ready', 'session_id');
      check(typeof m.settings === 'object' && m.settings !== null, 'ready', 'settings');
      return m as unknown as ReadyMessage;
    case 'sentence_start':
      check(isIndex(m.sentence), 'sentence_start', 'sentence');
      check(typeof m.text === 'string', 'sentence_start', 'text');
      check(typeof m.cached === 'boolean', 'sentence_start', 'cached');
      return m as unknown as SentenceStartMessage;
    case 'words':
      check(isIndex(m.sentence), 'words', 'sentence');
      check(Array.isArray(m.words) && m.words.every(isWord), 'words', 'words');
      return m as unknown as WordsMessage;
    case 'sentence_end':
      check(isIndex(m.sentence), 'sentence_end', 'sentence');
      check(isIndex(m.bytes), 'sentence_end', 'bytes');
      check(m.duration_ms === null || isNumber(m.duration_ms), 'sentence_end', 'duration_ms');
      return m as unknown as SentenceEndMessage;
    case 'flushed':
      check(m.id === null || typeof m.id === 'string', 'flushed', 'id');
      check(isIndexOrNull(m.last_sentence), 'flushed', 'last_sentence');
      return m as unknown as FlushedMessage;
    case 'interrupted':
      check(isIndexOrNull(m.last_spoken), 'interrupted', 'last_spoken');
      check(typeof m.text_spoken === 'string', 'interrupted', 'text_spoken');
      check(typeof m.text_remaining === 'string', 'interrupted', 'text_remaining');
      return m as unknown as InterruptedMessage;
    case 'error': {
      const error = errorBodyOf(m);
      if (error === null) throw new ProtocolViolation('An "error" message with a missing or invalid "error"');
      if (m.sentence === undefined || m.sentence === null) return { type: 'error', error };
      check(isIndex(m.sentence), 'error', 'sentence');
      return { type: 'error', error, sentence: m.sentence as number };
    }
    default:
      check(typeof m.type === 'string', 'untyped', 'type');
      return null;
  }
}

/** The limit of one `text` message, in UTF-16 code units (never more characters than the router's limit). */
export const MAX_TEXT_LENGTH = 20_000;

/**
 * Cuts a text delta into `text` messages within the router's limit, never between the two halves of a
 * surrogate pair. The router joins consecutive deltas, so the cut changes nothing it speaks.
 */
export function textMessages(text: string, limit: number = MAX_TEXT_LENGTH): TextMessage[] {
  const messages: TextMessage[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + limit, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    messages.push({ type: 'text', text: text.slice(start, end) });
    start = end;
  }
  return messages;
}
