import type { RouterError } from '@router/contracts';
import { asAsync, type PieceAudio, type PieceRequest, type PieceResolver } from './piece-resolver';
import { HALTED, haltOn } from './halt';
import { asRouterError } from './router-errors';

/**
 * The reason the reply's own signal ends with, made once: `abort()` without one builds a DOMException with its
 * stack on every reply (measured: 7 % of native-api's CPU per hot hit); nothing reads the reason.
 */
const REPLY_ENDED = new Error('the reply ended');

/** One piece of a reply as it comes up to play: its audio, or why it could not be resolved. */
export type PlayedPiece<P extends PieceRequest> = { request: P; index: number } & (
  { audio: PieceAudio; failure?: undefined } | { audio?: undefined; failure: RouterError }
);

export interface PlayOptions {
  /** Pieces resolved ahead of the one playing. */
  lookAhead: number;
  /**
   * The client went away: the reply ends at once; pieces resolved ahead are cancelled (takes already running
   * finish and are cached).
   */
  left?: AbortSignal;
  /**
   * The listener interrupted: the reply ends at once; pieces resolved ahead are interrupted (stopped at the
   * vendor, see PieceAudio.interrupt).
   */
  interrupted?: AbortSignal;
}

/**
 * A reply's pieces in order. Later pieces are resolved ahead, within `lookAhead`, so each starts the moment
 * the one before ends; the chunks of a piece still being synthesized flow as they arrive. A piece that fails
 * to resolve comes up in its place with its failure; the consumer decides whether the reply goes on.
 *
 * Every piece the reply resolved and did not hand over is released when it ends: cancelled when the client
 * left or stopped reading, interrupted when `interrupted` fired. Pieces not yet asked for are dropped. The
 * consumer releases the piece it holds itself.
 */
export async function* playReply<P extends PieceRequest>(
  resolver: Pick<PieceResolver, 'resolve'>,
  pieces: AsyncIterable<P> | Iterable<P>,
  options: PlayOptions,
): AsyncGenerator<PlayedPiece<P>> {
  const pending: Array<{ request: P; audio: Promise<PieceAudio> }> = [];
  const source = toAsyncIterator(pieces);
  const ended = new AbortController();
  const { halted, haltedOrDone, release } = haltOn([options.left, options.interrupted, ended.signal]);
  let exhausted = false;
  let playing = false;
  let index = 0;
  const filled = new Signal();
  const played = new Signal();
  // Resolves pieces as they arrive, never more than the next to play plus `lookAhead` (only `lookAhead` while
  // the consumer holds one), without holding up the piece at the head: a streamed reply's next piece may be
  // seconds away.
  const filling = (async () => {
    for (;;) {
      while (pending.length >= options.lookAhead + (playing ? 0 : 1)) {
        if ((await haltedOrDone(played.wait())) === HALTED) return;
      }
      const next = await haltedOrDone(source.next());
      if (next === HALTED) return;
      if (next.done) {
        exhausted = true;
        filled.fire();
        return;
      }
      const audio = resolver.resolve(next.value);
      audio.catch(() => undefined); // awaited in order below
      pending.push({ request: next.value, audio });
      filled.fire();
    }
  })();
  try {
    for (;;) {
      while (pending.length === 0 && !exhausted) {
        if ((await haltedOrDone(filled.wait())) === HALTED) return;
      }
      const head = pending[0];
      if (!head || halted()) return;
      const next = await haltedOrDone(
        head.audio.then(
          (audio): PlayedPiece<P> => ({ request: head.request, index, audio }),
          (error: unknown): PlayedPiece<P> => ({
            request: head.request,
            index,
            failure: asRouterError(error),
          }),
        ),
      );
      if (next === HALTED) return;
      pending.shift();
      index += 1;
      playing = true;
      played.fire();
      yield next;
      playing = false;
      played.fire();
    }
  } finally {
    ended.abort(REPLY_ENDED);
    release();
    const interrupted = options.interrupted?.aborted === true;
    // The filler may still add a piece it was resolving; release those too once it stops.
    const releaseAll = (): void => {
      for (const ahead of pending.splice(0))
        ahead.audio.then(
          (p) => (interrupted ? p.interrupt() : p.cancel()),
          () => undefined,
        );
    };
    releaseAll();
    void filling.then(releaseAll);
    // Not awaited: a source still waiting for its next item (more text) finishes that wait first.
    Promise.resolve(source.return?.()).catch(() => undefined);
  }
}

/** A level-less wake-up: `wait()` resolves at the next `fire()`. */
class Signal {
  private waiting: Array<() => void> = [];
  wait(): Promise<void> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }
  fire(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const wake of waiting) wake();
  }
}

function toAsyncIterator<T>(items: AsyncIterable<T> | Iterable<T>): AsyncIterator<T> {
  return Symbol.asyncIterator in items
    ? items[Symbol.asyncIterator]()
    : asAsync(items)[Symbol.asyncIterator]();
}
