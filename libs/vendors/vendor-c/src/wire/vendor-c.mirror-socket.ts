import { RouterError, type SynthSettings, type WordTiming } from '@router/contracts';
import type {
  MirrorSocketRoute,
  SocketCommand,
  SocketConnection,
  SocketContextRenderer,
  SocketFrame,
} from '@router/vendors-core';
import type { MsAlignment } from './vendor-c.alignment';
import { socketError } from './vendor-c.errors';
import {
  contextTags,
  DEFAULT_CONTEXT_ID,
  finalFrame,
  inactivityReason,
  MAX_CONTEXTS,
  parseSocketQuery,
  parseStreamInputMessage,
  type SocketQuery,
  type StreamInputMessage,
  TOO_MANY_CONTEXTS,
} from './vendor-c.socket';
import { socketSettingsSource, vendorCSynthSettings } from './vendor-c.settings';
import { Id3Skipper } from './vendor-c.id3';

type SocketKind = 'stream-input' | 'multi-stream-input';

/** The policy-violation close the vendor uses for refusals and idle sockets. */
const CLOSE_POLICY = 1008;

/**
 * vendor_c's `stream-input` and `multi-stream-input` sockets on its mirror: the vendor's messages become the
 * router's commands (each context a reply of its own, split into sentences by the router), and each sentence's
 * audio goes back in the vendor's frames. Differences from the vendor, written in the vendor lib's README: a
 * sentence's character alignment (from its word timings, cached with the audio) comes in one frame after its
 * audio, with `audio: null`; `close_context` stops the context as a barge-in (sentences not yet sent dropped,
 * the one playing stopped for the client, finished and cached at the vendor), then `isFinal`.
 */
export const vendorCSocketRoutes: readonly MirrorSocketRoute[] = [
  socketRoute('stream-input', /^\/v1\/text-to-speech\/([^/]+)\/stream-input$/),
  socketRoute('multi-stream-input', /^\/v1\/text-to-speech\/([^/]+)\/multi-stream-input$/),
];

function socketRoute(kind: SocketKind, path: RegExp): MirrorSocketRoute {
  return {
    path,
    open: (params, query) => new VendorCConnection(kind, params[0] ?? '', query),
    idle: (query) => {
      const parsed = parseSocketQuery(query);
      const ms = (parsed.ok ? parsed.value.inactivitySeconds : 20) * 1000;
      return { ms, code: CLOSE_POLICY, reason: inactivityReason(ms) };
    },
  };
}

/** A refusal frame for one problem, and the close the vendor follows it with. */
function refusal(
  problem: { status: number; code: string; message: string },
  contextId?: string,
): Extract<SocketCommand, { kind: 'refuse' }> {
  const frame = socketError(problem, contextId);
  return {
    kind: 'refuse',
    frame: JSON.stringify(frame),
    close: { code: frame['code'] as number, reason: problem.code },
  };
}

class VendorCConnection implements SocketConnection {
  private readonly query: ReturnType<typeof parseSocketQuery>;
  /** Contexts open now (the single socket's one included), by id. */
  private readonly open = new Set<string>();

  constructor(
    private readonly kind: SocketKind,
    private readonly voiceId: string,
    query: URLSearchParams,
  ) {
    this.query = parseSocketQuery(query);
  }

  opened(): SocketCommand[] {
    if (this.query.ok) return [];
    return [refusal({ status: 422, code: 'invalid_request', message: this.query.message })];
  }

