import type {
  RouterError,
  SocketFrame,
  SocketIdle,
  SynthSettings,
  TakeWarning,
  WordTiming,
} from '@router/contracts';
import type { MirrorReply } from './mirror-access';

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
   * that finishes takes on interruption finishes and caches it), then the renderer's `finished`, told what was
   * spoken and what remains. `playedMs`: how much of the context's audio the listener had heard (from the
   * context's first sentence, or its first after its last cancel), where the client says; left out, every
   * sentence whose audio had started counts as spoken.
   */
  | { kind: 'cancel'; context: string; playedMs?: number }
  /**
   * Carry out `commands` once the context has had no text for `ms`: time-based buffering (a vendor that
   * speaks a trailing fragment after a pause, with no flush). The session owns the clock, so a codec stays
   * pure. A context has at most one pending: a newer one replaces it, and the context's next text, its end
   * and the socket's end drop it.
   */
  | { kind: 'when-quiet'; context: string; ms: number; commands: readonly SocketCommand[] }
  /** Finish every context, then send the connection's `closing` frames and close the socket normally. */
  | { kind: 'close' }
  /**
   * A frame answered at once (a pong, an acknowledgement, a warning): sent as the message is read, after the
   * frames already sent and never behind a context's audio still to come.
   */
  | { kind: 'send'; frame: string }
  /** The message is refused: the frame is sent, and the socket closed when `close` is given. */
  | { kind: 'refuse'; frame: string; close?: SocketClose };

export interface SocketClose {
  code: number;
  reason: string;
}

/** The frame and idle types live in contracts, where the service kit's socket server reads them too. */
export type { SocketFrame, SocketIdle };

/** How one context's events look on the vendor's socket. */
export interface SocketContextRenderer {
  /**
   * One chunk of a sentence's audio, as the vendor made it. `first`: the sentence's first chunk; `cached`: the
   * sentence is replayed from the cache (the vendor was not called for it); `contentType`: its take's, as the
   * vendor names the sentence's format (the session always gives it).
   */
  audio(
    chunk: Buffer,
    at: { sentence: number; first: boolean; cached: boolean; contentType?: string },
  ): SocketFrame[];
  /**
   * The sentence's audio has all been sent; its word timings where the vendor gives them. A vendor's frames
   * about one sentence (its alignment, its timestamps) go here, and what a vendor counts per sentence (the
   * audio's length, what it bills) is read here; a request's end (`complete`, `final`, `done`) is a flush's
   * (`flushed`), never a sentence's, since a client that stops reading there would take the rest of its
   * request for the next one's.
   */
  sentenceEnd(end: SentenceEnd): SocketFrame[];
  /**
   * A flush's sentences have all been sent (or dropped, see `SocketFailure.drop`); `tag` is the flush
   * command's. Every flush is answered, in the order asked, unless its context is cancelled first.
   */
  flushed(tag: string | undefined): SocketFrame[];
  /** The context ended: how (`finish`, `drain` or `cancel`, and whether a cancel stopped anything). */
  finished(end: ContextEnd): SocketFrame[];
  /**
   * A sentence (`at`) or a command of the context failed. Frames of an error that keeps the socket open, its
   * close where the vendor closes, and what the failure drops where the vendor drops the rest of a request.
   */
  failed(error: RouterError, at?: { sentence: number }): SocketFailure;
}

/** A sentence whose audio has all been sent, as its context's renderer is told. */
export interface SentenceEnd {
  sentence: number;
  text: string;
  /** Replayed from the cache: the vendor was not called (and does not bill) for it. */
  cached: boolean;
  /** The audio's bytes, as sent. */
  bytes: number;
  /** How long the audio plays, where its format tells (raw and WAV audio); null for compressed formats. */
  durationMs: number | null;
  words: WordTiming[] | null;
  /** Each character's timing, where the vendor times characters (cached with the audio). */
  chars: WordTiming[] | null;
  /**
   * The vendor's error about the sentence's take, which it still spoke whole (that take is never cached); null
   * or absent for none. A vendor that reports such errors renders it here.
   */
  warning?: TakeWarning | null;
}

