import type { MirrorSocketRoute, SocketCommand, SocketContextRenderer } from '@router/vendors-core';
import { socketError } from './vendor-c.errors';
import { VendorCConnection, VendorCContextRenderer, refusal } from './vendor-c.mirror-connection';
import { VendorCDialogueConnection } from './vendor-c.mirror-dialogue-socket';
import {
  DEFAULT_CONTEXT_ID,
  DEFAULT_INACTIVITY_S,
  finalFrame,
  inactivityReason,
  parseSocketQuery,
  parseStreamInputMessage,
  type SocketQuery,
  type StreamInputMessage,
} from './vendor-c.socket';

type SpeechSocket = 'stream-input' | 'multi-stream-input';

/** The policy-violation close the vendor uses for refusals and idle sockets. */
const CLOSE_POLICY = 1008;

/**
 * vendor_c's sockets on its mirror: `stream-input`, `multi-stream-input` and the dialogue socket. The
 * vendor's messages become the router's commands (each context a reply of its own, split into sentences by
 * the router), and each sentence's audio goes back in the vendor's frames. Differences from the vendor are
 * written in the vendor lib's README: a sentence's character alignment (from the character timings cached
 * with the audio) comes in one frame after its audio, with `audio: null`. `close_context` ends a context as
 * the vendor does: the text flushed before it is spoken (its audio and alignment), text not yet flushed is
 * dropped, then `isFinal` (`is_final` on dialogue).
 */
export const vendorCSocketRoutes: readonly MirrorSocketRoute[] = [
  socketRoute(/^\/v1\/text-to-speech\/([^/]+)\/stream-input$/, 'speech', (voice, query) => {
    return new VendorCSpeechConnection('stream-input', voice, query);
  }),
  socketRoute(/^\/v1\/text-to-speech\/([^/]+)\/multi-stream-input$/, 'speech', (voice, query) => {
    return new VendorCSpeechConnection('multi-stream-input', voice, query);
  }),
  socketRoute(/^\/v1\/text-to-dialogue\/multi-stream-input$/, 'dialogue', (_voice, query) => {
    return new VendorCDialogueConnection(query);
  }),
];

function socketRoute(
  path: RegExp,
  socket: 'speech' | 'dialogue',
  open: (voice: string, query: URLSearchParams) => VendorCConnection,
): MirrorSocketRoute {
  return {
    path,
    open: (params, query) => open(params[0] ?? '', query),
    idle: (query) => {
      const parsed = parseSocketQuery(query, socket);
      const ms = (parsed.ok ? parsed.value.inactivitySeconds : DEFAULT_INACTIVITY_S) * 1000;
      return { ms, code: CLOSE_POLICY, reason: inactivityReason(ms) };
    },
  };
}

/** What a context's messages have set of its settings so far. */
type ContextSettings = Pick<StreamInputMessage, 'voiceSettings' | 'pronunciationDictionaryLocators'>;

/** `stream-input` and `multi-stream-input`: one voice (the path's), contexts ending with `isFinal`. */
class VendorCSpeechConnection extends VendorCConnection {
  /** Contexts open now (the single socket's one included), by id, with their settings. */
  private readonly open = new Map<string, ContextSettings>();
  /** `multi-stream-input` contexts whose opening settings were refused, with the refusal's error frame. */
  private readonly refused = new Map<string, string>();

  constructor(
    private readonly kind: SpeechSocket,
    private readonly voiceId: string,
    query: URLSearchParams,
  ) {
    super(query, 'speech');
  }

  context(id: string): SocketContextRenderer {
    return new VendorCContextRenderer(this.contextTag(id), this.mp3, { final: finalFrame });
  }

  protected message(json: Record<string, unknown>, query: SocketQuery): SocketCommand[] {
    const message = parseStreamInputMessage(json);
    return this.kind === 'stream-input' ? this.single(message, query) : this.multi(message, query);
  }

  /** `stream-input`: the first message opens the stream (its text a single space); `""` ends it. */
  private single(message: StreamInputMessage, query: SocketQuery): SocketCommand[] {
    const id = DEFAULT_CONTEXT_ID;
    if (message.settingsProblem) return [refusal(message.settingsProblem)];
    const commands: SocketCommand[] = [];
    const opening = !this.open.has(id);
    if (opening || message.voiceSettings) {
      const settings = this.settingsWith(id, message);
      const configured = this.configure(id, this.voiceId, query, settings, undefined);
      if (configured.kind === 'refuse') return [configured];
      commands.push(configured);
      this.open.set(id, settings);
    }
    const { text } = message;
    if (text === '' && !opening) return [...commands, { kind: 'close' }];
    return [...commands, ...this.textCommands(id, message, query)];
  }

  /**
   * `multi-stream-input`: contexts by `context_id`, each opened by its first message. A context whose opening
   * settings are refused stays refused: each later message of it gets the same error frame (the socket stays
   * open for the others), so no text of it is ever spoken with other settings; its `close_context` gets the
   * error too and frees the id. It counts against the context limit until then.
   */
  private multi(message: StreamInputMessage, query: SocketQuery): SocketCommand[] {
    if (message.closeSocket) return [{ kind: 'close' }];
    const id = message.contextId;
    const refused = this.refused.get(id);
    if (refused !== undefined) {
      if (message.closeContext) this.refused.delete(id);
      return [{ kind: 'send', frame: refused }];
    }
    const opening = !this.open.has(id);
    if (opening && message.closeContext) return [];
    const full = opening ? this.contextLimit(this.open.size + this.refused.size, id) : undefined;
    if (full) return [full];
    if (message.settingsProblem) {
      return [this.refuseSettings(id, opening, JSON.stringify(socketError(message.settingsProblem, id)))];
    }
    const commands: SocketCommand[] = [];
    if (opening || message.voiceSettings) {
      const settings = this.settingsWith(id, message);
      const configured = this.configure(id, this.voiceId, query, settings, id);
      if (configured.kind === 'refuse') return [this.refuseSettings(id, opening, configured.frame)];
      commands.push(configured);
      this.open.set(id, settings);
    }
    if (message.closeContext) {
      // The vendor speaks what was flushed before the close, then ends the context; the rest is dropped.
      this.open.delete(id);
      return [...commands, { kind: 'drain', context: id }];
    }
    return [...commands, ...this.textCommands(id, message, query)];
  }

  /**
   * The error frame for a context's refused settings. Refused on opening, the context is remembered as
   * refused; refused later, the context goes on with the settings it had.
   */
  private refuseSettings(id: string, opening: boolean, frame: string): SocketCommand {
    if (opening) this.refused.set(id, frame);
    return { kind: 'send', frame };
  }

  /**
   * A context's settings once a message's are applied: the voice-settings fields it sends override those
   * sent before, the others stay (the vendor takes fields never sent from the voice's stored settings), and
   * dictionaries it sends replace the earlier ones.
   */
  private settingsWith(id: string, message: StreamInputMessage): ContextSettings {
    const before = this.open.get(id);
    return {
      voiceSettings: message.voiceSettings
        ? { ...before?.voiceSettings, ...message.voiceSettings }
        : before?.voiceSettings,
      pronunciationDictionaryLocators:
        message.pronunciationDictionaryLocators ?? before?.pronunciationDictionaryLocators,
    };
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

  private contextTag(id: string): string | undefined {
    return this.kind === 'multi-stream-input' ? id : undefined;
  }
}
