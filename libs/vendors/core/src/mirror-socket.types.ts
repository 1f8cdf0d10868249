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
  /** End the sentence in progress; the renderer's `flushed` follows once its audio has been sent. */
  | { kind: 'flush'; context: string }
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
  /** A flush's sentences have all been sent. */
  flushed(): SocketFrame[];
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

/** One of a vendor's sockets, as its mirror serves it. */
export interface MirrorSocketRoute {
  /** The path under the vendor's API base; its capture groups are handed to `open` (a voice id). */
  readonly path: RegExp;
  /** A connection from its handshake: the path's groups and the query. */
  open(params: readonly string[], query: URLSearchParams): SocketConnection;
  idle(query: URLSearchParams): SocketIdle;
}
