import type { RouterError } from '@router/contracts';
import {
  type ContextEnd,
  type SentenceEnd,
  SOCKET_CLOSE,
  type SocketClose,
  type SocketContextRenderer,
  type SocketFailure,
  type SocketFrame,
} from '@router/vendors-core';
import {
  vendorESocketError,
  vendorESpeechInterrupted,
  vendorESpeechMetadata,
  vendorESpeechStarted,
  vendorEV1Cleared,
  vendorEV1Flushed,
  vendorEV2Flushed,
} from './vendor-e.socket';

/*
 * The frames of vendor_e's mirror sockets (vendor-e.mirror-socket.ts reads the client's messages): `/v1/speak`'s
 * audio, `Flushed` and `Cleared`; `/v2/speak`'s turns (`SpeechStarted`, audio, `Flushed`, `SpeechMetadata`,
 * `SpeechInterrupted`); a failure as the vendor's `Error` and its close.
 */

/**
 * A failure as the vendor reports it: a sentence the vendor could not speak (or a cut) is `NET-0000` and closes
 * with 1011 (spec); a command the router refused (settings it cannot plan) is `DATA-0000` and closes with 1008.
 * An org whose vendor_e key is gone (deleted while the socket was open) is no failure of a server: its
 * `NET-0000` names the key and closes with 1008, as the vendor's policy close, so a client does not retry it.
 */
function vendorEFailure(error: RouterError, at?: { sentence: number }): SocketFailure {
  const bad = !at && error.code === 'bad_request';
  const code = bad ? 'DATA-0000' : 'NET-0000';
  const policy = bad || error.code === 'provider_key_missing';
  const close: SocketClose = { code: policy ? SOCKET_CLOSE.policy : SOCKET_CLOSE.internal, reason: code };
  return { frames: [JSON.stringify(vendorESocketError(code, error.message))], close };
}

/** One turn: its text up to a `Flush`, from its first `Speak` to its `SpeechMetadata` (or its interruption). */
interface Turn {
  readonly speechId: string;
  inputChars: number;
  /** Characters of the sentences the vendor synthesized (not replayed from the cache). */
  billableChars: number;
  audioMs: number;
  /** `SpeechStarted` was sent. */
  started: boolean;
  /** The turn's first sentence in its context, once its audio has started. */
  firstSentence: number | null;
  /** Its text has more than white space. */
  hasWords: boolean;
}

/** The session's totals, for `SessionMetadata` at the close. */
export interface Totals {
  audioMs: number;
  inputChars: number;
  billableChars: number;
}

/**
 * The turns of one context (from the connection's start, or its last `Interrupt`), shared by the codec (which
 * opens and flushes them as it reads the client's messages) and the context's renderer (which sees their audio).
 */
export class Turns {
  /** Flushed turns whose audio is still to come, then the turn being written, in order. */
  readonly queue: Turn[] = [];
  /** The turn `Speak` adds to, until its `Flush`. */
  open: Turn | undefined;
  /** The audio of the context's turns before the one playing, in ms: where its `playback_offset` counts from. */
  startMs = 0;
  /** An interrupt of the context: its `playback_offset`, when the client gave one. */
  interrupt: { offsetMs: number | undefined } | undefined;

  /** The turn whose audio plays now (or comes next). */
  get playing(): Turn | undefined {
    return this.queue[0];
  }
}

export class VendorEV1Renderer implements SocketContextRenderer {
  constructor(private readonly clears: number[]) {}

  audio(chunk: Buffer): SocketFrame[] {
    return chunk.length === 0 ? [] : [chunk];
  }

  sentenceEnd(): SocketFrame[] {
    return [];
  }

  flushed(tag: string | undefined): SocketFrame[] {
    return [JSON.stringify(vendorEV1Flushed(Number(tag)))];
  }

  finished(end: ContextEnd): SocketFrame[] {
    const sequence = end.kind === 'cancel' ? this.clears.shift() : undefined;
    return sequence === undefined ? [] : [JSON.stringify(vendorEV1Cleared(sequence))];
  }

  failed(error: RouterError, at?: { sentence: number }): SocketFailure {
    return vendorEFailure(error, at);
  }
}

export class VendorEV2Renderer implements SocketContextRenderer {
  /** The audio of the context's sentences so far, in ms. */
  private playedMs = 0;

  constructor(
    private readonly turns: Turns,
    private readonly totals: Totals,
  ) {}

  audio(chunk: Buffer, at: { sentence: number; first: boolean }): SocketFrame[] {
    const turn = this.turns.playing;
    const frames: SocketFrame[] = turn ? this.start(turn) : [];
    if (turn && at.first && turn.firstSentence === null) turn.firstSentence = at.sentence;
    if (chunk.length > 0) frames.push(chunk);
    return frames;
  }

  /** The sentence counts toward its turn: its audio, and its characters where the vendor synthesized it. */
  sentenceEnd(end: SentenceEnd): SocketFrame[] {
    const turn = this.turns.playing;
    const ms = end.durationMs ?? 0;
    this.playedMs += ms;
    if (turn) {
      turn.audioMs += ms;
      if (!end.cached) turn.billableChars += Array.from(end.text).length;
    }
    return [];
  }

  /** The turn's audio has all been sent: `Flushed`, then its `SpeechMetadata`. */
  flushed(): SocketFrame[] {
    const turn = this.turns.queue.shift();
    this.turns.startMs = this.playedMs;
    if (!turn) return [];
    this.totals.audioMs += turn.audioMs;
    this.totals.inputChars += turn.inputChars;
    this.totals.billableChars += turn.billableChars;
    return [
      ...this.start(turn),
      JSON.stringify(vendorEV2Flushed(turn.speechId)),
      JSON.stringify(vendorESpeechMetadata(turn.speechId, turn.audioMs, turn.inputChars, turn.billableChars)),
    ];
  }

  /**
   * An interrupt's `SpeechInterrupted` for the turn that was playing: the heard part of its audio, and its own
   * text split where a sentence of it had started by the position. The rest is the turn's alone: a later turn
   * already sent is dropped with the interrupt and reported nowhere, as at the vendor. A turn still being
   * written (no flush yet) is the last, so everything that remains is its own, held text included.
   */
  finished(end: ContextEnd): SocketFrame[] {
    const turn = this.turns.playing;
    const interrupt = this.turns.interrupt;
    if (end.kind !== 'cancel' || !turn || !interrupt) return [];
    const first = turn.firstSentence;
    const spoken = first === null ? [] : end.spoken.filter((s) => s.sentence >= first).map((s) => s.text);
    const flush = end.unanswered.find((f) => f.tag === turn.speechId);
    const remaining = flush ? end.remaining.slice(0, flush.through) : end.remaining;
    return [
      ...this.start(turn),
      JSON.stringify(
        vendorESpeechInterrupted(turn.speechId, interrupt.offsetMs ?? turn.audioMs, {
          spoken: spoken.join(' '),
          remaining: remaining.join(' '),
        }),
      ),
    ];
  }

  failed(error: RouterError, at?: { sentence: number }): SocketFailure {
    return vendorEFailure(error, at);
  }

  /** `SpeechStarted` before anything else of the turn. */
  private start(turn: Turn): SocketFrame[] {
    if (turn.started) return [];
    turn.started = true;
    return [JSON.stringify(vendorESpeechStarted(turn.speechId))];
  }
}
