import type { RouterError, SynthSettings, WordTiming } from '@router/contracts';

/**
 * What one client message of a vendor's socket asks, in the router's terms. A vendor folder's socket codec
 * turns each message into commands (pure code, no I/O); the mirror's socket runner carries them out on one
 * reply stream per context. Sockets without contexts use one context id of their choice.
 */
export type SocketCommand =
  /** Settings for the context's next sentences (the vendor's own request settings, mapped and validated). */
  | { kind: 'configure'; context: string; settings: SynthSettings }
  | { kind: 'text'; context: string; text: string }
  /**
   * End the sentence in progress; the renderer's `flushed(tag)` follows once its audio has been sent. `tag`
   * tells a vendor's flushes apart (a client's flush, a turn's end, a timed one), since each may be answered
   * otherwise; flushes of a context end in the order they were asked.
   */
  | { kind: 'flush'; context: string; tag?: string }
  /** No more text for the context: what is held is spoken, then the renderer's `finished`. */
  | { kind: 'finish'; context: string }
  /**
   * End the context once the text flushed so far has been spoken: text held since the last sentence the
   * splitter released (what no flush has ended yet) is dropped, every released sentence plays out in order,
   * then the renderer's `finished` (a vendor's close of a context that speaks what was flushed first).
   */
  | { kind: 'drain'; context: string }
  /**
   * Stop the context: sentences not yet sent to the vendor are dropped, the one playing is stopped (a vendor
   * that finishes takes on interruption finishes and caches it), then the renderer's `finished`.
   */
  | { kind: 'cancel'; context: string }
  /**
   * Carry out `commands` once the context has had no text for `ms`: time-based buffering (a vendor that
   * speaks a trailing fragment after a pause, with no flush). The session owns the clock, so a codec stays
   * pure. A context has at most one pending: a newer one replaces it, and the context's next text, its end
   * and the socket's end drop it.
   */
  | { kind: 'when-quiet'; context: string; ms: number; commands: readonly SocketCommand[] }
  /** Finish every context, then close the socket normally. */
  | { kind: 'close' }
  /** A frame answered at once (a pong, an acknowledgement). */
  | { kind: 'send'; frame: string }
  /** The message is refused: the frame is sent, and the socket closed when `close` is given. */
  | { kind: 'refuse'; frame: string; close?: SocketClose };

export interface SocketClose {
  code: number;
  reason: string;
}

/** A frame for the client: JSON already serialised (text) or binary audio. */
export type SocketFrame = string | Buffer;

/** How one context's events look on the vendor's socket. */
export interface SocketContextRenderer {
  /** One chunk of a sentence's audio, as the vendor made it. `first`: the sentence's first chunk. */
  audio(chunk: Buffer, at: { sentence: number; first: boolean }): SocketFrame[];
  /** The sentence's audio has all been sent; its word timings where the vendor gives them. */
  sentenceEnd(end: {
    sentence: number;
    text: string;
    words: WordTiming[] | null;
    /** Each character's timing, where the vendor times characters (cached with the audio). */
    chars: WordTiming[] | null;
  }): SocketFrame[];
  /** A flush's sentences have all been sent; `tag` is the flush command's. */
  flushed(tag: string | undefined): SocketFrame[];
  /** The context ended (finish or cancel). */
  finished(): SocketFrame[];
  /** A sentence or a command of the context failed; the socket is closed when `close` is given. */
  failed(error: RouterError): { frames: SocketFrame[]; close?: SocketClose };
}

/** One connection of a vendor's socket, from its handshake on. */
export interface SocketConnection {
  /** Commands to carry out as the connection opens (a refusal of its query, settings taken from it). */
  opened(): SocketCommand[];
  /** Commands for one client message; throws nothing (a bad message is a `refuse` command). */
  parse(frame: Buffer, isBinary: boolean): SocketCommand[];
  /** The renderer of a context, created when the context is first named. */
  context(id: string): SocketContextRenderer;
}

/** How a quiet connection ends: after `ms` with nothing sent either way, closed with `code` and `reason`. */
export interface SocketIdle {
  ms: number;
  code: number;
  reason: string;
}

/**
 * A socket's handshake as the vendor's codec reads it: where its clients put their settings (the path's ids,
 * the query, headers such as an API version). No key reaches it: the gateway takes the key's headers and
 * query parameters off before forwarding, and the router's own identity header is left out.
 */
export interface SocketHandshake {
  /** The path's capture groups (a voice id), decoded as the vendor decodes path segments. */
  readonly params: readonly string[];
  readonly query: URLSearchParams;
  /** Lower-case names, as Node parses them (read one with `headerValue`). */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** One of a vendor's sockets, as its mirror serves it. */
export interface MirrorSocketRoute {
  /** The path under the vendor's API base; its capture groups become the handshake's `params`. */
  readonly path: RegExp;
  /**
   * The handshake's settings as the vendor checks them before it accepts (a vendor that refuses a bad query at
   * the upgrade): a RouterError refuses the handshake with the access's `fail` of its status and message, null
   * accepts. Absent, every handshake on the path is accepted and a codec refuses on the socket.
   */
  check?(handshake: Pick<SocketHandshake, 'params' | 'query'>): RouterError | null;
  /** A connection from its handshake. */
  open(handshake: SocketHandshake): SocketConnection;
  idle(handshake: SocketHandshake): SocketIdle;
}
