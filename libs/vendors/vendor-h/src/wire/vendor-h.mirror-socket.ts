import { randomUUID } from 'node:crypto';
import { RouterError, type SynthSettings } from '@router/contracts';
import {
  type ContextEnd,
  type JsonMessage,
  JsonSocketConnection,
  type MessageProblem,
  type MirrorSocketRoute,
  jsonReply,
  SOCKET_CLOSE,
  sendJson,
  type SocketCommand,
  type SocketContextRenderer,
  type SocketFailure,
  type SocketFrame,
  flagIsSet,
} from '@router/vendors-core';
import { parseVendorHRequest } from './vendor-h.requests';
import { vendorHSocketSettings } from './vendor-h.settings';
import {
  readVendorHSocketControl,
  readVendorHSocketTimeout,
  VENDOR_H_IDLE_MS,
  VENDOR_H_PONG,
  vendorHChunkFrame,
  vendorHCompleteFrame,
  vendorHCorrelation,
  vendorHIdleError,
  vendorHSocketError,
  vendorHTurnError,
  type VendorHTurnIds,
} from './vendor-h.socket';

/*
 * vendor_h's socket on its mirror, `/waves/v1/tts/live`: the vendor's messages become the router's commands and
 * each sentence's audio goes back in the vendor's frames (spec: Vendor drop-ins, vendor_h; Events, vendor_h
 * WebSocket). A context (`context_id`, or the connection's own, `''`, when a message names none) is one reply stream;
 * a request (a turn: the messages up to one without `continue: true`) is the text of one context up to a flush
 * tagged with its request id, so the requests of a context play one after the other, never side by side.
 */

type Kind = 'ping' | 'cancel' | 'input';

/** The tag of a client's `flush: true`, which ends the sentence in progress and nothing else. */
const CLIENT_FLUSH = 'flush';

/** One request of a context, from its first message to its last sentence's audio. */
interface Turn {
  readonly ids: VendorHTurnIds;
  /** A sentence of it failed: its `error` was sent, and nothing more of it is spoken. */
  failed: boolean;
}

/**
 * One context as the connection and its renderer share it: the settings it was last given, the request its
 * messages add to, and its requests whose audio is still to come, in order.
 */
interface ContextState {
  settings: string;
  open: Turn | undefined;
  readonly turns: Turn[];
}

/** A request ends with one `complete` after all its audio, unless one of its sentences failed (its `error` ends it). */
const endsWithComplete = (turn: Turn): boolean => !turn.failed;

/**
 * Where the ids of a connection come from: the router's own session id and request ids (spec: `session_id` and
 * `request_id` are the router's own; the client's come back as `external_session_id` / `external_request_id`).
 */
export type VendorHIds = () => string;

/** A vendor_h connection: contexts by `context_id`, requests by flush, pings answered. */
export class VendorHConnection extends JsonSocketConnection<Kind> {
  private readonly contexts = new Map<string, ContextState>();
  private readonly sessionId: string;

  constructor(private readonly newId: VendorHIds = randomUUID) {
    super();
    this.sessionId = newId();
  }

  context(id: string): SocketContextRenderer {
    return new VendorHRenderer(this.contexts.get(id) ?? this.openContext(id));
  }

  protected kindOf(message: JsonMessage): Kind {
    if (message['type'] === 'ping') return 'ping';
    return flagIsSet(message['cancel_request']) ? 'cancel' : 'input';
  }

  protected message(kind: Kind, message: JsonMessage): SocketCommand[] {
    switch (kind) {
      case 'ping':
        return [sendJson(VENDOR_H_PONG)];
      case 'cancel':
        return this.cancel(readVendorHSocketControl(message).contextId);
      case 'input':
        return this.input(message);
    }
  }

  /** A message the vendor cannot read gets its error; the socket stays open, as the vendor's does. */
  protected refuse(problem: MessageProblem): SocketCommand[] {
    return [sendJson(vendorHSocketError(problem.message))];
  }

  /**
   * A text message: its settings (a context is configured again only when they change), its text, a client's
   * flush, and the end of its request (no `continue: true`: a flush tagged with the request's id) or of its
   * context (`context_close: true`: what it holds is spoken, then the context ends). `context_close` without
   * text needs no settings.
   */
  private input(message: JsonMessage): SocketCommand[] {
    const control = readVendorHSocketControl(message);
    const id = control.contextId;
    const known = this.contexts.get(id);
    if (control.closeOnly) return known ? this.end(id) : [];
    const parsed = parseVendorHRequest(message, { allowEmptyText: true, isVoice: () => true });
    if (!parsed.ok) return [sendJson(this.error(parsed.problem.message, id, known))];
    let settings: SynthSettings;
    try {
      settings = vendorHSocketSettings(message, parsed.request);
    } catch (error) {
      if (!(error instanceof RouterError)) throw error;
      return [sendJson(this.error(error.message, id, known))];
    }
    const context = known ?? this.openContext(id);
    const commands: SocketCommand[] = [];
    const configured = JSON.stringify(settings);
    if (context.settings !== configured) {
      context.settings = configured;
      commands.push({ kind: 'configure', context: id, settings });
    }
    const turn = context.open ?? this.openTurn(id, context, parsed.request.echo);
    // A request whose sentence failed speaks nothing more: the session dropped what it held, this drops the rest.
    if (parsed.request.text !== '' && !turn.failed) {
      commands.push({ kind: 'text', context: id, text: parsed.request.text });
    }
    if (control.flush) commands.push({ kind: 'flush', context: id, tag: CLIENT_FLUSH });
    if (flagIsSet(message['context_close'])) return [...commands, ...this.end(id)];
    if (!control.more) {
      context.open = undefined;
      commands.push({ kind: 'flush', context: id, tag: turn.ids.requestId });
    }
    return commands;
  }