/** How a context ended, as its renderer's `finished` is told. */
export type ContextEnd =
  | { kind: 'finish' }
  | { kind: 'drain' }
  /**
   * `stopped`: whether the cancel stopped anything (a sentence playing or waiting, text held): false where
   * everything had already been spoken, for a vendor that warns there was nothing to cancel. The context's
   * text split at sentence boundaries: `spoken`, the sentences whose audio had started by the cancel's
   * `playedMs` (every started one without it), in order; `remaining`, the text of the rest (stopped, never
   * sent, or held), in order. `unanswered`: the flushes the cancel left unanswered, in the order asked, each its
   * tag and how many of `remaining`, from the start, come before its end (text held comes after every flush),
   * for a vendor that reports one request's rest apart from a later request's.
   */
  | {
      kind: 'cancel';
      stopped: boolean;
      spoken: ReadonlyArray<{ sentence: number; text: string }>;
      remaining: readonly string[];
      unanswered: ReadonlyArray<{ tag: string | undefined; through: number }>;
    };

/** What the renderer makes of a failure. */
export interface SocketFailure {
  frames: SocketFrame[];
  /** The socket is closed after the frames. */
  close?: SocketClose;
  /** The rest of the failed request is not spoken. */
  drop?: SocketDrop;
}

/**
 * What a failure drops of its context, for a vendor that speaks nothing more of a request once one of its
 * sentences failed: the context's sentences still to play (never sent to the vendor; those already resolved
 * ahead are stopped unheard) and the text it holds. With `through`, only up to the end of the first pending
 * flush tagged so (the request's end, when the codec tags it): what was sent after that flush is a later
 * request's and plays. Flushes in the dropped part are still answered, in order. A sentence playing when a
 * command fails plays out; text the codec turns into commands after the failure is its own to drop.
 */
export interface SocketDrop {
  through?: string;
}

/** One connection of a vendor's socket, from its handshake on. */
export interface SocketConnection {
  /** Commands to carry out as the connection opens (a refusal of its query, settings taken from it). */
  opened(): SocketCommand[];
  /** Commands for one client message; throws nothing (a bad message is a `refuse` command). */
  parse(frame: Buffer, isBinary: boolean): SocketCommand[];
  /** The renderer of a context, created when the context is first named. */
  context(id: string): SocketContextRenderer;
  /**
   * Frames sent on a `close` once every context has finished, just before the normal close (a vendor's summary
   * of the session); read then, so they can count what the contexts' renderers saw.
   */
  closing?(): SocketFrame[];
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

/** What a vendor's own clients send on a socket's handshake besides the key (lower-case header names). */
export interface SocketOpening {
  readonly headers?: Readonly<Record<string, string>>;
  readonly query?: ReadonlyArray<readonly [string, string]>;
}

/** One of a vendor's sockets, as its mirror serves it. */
export interface MirrorSocketRoute {
  /** The path under the vendor's API base; its capture groups become the handshake's `params`. */
  readonly path: RegExp;
  /**
   * How the vendor's own clients open this socket where a bare handshake (the key alone) is one it refuses:
   * each a way they do (vendor_i's version in its header or its query form). Tests open the socket so to reach
   * its messages; left out, a bare handshake is accepted.
   */
  readonly openings?: readonly SocketOpening[];
  /**
   * The vendor's answer to a handshake it refuses before the upgrade (a query setting it does not take, such
   * as a `timeout` past its maximum), in its shape; undefined, or left out, accepts. A refusal after the
   * upgrade is `opened()`'s.
   */
  refuse?(handshake: SocketHandshake): MirrorReply | undefined;
  /** A connection from its handshake. */
  open(handshake: SocketHandshake): SocketConnection;
  idle(handshake: SocketHandshake): SocketIdle;
  /**
   * How the vendor's server closes this socket when it goes away (a restart, a drain): the close the router
   * sends once a draining socket has played out what it was given. Left out, `PROTOCOL_GOING_AWAY`.
   */
  readonly goingAway?: SocketClose;
}
