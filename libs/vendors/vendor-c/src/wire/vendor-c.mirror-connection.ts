import { RouterError, type SynthSettings, type WordTiming } from '@router/contracts';
import {
  type JsonMessage,
  JsonSocketConnection,
  type MessageProblem,
  refuseJson,
  sendJson,
  type SocketClose,
  type SocketCommand,
  type SocketContextRenderer,
  type SocketFrame,
  type SocketHandshake,
  flagIsSet,
} from '@router/vendors-core';
import type { MsAlignment } from './vendor-c.alignment';
import { socketError, type VendorCProblem } from './vendor-c.errors';
import { Id3Skipper } from './vendor-c.id3';
import { socketSettingsSource, vendorCSynthSettings } from './vendor-c.settings';
import { contextTags, parseSocketQuery, type SocketQuery, TOO_MANY_CONTEXTS } from './vendor-c.socket';

/*
 * What vendor_c's three mirror sockets share on top of the JSON socket kit: the query read at the handshake
 * (refused on the socket), what a message asks, refusal frames and their closes, the context limit's
 * refusal, a context's settings mapped as /v1/stream's, and a context's frames (audio, alignment, errors).
 */

type Problem = Pick<VendorCProblem, 'status' | 'code' | 'message'>;

/**
 * What a vendor_c message asks. Its messages have no type field: `close_socket` and `close_context` say
 * they end something, and any other message is input (text, settings, flush) read by the socket.
 */
export type VendorCMessageKind = 'input' | 'close-context' | 'close-socket';

/** A refusal frame for one problem, and the close the vendor follows it with. */
export function refusal(problem: Problem, contextId?: string): Extract<SocketCommand, { kind: 'refuse' }> {
  const frame = socketError(problem, contextId);
  return refuseJson(frame, { code: frame['code'] as number, reason: problem.code });
}

/** The refusal of a context opened while the socket holds as many as it may (the socket stays open). */
export function tooManyContexts(contextId: string): SocketCommand {
  return sendJson(socketError(TOO_MANY_CONTEXTS, contextId));
}

/** A connection of one of vendor_c's sockets; its subclass reads the socket's own messages. */
export abstract class VendorCConnection extends JsonSocketConnection<VendorCMessageKind> {
  private readonly query: ReturnType<typeof parseSocketQuery>;

  protected constructor(handshake: SocketHandshake, socket: 'speech' | 'dialogue') {
    super();
    this.query = parseSocketQuery(handshake.query, socket);
  }

  override opened(): SocketCommand[] {
    if (this.query.ok) return [];
    return [refusal({ status: 422, code: 'invalid_request', message: this.query.message })];
  }

  abstract override context(id: string): SocketContextRenderer;

  protected kindOf(message: JsonMessage): VendorCMessageKind {
    if (flagIsSet(message['close_socket'])) return 'close-socket';
    return flagIsSet(message['close_context']) ? 'close-context' : 'input';
  }

  protected message(kind: VendorCMessageKind, message: JsonMessage): SocketCommand[] {
    // A socket whose query was refused is closed as it opens; nothing it sends after is read.
    return this.query.ok ? this.socketMessage(kind, message, this.query.value) : [];
  }

  /** Every message the vendor cannot read is refused as invalid, and the socket closed (1008). */
  protected refuse(problem: MessageProblem): SocketCommand[] {
    return [refusal({ status: 422, code: 'invalid_request', message: problem.message })];
  }

  /** Commands for one message, once the query is known to be valid. */
  protected abstract socketMessage(
    kind: VendorCMessageKind,
    message: JsonMessage,
    query: SocketQuery,
  ): SocketCommand[];

  /** Whether the output is MP3, whose later sentences in a context lose their ID3 tag. */
  protected get mp3(): boolean {
    return this.query.ok && this.query.value.output.audio.codec === 'mp3';
  }

  /**
   * The context's settings for a voice, from the query and the context's voice settings, as /v1/stream
   * resolves a native client's; a refusal (tagged with `tag`) where the router's settings cannot say them.
   */
  protected configure(
    context: string,
    voiceId: string,
    query: SocketQuery,
    init: Parameters<typeof socketSettingsSource>[2],
    tag: string | undefined,
  ): Extract<SocketCommand, { kind: 'configure' | 'refuse' }> {
    let settings: SynthSettings;
    try {
      settings = vendorCSynthSettings(socketSettingsSource(voiceId, query, init)).settings;
    } catch (error) {
      const text = error instanceof RouterError ? error.message : 'These settings cannot be used.';
      return refusal({ status: 422, code: 'invalid_request', message: text }, tag);
    }
    return { kind: 'configure', context, settings };
  }
}

