import { jsonValueProblem } from '@router/contracts';
import { jsonReply, type MirrorReply } from './mirror-access';
import type {
  SocketClose,
  SocketCommand,
  SocketConnection,
  SocketContextRenderer,
  SocketHandshake,
} from './mirror-socket.types';

/*
 * What every vendor socket codec whose clients send JSON messages repeats, once: a text frame read as a JSON
 * object under the one client-JSON rule, a message that cannot be read refused in the vendor's shape,
 * dispatch on a message's kind, contexts by id up to the vendor's limit, and the close codes.
 */

/** Close codes of the WebSocket protocol that mirror sockets use. A vendor's own (4xxx) come from its folder. */
export const SOCKET_CLOSE = {
  normal: 1000,
  goingAway: 1001,
  /** A binary frame where only text is taken. */
  unsupportedData: 1003,
  /** The vendor's refusal of a message or a handshake setting (most vendors use it). */
  policy: 1008,
  /** A failure of the router's own, never a client's bad message. */
  internal: 1011,
} as const;

/**
 * The close when the router's process goes away (a restart, a drain) on a socket whose vendor's notes give no
 * close of their own for a server going away: the protocol's 1001, which clients take as "reconnect".
 */
export const PROTOCOL_GOING_AWAY: SocketClose = { code: SOCKET_CLOSE.goingAway, reason: 'going away' };

/** A client message read as a JSON object. */
export type JsonMessage = Readonly<Record<string, unknown>>;

/** Why a client message cannot be read, before any of the vendor's rules. */
export interface MessageProblem {
  /**
   * `binary`: a binary frame; `not-json`: text `JSON.parse` refuses; `not-object`: JSON that is not an object;
   * `json-limit`: an object past the client-JSON rule (`jsonValueProblem`: too deep, a number past a double);
   * `unknown-kind`: an object whose kind the vendor does not have.
   */
  readonly reason: 'binary' | 'not-json' | 'not-object' | 'json-limit' | 'unknown-kind';
  /** Words for the client: the rule, and the field where one is at fault; never any value of the message. */
  readonly message: string;
}

/** A frame as a JSON object; `jsonValueProblem` is checked first, so nothing walks a value past the limit. */
export function readJsonMessage(
  frame: Buffer,
  isBinary: boolean,
): { ok: true; message: JsonMessage } | { ok: false; problem: MessageProblem } {
  if (isBinary) return refused('binary', 'Messages must be JSON text, not binary frames');
  let value: unknown;
  try {
    value = JSON.parse(frame.toString('utf8'));
  } catch {
    return refused('not-json', 'Messages must be JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return refused('not-object', 'Messages must be JSON objects');
  }
  const problem = jsonValueProblem(value);
  if (problem) return refused('json-limit', problem.message);
  return { ok: true, message: value as JsonMessage };
}

function refused(reason: MessageProblem['reason'], message: string): { ok: false; problem: MessageProblem } {
  return { ok: false, problem: { reason, message } };
}

/**
 * A route's `refuse` for a socket whose settings come from its handshake's query: accepted where `settings` reads
 * the query, else the vendor's 400 with the JSON `body` of the message saying why.
 */
export function refuseBadQuery(
  settings: (
    query: URLSearchParams,
  ) => { readonly ok: true } | { readonly ok: false; readonly message: string },
  body: (message: string) => unknown,
): (handshake: SocketHandshake) => MirrorReply | undefined {
  return ({ query }) => {
    const read = settings(query);
    return read.ok ? undefined : jsonReply(400, body(read.message));
  };
}

/** A message's kind from a field that names it (`type` on most vendors), when it is one of `kinds`. */
export function fieldKind<Kind extends string>(
  message: JsonMessage,
  field: string,
  kinds: readonly Kind[],
): Kind | undefined {
  const value = message[field];
  return kinds.find((kind) => kind === value);
}

/** A frame for the client now (an acknowledgement, a pong, a warning, an error that keeps the socket open). */
export function sendJson(frame: object): Extract<SocketCommand, { kind: 'send' }> {
  return { kind: 'send', frame: JSON.stringify(frame) };
}

/** A refusal: the vendor's error frame, then its close when it closes the socket on this one. */
export function refuseJson(frame: object, close?: SocketClose): Extract<SocketCommand, { kind: 'refuse' }> {
  return { kind: 'refuse', frame: JSON.stringify(frame), ...(close ? { close } : {}) };
}

/**
 * A connection of a vendor socket whose clients send JSON objects. Its subclass says a message's kind, turns
 * each kind into commands and refuses in the vendor's shape; what cannot be read (binary, not JSON, not an
 * object, past the client-JSON rule, of no kind the vendor has) never reaches its handlers. Nothing here
 * throws for a client's message, so a bad one is refused and never ends the socket with 1011.
 */
export abstract class JsonSocketConnection<Kind extends string> implements SocketConnection {
  /** Nothing happens as the connection opens unless the vendor refuses its handshake on the socket. */
  opened(): SocketCommand[] {
    return [];
  }

  parse(frame: Buffer, isBinary: boolean): SocketCommand[] {
    const read = readJsonMessage(frame, isBinary);
    if (!read.ok) return this.refuse(read.problem);
    const kind = this.kindOf(read.message);
    if (kind === undefined) {
      return this.refuse({ reason: 'unknown-kind', message: 'The message is of no type this API has' });
    }
    return this.message(kind, read.message);
  }

  abstract context(id: string): SocketContextRenderer;

  /** The message's kind (`fieldKind`, or what its fields say); undefined refuses it as `unknown-kind`. */
  protected abstract kindOf(message: JsonMessage): Kind | undefined;

  /** Commands for one message of a known kind. */
  protected abstract message(kind: Kind, message: JsonMessage): SocketCommand[];

  /** The vendor's answer to a message it cannot read: its error frame, and its close where it closes. */
  protected abstract refuse(problem: MessageProblem): SocketCommand[];
}

/**
 * The contexts a socket holds open by id, with what the codec keeps of each, up to the vendor's limit of
 * contexts open at once.
 */
export class SocketContexts<State> {
  private readonly open = new Map<string, State>();

  constructor(readonly limit: number) {}

  get size(): number {
    return this.open.size;
  }

  get(id: string): State | undefined {
    return this.open.get(id);
  }

  has(id: string): boolean {
    return this.open.has(id);
  }

  /** Whether `id` is open, or may be opened now (fewer than `limit` are). */
  canOpen(id: string): boolean {
    return this.open.has(id) || this.open.size < this.limit;
  }

  /** Sets a context's state; a context not open yet is refused (false, nothing set) once `limit` are open. */
  set(id: string, state: State): boolean {
    if (!this.canOpen(id)) return false;
    this.open.set(id, state);
    return true;
  }

  delete(id: string): boolean {
    return this.open.delete(id);
  }

  entries(): IterableIterator<[string, State]> {
    return this.open.entries();
  }
}
