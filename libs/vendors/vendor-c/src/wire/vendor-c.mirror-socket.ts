import {
  type JsonMessage,
  type MirrorSocketRoute,
  SOCKET_CLOSE,
  type SocketCommand,
  type SocketContextRenderer,
  SocketContexts,
  type SocketHandshake,
} from '@router/vendors-core';
import { socketError } from './vendor-c.errors';
import {
  refusal,
  tooManyContexts,
  VendorCConnection,
  VendorCContextRenderer,
  type VendorCMessageKind,
} from './vendor-c.mirror-connection';
import { VendorCDialogueConnection } from './vendor-c.mirror-dialogue-socket';
import {
  DEFAULT_CONTEXT_ID,
  DEFAULT_INACTIVITY_S,
  finalFrame,
  inactivityReason,
  MAX_CONTEXTS,
  parseSocketQuery,
  parseStreamInputMessage,
  type SocketQuery,
  type StreamInputMessage,
} from './vendor-c.socket';

type SpeechSocket = 'stream-input' | 'multi-stream-input';

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
  socketRoute(/^\/v1\/text-to-speech\/([^/]+)\/stream-input$/, 'speech', (handshake) => {
    return new VendorCSpeechConnection('stream-input', handshake);
  }),
  socketRoute(/^\/v1\/text-to-speech\/([^/]+)\/multi-stream-input$/, 'speech', (handshake) => {
    return new VendorCSpeechConnection('multi-stream-input', handshake);
  }),
  socketRoute(/^\/v1\/text-to-dialogue\/multi-stream-input$/, 'dialogue', (handshake) => {
    return new VendorCDialogueConnection(handshake);
  }),
];

function socketRoute(
  path: RegExp,
  socket: 'speech' | 'dialogue',
  open: (handshake: SocketHandshake) => VendorCConnection,
): MirrorSocketRoute {
  return {
    path,
    open,
    idle: ({ query }) => {
      const parsed = parseSocketQuery(query, socket);
      const ms = (parsed.ok ? parsed.value.inactivitySeconds : DEFAULT_INACTIVITY_S) * 1000;
      // The vendor's clock counts the client's messages but never runs out while it speaks: sends count too.
      return { ms, code: SOCKET_CLOSE.policy, reason: inactivityReason(ms), clock: 'either' };
    },
  };
}

/** What a context's messages have set of its settings so far. */
type ContextSettings = Pick<StreamInputMessage, 'voiceSettings' | 'pronunciationDictionaryLocators'>;

/**
 * A context the connection holds: open with its settings, or refused on opening (kept with the refusal's
 * error frame until the client closes it).
 */
type SpeechContext = { settings: ContextSettings } | { refused: string };

/** `stream-input` and `multi-stream-input`: one voice (the path's), contexts ending with `isFinal`. */
class VendorCSpeechConnection extends VendorCConnection {
  /** Contexts open now (the single socket's one included) and those refused on opening, by id. */
  private readonly contexts = new SocketContexts<SpeechContext>(MAX_CONTEXTS);
  private readonly voiceId: string;

  constructor(
    private readonly kind: SpeechSocket,
    handshake: SocketHandshake,
  ) {
    super(handshake, 'speech');
    this.voiceId = handshake.params[0] ?? '';
  }

  context(id: string): SocketContextRenderer {
    return new VendorCContextRenderer(this.contextTag(id), this.mp3, { final: finalFrame });
  }

  protected socketMessage(kind: VendorCMessageKind, json: JsonMessage, query: SocketQuery): SocketCommand[] {
    const message = parseStreamInputMessage(json);
    // `stream-input` has one stream and no contexts to close: every message is input to it.
    if (this.kind === 'stream-input') return this.single(message, query);
    switch (kind) {
      case 'close-socket':
        return [{ kind: 'close' }];
      case 'close-context':
        return this.closeContext(message.contextId);
      case 'input':
        return this.multi(message, query);
    }
  }

  /** `stream-input`: the first message opens the stream (its text a single space); `""` ends it. */
  private single(message: StreamInputMessage, query: SocketQuery): SocketCommand[] {
    const id = DEFAULT_CONTEXT_ID;
    if (message.settingsProblem) return [refusal(message.settingsProblem)];
    const commands: SocketCommand[] = [];
    const opening = !this.contexts.has(id);
    if (opening || message.voiceSettings) {
      const settings = this.settingsWith(id, message);
      const configured = this.configure(id, this.voiceId, query, settings, undefined);
      if (configured.kind === 'refuse') return [configured];
      commands.push(configured);
      this.contexts.set(id, { settings });
    }
    const { text } = message;
    if (text === '' && !opening) return [...commands, { kind: 'close' }];
    return [...commands, ...this.textCommands(id, message, query)];
  }

  /**
   * `multi-stream-input`: contexts by `context_id`, each opened by its first message. A context whose opening
   * settings are refused stays refused: each later message of it gets the same error frame (the socket stays
   * open for the others), so no text of it is ever spoken with other settings. It counts against the context
   * limit until its `close_context`.
   */
  private multi(message: StreamInputMessage, query: SocketQuery): SocketCommand[] {
    const id = message.contextId;
    const context = this.contexts.get(id);
    if (context && 'refused' in context) return [{ kind: 'send', frame: context.refused }];
    const opening = context === undefined;
    if (opening && !this.contexts.canOpen(id)) return [tooManyContexts(id)];
    if (message.settingsProblem) {
      return [this.refuseSettings(id, opening, JSON.stringify(socketError(message.settingsProblem, id)))];
    }
    const commands: SocketCommand[] = [];
    if (opening || message.voiceSettings) {
      const settings = this.settingsWith(id, message);
      const configured = this.configure(id, this.voiceId, query, settings, id);
      if (configured.kind === 'refuse') return [this.refuseSettings(id, opening, configured.frame)];
      commands.push(configured);
      this.contexts.set(id, { settings });
    }
    return [...commands, ...this.textCommands(id, message, query)];
  }

  /**
   * `close_context`: the vendor speaks what was flushed before the close, then ends the context; the rest is
   * dropped. A refused context gets its error once more, and its id is free again; an unknown one, nothing.
   */
  private closeContext(id: string): SocketCommand[] {
    const context = this.contexts.get(id);
    if (!context) return [];
    this.contexts.delete(id);
    if ('refused' in context) return [{ kind: 'send', frame: context.refused }];
    return [{ kind: 'drain', context: id }];
  }

  /**
   * The error frame for a context's refused settings. Refused on opening, the context is remembered as
   * refused; refused later, the context goes on with the settings it had.
   */
  private refuseSettings(id: string, opening: boolean, frame: string): SocketCommand {
    if (opening) this.contexts.set(id, { refused: frame });
    return { kind: 'send', frame };
  }

  /**
   * A context's settings once a message's are applied: the voice-settings fields it sends override those
   * sent before, the others stay (the vendor takes fields never sent from the voice's stored settings), and
   * dictionaries it sends replace the earlier ones.
   */
  private settingsWith(id: string, message: StreamInputMessage): ContextSettings {
    const context = this.contexts.get(id);
    const before = context && 'settings' in context ? context.settings : undefined;
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
