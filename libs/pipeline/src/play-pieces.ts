import type { RouterError, TakeWarning, WordTiming } from '@router/contracts';
import { HALTED, haltOn } from './halt';
import type { PieceAudio, PieceRequest, PieceResolver } from './piece-resolver';
import { playReply, type PlayOptions } from './reply';
import { asRouterError } from './router-errors';

/**
 * Where a reply's pieces are played: a surface's HTTP response or socket, in that surface's own shapes. The
 * rules of playing (order, look-ahead, backpressure, client gone, interrupt, releasing takes) are
 * `playPieces`'s; a sink only says how each event looks on its wire and whether a failure ends the reply.
 */
export interface ReplySink<P extends PieceRequest> {
  /**
   * Word (and character) timings, and the vendor's warning about the take, are awaited after each piece's audio
   * and handed to `pieceEnd`.
   */
  readonly wantsWords: boolean;
  /**
   * Asked as each piece comes up to play: true passes over it unheard (its audio, if it was resolved, is
   * interrupted, and no other event comes for it). For a reply that drops the rest of a failed request.
   */
  dropped?(piece: P): boolean;
  /** A piece's audio is about to be written. */
  pieceStart(piece: P, audio: PieceAudio): void | Promise<void>;
  /** One chunk of the piece's audio, as the vendor made it; resolves once the peer can take more. */
  write(chunk: Buffer, piece: P): void | Promise<void>;
  /** The piece's audio has all been written. */
  pieceEnd(
    piece: P,
    end: {
      bytes: number;
      words: WordTiming[] | null;
      chars: WordTiming[] | null;
      warning: TakeWarning | null;
    },
  ): void;
  /**
   * A piece failed: before its audio (`started` false: it could not be resolved) or during it (the take was
   * cut). `stop` ends the reply there; `continue` goes on with the next piece.
   */
  pieceFailed(piece: P, error: RouterError, started: boolean): 'continue' | 'stop';
}

/** How a reply ended: every piece played, halted (client gone or interrupted), or stopped by the sink. */
export type ReplyEnd = 'done' | 'halted' | 'stopped';

/**
 * Plays a reply's pieces into a sink, in order, each the moment the one before ends (see `playReply` for the
 * look-ahead and what happens to pieces resolved ahead). Waits for audio and for the peer end early when the
 * client leaves or the listener interrupts; the piece then playing is cancelled (its take finishes and is
 * cached) or interrupted (stopped at the vendor where the vendor stops).
 */
export async function playPieces<P extends PieceRequest>(
  resolver: Pick<PieceResolver, 'resolve'>,
  pieces: AsyncIterable<P> | Iterable<P>,
  options: PlayOptions,
  sink: ReplySink<P>,
): Promise<ReplyEnd> {
  const halt = haltOn([options.left, options.interrupted]);
  const reply = playReply(resolver, pieces, options);
  try {
    for await (const next of reply) {
      if (sink.dropped?.(next.request)) {
        next.audio?.interrupt();
        continue;
      }
      const end = next.failure
        ? sink.pieceFailed(next.request, next.failure, false) === 'stop'
          ? 'stopped'
          : 'done'
        : await playPiece(next.request, next.audio, sink, halt, options.interrupted);
      if (end !== 'done') return end;
    }
    return halt.halted() ? 'halted' : 'done';
  } finally {
    halt.release();
    await reply.return(undefined);
  }
}

async function playPiece<P extends PieceRequest>(
  piece: P,
  audio: PieceAudio,
  sink: ReplySink<P>,
  halt: Halt,
  interrupted: AbortSignal | undefined,
): Promise<ReplyEnd> {
  const release = (): void => (interrupted?.aborted ? audio.interrupt() : audio.cancel());
  let bytes = 0;
  try {
    await sink.pieceStart(piece, audio);
    const chunks = audio.chunks[Symbol.asyncIterator]();
    for (;;) {
      const chunk = await halt.haltedOrDone(chunks.next());
      if (chunk === HALTED) {
        release();
        return 'halted';
      }
      if (chunk.done) break;
      bytes += chunk.value.length;
      if ((await halt.haltedOrDone(Promise.resolve(sink.write(chunk.value, piece)))) === HALTED) {
        release();
        return 'halted';
      }
    }
    let ending: [WordTiming[] | null, WordTiming[] | null, TakeWarning | null] = [null, null, null];
    if (sink.wantsWords) {
      const read = await halt.haltedOrDone(
        Promise.all([audio.words(), audio.chars(), audio.warning?.() ?? Promise.resolve(null)]),
      );
      if (read === HALTED) return 'halted';
      ending = read;
    }
    const [words, chars, warning] = ending;
    sink.pieceEnd(piece, { bytes, words, chars, warning });
    return 'done';
  } catch (error) {
    release();
    return sink.pieceFailed(piece, asRouterError(error), true) === 'stop' ? 'stopped' : 'done';
  }
}

type Halt = ReturnType<typeof haltOn>;