  parse(frame: Buffer, isBinary: boolean): SocketCommand[] {
    if (!this.query.ok) return [];
    let json: unknown;
    try {
      json = isBinary ? undefined : JSON.parse(frame.toString('utf8'));
    } catch {
      json = undefined;
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json)) {
      return [refusal({ status: 422, code: 'invalid_request', message: 'Messages must be JSON objects' })];
    }
    const message = parseStreamInputMessage(json as Record<string, unknown>);
    return this.kind === 'stream-input'
      ? this.single(message, this.query.value)
      : this.multi(message, this.query.value);
  }

  context(id: string): SocketContextRenderer {
    const tag = this.kind === 'multi-stream-input' ? id : undefined;
    return new VendorCContextRenderer(tag, this.query.ok && this.query.value.output.audio.codec === 'mp3');
  }

  /** `stream-input`: the first message opens the stream (its text a single space); `""` ends it. */
  private single(message: StreamInputMessage, query: SocketQuery): SocketCommand[] {
    const id = DEFAULT_CONTEXT_ID;
    if (message.settingsProblem) return [refusal(message.settingsProblem)];
    const commands: SocketCommand[] = [];
    const opening = !this.open.has(id);
    if (opening || message.voiceSettings) {
      const configured = this.configure(id, query, message);
      if (configured.kind === 'refuse') return [configured];
      commands.push(configured);
      this.open.add(id);
    }
    const { text } = message;
    if (text === '' && !opening) return [...commands, { kind: 'close' }];
    return [...commands, ...this.textCommands(id, message, query)];
  }

  /** `multi-stream-input`: contexts by `context_id`, each opened by its first message. */
  private multi(message: StreamInputMessage, query: SocketQuery): SocketCommand[] {
    if (message.closeSocket) return [{ kind: 'close' }];
    const id = message.contextId;
    const opening = !this.open.has(id);
    if (opening && message.closeContext) return [];
    if (opening && this.open.size >= MAX_CONTEXTS) {
      return [{ kind: 'send', frame: JSON.stringify(socketError(TOO_MANY_CONTEXTS, id)) }];
    }
    if (message.settingsProblem) {
      return [{ kind: 'send', frame: JSON.stringify(socketError(message.settingsProblem, id)) }];
    }
    const commands: SocketCommand[] = [];
    if (opening || message.voiceSettings) {
      const configured = this.configure(id, query, message);
      if (configured.kind === 'refuse') return [{ kind: 'send', frame: configured.frame }];
      commands.push(configured);
      this.open.add(id);
    }
    if (message.closeContext) {
      this.open.delete(id);
      return [...commands, { kind: 'cancel', context: id }];
    }
    return [...commands, ...this.textCommands(id, message, query)];
  }

  /** Text, and the flush that `flush` (or `auto_mode`: each message on its own) asks for. */
  private textCommands(id: string, message: StreamInputMessage, query: SocketQuery): SocketCommand[] {
    const { text } = message;
    // The message opening a stream or context is its init (text " "); an empty text keeps a context alive.
    const speakable = text !== undefined && text.trim() !== '';
    const commands: SocketCommand[] = speakable ? [{ kind: 'text', context: id, text }] : [];
    if (message.flush || (query.autoMode && speakable)) commands.push({ kind: 'flush', context: id });
    return commands;
  }

  private configure(
    id: string,
    query: SocketQuery,
    message: StreamInputMessage,
  ): Extract<SocketCommand, { kind: 'configure' | 'refuse' }> {
    let settings: SynthSettings;
    try {
      settings = vendorCSynthSettings(socketSettingsSource(this.voiceId, query, message)).settings;
    } catch (error) {
      const text = error instanceof RouterError ? error.message : 'These settings cannot be used.';
      return refusal({ status: 422, code: 'invalid_request', message: text }, this.contextTag(id));
    }
    return { kind: 'configure', context: id, settings };
  }

  private contextTag(id: string): string | undefined {
    return this.kind === 'multi-stream-input' ? id : undefined;
  }
}

/** One context's frames: audio as it comes (no ID3 tag after the context's first sentence), then alignment. */
class VendorCContextRenderer implements SocketContextRenderer {
  private sentences = 0;
  private skipper: Id3Skipper | undefined;

  constructor(
    private readonly contextId: string | undefined,
    private readonly mp3: boolean,
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

  sentenceEnd(end: { sentence: number; text: string; words: WordTiming[] | null }): SocketFrame[] {
    if (!end.words) return [];
    const alignment = charAlignment(end.text, end.words);
    return [
      JSON.stringify({
        audio: null,
        normalizedAlignment: alignment,
        alignment,
        ...contextTags(this.contextId),
      }),
    ];
  }

  flushed(): SocketFrame[] {
    return [];
  }

  finished(): SocketFrame[] {
    return [JSON.stringify(finalFrame(this.contextId))];
  }

  failed(error: RouterError): { frames: SocketFrame[]; close?: { code: number; reason: string } } {
    const status = error.providerStatus ?? error.status;
    const problem = { status, code: vendorCode(error), message: error.message };
    const frame = socketError(problem, this.contextId);
    // A multi-context socket stays open for its other contexts; a single stream ends, as the vendor's does.
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
    default:
      return error.retryable ? 'system_busy' : 'internal_server_error';
  }
}

/**
 * Each character of a sentence with its time, from the word timings cached with its audio: a word's
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