/** How a context's frames end, which differs per socket. */
export interface ContextEnds {
  /** The frame after a context's last audio. */
  final(contextId: string | undefined): Record<string, unknown>;
  /** Frames when a flush's sentences have all been sent (none unless the socket marks them). */
  flushed?(contextId: string | undefined, tag: string | undefined): SocketFrame[];
}

/**
 * One context's frames: audio as it comes (no ID3 tag after the context's first sentence), then the
 * sentence's alignment in a frame of its own; `contextId` tags every frame where the client named contexts.
 */
export class VendorCContextRenderer implements SocketContextRenderer {
  private sentences = 0;
  private skipper: Id3Skipper | undefined;

  constructor(
    private readonly contextId: string | undefined,
    private readonly mp3: boolean,
    private readonly ends: ContextEnds,
  ) {}

  audio(chunk: Buffer, at: { sentence: number; first: boolean }): SocketFrame[] {
    if (at.first) {
      this.skipper = this.mp3 && this.sentences > 0 ? new Id3Skipper() : undefined;
      this.sentences += 1;
    }
    const bytes = this.skipper ? this.skipper.push(chunk) : chunk;
    if (bytes.length === 0) return [];
    return [
      JSON.stringify({
        audio: bytes.toString('base64'),
        normalizedAlignment: null,
        alignment: null,
        ...contextTags(this.contextId),
      }),
    ];
  }

  sentenceEnd(end: {
    sentence: number;
    text: string;
    words: WordTiming[] | null;
    chars: WordTiming[] | null;
  }): SocketFrame[] {
    const alignment = end.chars
      ? timedCharacters(end.text, end.chars)
      : end.words
        ? charAlignment(end.text, end.words)
        : null;
    if (!alignment) return [];
    return [
      JSON.stringify({
        audio: null,
        normalizedAlignment: alignment,
        alignment,
        ...contextTags(this.contextId),
      }),
    ];
  }

  flushed(tag: string | undefined): SocketFrame[] {
    return this.ends.flushed?.(this.contextId, tag) ?? [];
  }

  finished(): SocketFrame[] {
    return [JSON.stringify(this.ends.final(this.contextId))];
  }

  failed(error: RouterError): { frames: SocketFrame[]; close?: SocketClose } {
    const status = error.providerStatus ?? error.status;
    const problem = { status, code: vendorCode(error), message: error.message };
    const frame = socketError(problem, this.contextId);
    // A socket of named contexts stays open for the others; a single stream ends, as the vendor's does.
    return this.contextId === undefined
      ? { frames: [JSON.stringify(frame)], close: { code: frame['code'] as number, reason: problem.code } }
      : { frames: [JSON.stringify(frame)] };
  }
}

/** The vendor's error code for a router error (the vendor's own where it refused). */
function vendorCode(error: RouterError): string {
  switch (error.code) {
    case 'bad_request':
      return 'invalid_request';
    case 'provider_rate_limited':
      return 'too_many_concurrent_requests';
    case 'provider_rejected':
      return 'invalid_request';
    // The org has no vendor_c key (deleted while the socket was open): a key problem, as REST refuses it.
    case 'provider_key_missing':
      return 'invalid_api_key';
    default:
      return error.retryable ? 'system_busy' : 'internal_server_error';
  }
}

/** The vendor's own character timings, cached with the audio, with the characters read from the sentence. */
export function timedCharacters(text: string, chars: readonly WordTiming[]): MsAlignment {
  return {
    chars: chars.map((c) => text.slice(c.start, c.end)),
    charStartTimesMs: chars.map((c) => Math.round(c.startMs)),
    charDurationsMs: chars.map((c) => Math.max(0, Math.round(c.endMs - c.startMs))),
  };
}

/**
 * Each character of a sentence with its time where the vendor gave only word timings (a take cached before
 * character timings were): a word's
 * characters share its span evenly; a character between words starts where the word before ended and takes
 * no time (ms from the start of the sentence's audio).
 */
export function charAlignment(text: string, words: readonly WordTiming[]): MsAlignment {
  const chars = [...text];
  const starts: number[] = [];
  const durations: number[] = [];
  let offset = 0; // UTF-16 offset of the character, as word timings count
  let word = 0;
  let lastEndMs = 0;
  for (const char of chars) {
    while (word < words.length && (words[word]?.end ?? 0) <= offset) {
      lastEndMs = words[word]?.endMs ?? lastEndMs;
      word += 1;
    }
    const w = words[word];
    if (w && offset >= w.start && offset < w.end) {
      const span = (w.endMs - w.startMs) / (w.end - w.start);
      starts.push(Math.round(w.startMs + (offset - w.start) * span));
      durations.push(Math.max(1, Math.round(span * char.length)));
    } else {
      starts.push(Math.round(lastEndMs));
      durations.push(0);
    }
    offset += char.length;
  }
  return { chars, charStartTimesMs: starts, charDurationsMs: durations };
}
