import {
  type JsonMessage,
  type SocketCommand,
  type SocketContextRenderer,
  SocketContexts,
  type SocketFrame,
  type SocketHandshake,
} from '@router/vendors-core';
import {
  dialogueFinalFrame,
  parseDialogueSocketMessage,
  turnFinalFrame,
  type DialogueSocketMessage,
} from './vendor-c.dialogue-socket';
import {
  refusal,
  tooManyContexts,
  VendorCConnection,
  VendorCContextRenderer,
  type VendorCMessageKind,
} from './vendor-c.mirror-connection';
import { MAX_CONTEXTS, type SocketQuery } from './vendor-c.socket';

/** The tag of a flush that ends a speaker's turn (a client's flush has none): its audio ends the turn. */
const TURN_END = 'turn';

/** What the connection knows of one dialogue context. */
interface DialogueContext {
  /** How frames name the context: its id where the client named it, none on the socket's one context. */
  readonly tag: string | undefined;
  /** The voice the context's settings are for (undefined until its first line, or after new settings). */
  voice: string | undefined;
  /** The last voice that spoke, to tell where a speaker's turn ends. */
  speaker: string | undefined;
  /** `voice_settings` of the context, for every voice (dialogue models take `stability` only). */
  voiceSettings: Readonly<Record<string, unknown>> | undefined;
  /** Text has been given since the last turn ended. */
  turnOpen: boolean;
}

/**
 * `text-to-dialogue/multi-stream-input` on the mirror: each input `{text, voice_id}` is text for its voice,
 * spoken with that voice's settings (the context is configured for the voice before its text, so text held
 * under the voice before is spoken with that voice's). A speaker's turn ends where the next input has
 * another voice or `new_turn`, or at `close_socket`; once its audio has all been sent, the turn's
 * `is_final_audio_for_turn` follows. Inputs are text as it comes (as `stream-input`'s `text`): a turn's
 * inputs are joined as given and split into sentences by the router. The socket has one context unless the
 * messages name more by `context_id`; frames are tagged only where the client named the context.
 */
export class VendorCDialogueConnection extends VendorCConnection {
  private readonly contexts = new SocketContexts<DialogueContext>(MAX_CONTEXTS);
  /** Contexts the client named by `context_id`, open or closed. */
  private readonly named = new Set<string>();

  constructor(handshake: SocketHandshake) {
    super(handshake, 'dialogue');
  }

  context(id: string): SocketContextRenderer {
    // A context closed by the message that first reaches the session is no longer known here.
    const tag = this.contexts.get(id)?.tag ?? (this.named.has(id) ? id : undefined);
    return new VendorCContextRenderer(tag, this.mp3, {
      final: dialogueFinalFrame,
      flushed: (contextTag, flush): SocketFrame[] =>
        flush === TURN_END ? [JSON.stringify(turnFinalFrame(contextTag))] : [],
    });
  }

  protected socketMessage(kind: VendorCMessageKind, json: JsonMessage, query: SocketQuery): SocketCommand[] {
    const parsed = parseDialogueSocketMessage(json);
    if (!parsed.ok) return [refusal(parsed.problem, this.known(json)?.tag)];
    const message = parsed.value;
    switch (kind) {
      case 'close-socket': {
        const ends = [...this.contexts.entries()].flatMap(([id, context]) => this.endTurn(id, context));
        return [...ends, { kind: 'close' }];
      }
      case 'close-context':
        // As on multi-stream-input: what was flushed is spoken, the rest dropped, then `is_final`.
        return this.contexts.delete(message.contextId) ? [{ kind: 'drain', context: message.contextId }] : [];
      case 'input':
        return this.input(message, typeof json['context_id'] === 'string', query);
    }
  }

  /** A message of lines (or none) for its context, opened by it when new. */
  private input(message: DialogueSocketMessage, named: boolean, query: SocketQuery): SocketCommand[] {
    const id = message.contextId;
    let context = this.contexts.get(id);
    if (!context) {
      if (!this.contexts.canOpen(id)) return [tooManyContexts(id)];
      if (named) this.named.add(id);
      context = newContext(named ? id : undefined);
      this.contexts.set(id, context);
    }
    return this.inputs(id, context, message, query);
  }

  /** The lines of a message, each after the turn end and the settings its voice needs. */
  private inputs(
    id: string,
    context: DialogueContext,
    message: DialogueSocketMessage,
    query: SocketQuery,
  ): SocketCommand[] {
    if (message.voiceSettings) {
      // As on the speech sockets: the fields sent override, the rest stay (`{}` changes nothing).
      context.voiceSettings = { ...context.voiceSettings, ...message.voiceSettings };
      context.voice = undefined;
    }
    const commands: SocketCommand[] = [];
    for (const input of message.inputs) {
      // An empty text keeps the context alive, as on the other sockets.
      if (input.text.trim() === '') continue;
      if (input.newTurn || input.voiceId !== context.speaker) commands.push(...this.endTurn(id, context));
      if (input.voiceId !== context.voice) {
        const init = { voiceSettings: context.voiceSettings, pronunciationDictionaryLocators: undefined };
        const configured = this.configure(id, input.voiceId, query, init, context.tag);
        if (configured.kind === 'refuse') return [...commands, this.refused(configured, context)];
        commands.push(configured);
        context.voice = input.voiceId;
      }
      context.speaker = input.voiceId;
      context.turnOpen = true;
      commands.push({ kind: 'text', context: id, text: input.text });
      if (query.autoMode) commands.push({ kind: 'flush', context: id });
    }
    // A flush before the context's first line has nothing to end.
    if (message.flush && context.speaker !== undefined) commands.push({ kind: 'flush', context: id });
    return commands;
  }

  /** The end of the speaker's turn in progress, if one is. */
  private endTurn(id: string, context: DialogueContext): SocketCommand[] {
    if (!context.turnOpen) return [];
    context.turnOpen = false;
    return [{ kind: 'flush', context: id, tag: TURN_END }];
  }

  /** Settings refused for a named context are reported on it; the socket's one context ends the socket. */
  private refused(
    command: Extract<SocketCommand, { kind: 'refuse' }>,
    context: DialogueContext,
  ): SocketCommand {
    return context.tag === undefined ? command : { kind: 'send', frame: command.frame };
  }

  private known(json: JsonMessage): DialogueContext | undefined {
    const id = json['context_id'];
    return typeof id === 'string' ? this.contexts.get(id) : undefined;
  }
}

function newContext(tag: string | undefined): DialogueContext {
  return {
    tag,
    voice: undefined,
    speaker: undefined,
    voiceSettings: undefined,
    turnOpen: false,
  };
}
