import { asAsync, type PieceAudio, type PieceRequest, type PieceResolver } from './piece-resolver';

/**
 * A reply's pieces in order. Later pieces are resolved ahead, within `lookAhead`, so each starts the moment
 * the one before ends; the chunks of a piece still being synthesized flow as they arrive. Stopping early
 * (the client left) cancels what was resolved ahead: takes already running finish and are cached, pieces
 * not yet asked for are dropped.
 */
export async function* playReply(
  resolver: PieceResolver,
  pieces: AsyncIterable<PieceRequest> | Iterable<PieceRequest>,
  lookAhead: number,
): AsyncGenerator<PieceAudio & { index: number }> {
  const pending: Array<Promise<PieceAudio>> = [];
  const source = toAsyncIterator(pieces);
  let exhausted = false;
  let index = 0;
  /** Keeps `limit` pieces resolving: the next to play plus `lookAhead`, or only `lookAhead` while one plays. */
  const fill = async (limit: number): Promise<void> => {
    while (!exhausted && pending.length < limit) {
      const next = await source.next();
      if (next.done) {
        exhausted = true;
        break;
      }
      const resolving = resolver.resolve(next.value);
      resolving.catch(() => undefined); // awaited in order below
      pending.push(resolving);
    }
  };
  try {
    for (;;) {
      await fill(lookAhead + 1);
      const head = pending.shift();
      if (!head) return;
      const piece = await head;
      const filling = fill(lookAhead);
      yield { ...piece, index: index++ };
      await filling;
    }
  } finally {
    for (const ahead of pending)
      ahead.then(
        (p) => p.cancel(),
        () => undefined,
      );
    await source.return?.();
  }
}

function toAsyncIterator<T>(items: AsyncIterable<T> | Iterable<T>): AsyncIterator<T> {
  return Symbol.asyncIterator in items
    ? items[Symbol.asyncIterator]()
    : asAsync(items)[Symbol.asyncIterator]();
}