  /** `cancel_request`: the context stops (nothing more of it is spoken) and ends; an unknown one, nothing. */
  private cancel(id: string): SocketCommand[] {
    if (!this.contexts.delete(id)) return [];
    return [{ kind: 'cancel', context: id }];
  }

  /** The context ends once what it holds is spoken; a later message of its id opens it afresh. */
  private end(id: string): SocketCommand[] {
    this.contexts.delete(id);
    return [{ kind: 'finish', context: id }];
  }

  private openContext(id: string): ContextState {
    const context: ContextState = { settings: '', open: undefined, turns: [] };
    this.contexts.set(id, context);
    return context;
  }

  private openTurn(id: string, context: ContextState, echo: Readonly<Record<string, string>>): Turn {
    const turn: Turn = {
      ids: {
        requestId: this.newId(),
        sessionId: this.sessionId,
        correlation: vendorHCorrelation(echo),
        contextId: id,
      },
      failed: false,
    };
    context.open = turn;
    context.turns.push(turn);
    return turn;
  }

  /** A refused message's error: for the request it would have added to, where one is open. */
  private error(message: string, id: string, context: ContextState | undefined): Record<string, unknown> {
    const turn = context?.open;
    return turn
      ? vendorHTurnError(turn.ids, message)
      : { ...vendorHSocketError(message, id), session_id: this.sessionId };
  }
}

/**
 * One context's frames: each sentence's audio as `chunk` frames for the request whose audio is playing (the oldest
 * of the context's requests not yet ended), and one `complete` per request once its tagged flush comes back, after
 * all its audio, as the vendor's clients read a request's end (the vendor's own reading loop, and a voice-agent
 * plugin that stops at the first `complete` and reuses the socket, would otherwise read a later request's audio
 * as this one's); a failed sentence gets an `error` for its request, whose rest is dropped and which gets no
 * `complete`. A cancelled context says nothing more.
 */
class VendorHRenderer implements SocketContextRenderer {
  /** The request whose end was rendered last, for frames that could come after it. */
  private last: Turn | undefined;

  constructor(private readonly context: ContextState) {}

  audio(chunk: Buffer): SocketFrame[] {
    const turn = this.turn();
    return turn ? [JSON.stringify(vendorHChunkFrame(turn.ids, chunk))] : [];
  }

  /** A sentence's end is no frame of the vendor's: its request's `complete` comes with the request's end. */
  sentenceEnd(): SocketFrame[] {
    return [];
  }

  flushed(tag: string | undefined): SocketFrame[] {
    if (tag === undefined || tag === CLIENT_FLUSH) return [];
    const at = this.context.turns.findIndex((turn) => turn.ids.requestId === tag);
    return this.endTurns(at + 1);
  }

  finished(end: ContextEnd): SocketFrame[] {
    const frames = this.endTurns(this.context.turns.length);
    return end.kind === 'cancel' ? [] : frames;
  }

  /**
   * A sentence's failure is an `error` for its request (the one playing), and the rest of that request is
   * dropped, up to its tagged flush: a later request of the context plays (spec: vendor_h difference 5). A
   * command's failure (settings the router cannot plan) is an error for the newest request, dropping nothing.
   */
  failed(error: RouterError, at?: { sentence: number }): SocketFailure {
    const turn = at ? this.turn() : (this.context.turns.at(-1) ?? this.last);
    if (!turn) return { frames: [JSON.stringify(vendorHSocketError(error.message))] };
    const frames = [JSON.stringify(vendorHTurnError(turn.ids, error.message))];
    if (!at) return { frames };
    turn.failed = true;
    return { frames, drop: { through: turn.ids.requestId } };
  }

  private turn(): Turn | undefined {
    return this.context.turns[0] ?? this.last;
  }

  /** Ends the context's first `count` requests, in order: one `complete` for each that did not fail. */
  private endTurns(count: number): SocketFrame[] {
    const ended = this.context.turns.splice(0, count);
    this.last = ended.at(-1) ?? this.last;
    return ended.filter(endsWithComplete).map((turn) => JSON.stringify(vendorHCompleteFrame(turn.ids)));
  }
}

/** vendor_h's one socket on its mirror. */
export const vendorHSocketRoutes: readonly MirrorSocketRoute[] = [
  {
    path: /^\/waves\/v1\/tts\/live$/,
    // A `timeout` past the vendor's bounds is its 400 at the handshake.
    refuse: ({ query }) => {
      const timeout = readVendorHSocketTimeout(query.get('timeout'));
      return timeout.ok ? undefined : jsonReply(timeout.status, timeout.body);
    },
    open: () => new VendorHConnection(),
    // The vendor's idle error, then its close, after `ms` without a message from the client (the clock's
    // default: what the router sends does not keep a socket open).
    idle: ({ query }) => {
      const timeout = readVendorHSocketTimeout(query.get('timeout'));
      const ms = timeout.ok && timeout.seconds !== undefined ? timeout.seconds * 1000 : VENDOR_H_IDLE_MS;
      return {
        ms,
        frames: [JSON.stringify(vendorHIdleError(ms))],
        code: SOCKET_CLOSE.normal,
        reason: 'idle timeout',
      };
    },
  },
];
