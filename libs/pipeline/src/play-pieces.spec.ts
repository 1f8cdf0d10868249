import type { RouterError } from '@router/contracts';
import { AsyncQueue } from './async-queue';
import type { PieceAudio, PieceRequest, PieceResolver } from './piece-resolver';
import { playPieces, type ReplySink } from './play-pieces';
import { pieceOf } from './test/pieces.fixture';

/** Audio whose chunks the test releases one by one, recording how the player released the piece. */
function heldAudio(text: string, log: string[]): { audio: PieceAudio; chunks: AsyncQueue<Buffer> } {
  const chunks = new AsyncQueue<Buffer>();
  return {
    chunks,
    audio: {
      cached: false,
      contentType: 'audio/pcm',
      chunks,
      words: () => Promise.resolve([{ start: 0, end: text.length, startMs: 0, endMs: 10 }]),
      chars: () => Promise.resolve(null),
      cancel: () => log.push(`cancel ${text}`),
      interrupt: () => log.push(`interrupt ${text}`),
    },
  };
}

function resolverOf(audios: Record<string, PieceAudio | Error>): PieceResolver {
  return {
    resolve: (piece: PieceRequest) => {
      const audio = audios[piece.text];
      return audio instanceof Error || audio === undefined
        ? Promise.reject(audio ?? new Error('unknown piece'))
        : Promise.resolve(audio);
    },
  } as unknown as PieceResolver;
}

const piece = (text: string): PieceRequest => pieceOf(text);

/** A sink that records every event and answers failures as told. */
function recordingSink(
  onFailure: 'continue' | 'stop',
  write: (chunk: Buffer) => void | Promise<void> = () => undefined,
): { sink: ReplySink<PieceRequest>; events: string[] } {
  const events: string[] = [];
  return {
    events,
    sink: {
      wantsWords: true,
      pieceStart: (p) => void events.push(`start ${p.text}`),
      write: (chunk, p) => {
        events.push(`write ${p.text} ${chunk.toString()}`);
        return write(chunk);
      },
      pieceEnd: (p, end) =>
        void events.push(`end ${p.text} ${end.bytes} words=${end.words?.length ?? 'none'}`),
      pieceFailed: (p, error: RouterError, started) => {
        events.push(`failed ${p.text} ${error.code} started=${started}`);
        return onFailure;
      },
    },
  };
}

describe('playPieces', () => {
  it('plays each piece into the sink in order, with its byte count and words', async () => {
    const log: string[] = [];
    const one = heldAudio('one', log);
    const two = heldAudio('two', log);
    const { sink, events } = recordingSink('continue');
    const done = playPieces(
      resolverOf({ one: one.audio, two: two.audio }),
      [piece('one'), piece('two')],
      { lookAhead: 1 },
      sink,
    );
    two.chunks.push(Buffer.from('bb'));
    two.chunks.end();
    one.chunks.push(Buffer.from('a'));
    one.chunks.push(Buffer.from('aa'));
    one.chunks.end();
    await expect(done).resolves.toBe('done');
    expect(events).toEqual([
      'start one',
      'write one a',
      'write one aa',
      'end one 3 words=1',
      'start two',
      'write two bb',
      'end two 2 words=1',
    ]);
  });

  it('lets the sink stop at a piece that could not be resolved, before any audio of it', async () => {
    const { sink, events } = recordingSink('stop');
    const end = await playPieces(
      resolverOf({ one: new Error('vendor down') }),
      [piece('one'), piece('two')],
      { lookAhead: 1 },
      sink,
    );
    expect(end).toBe('stopped');
    expect(events).toEqual(['failed one internal started=false']);
  });

  it('goes on after a failed piece when the sink says so', async () => {
    const log: string[] = [];
    const two = heldAudio('two', log);
    two.chunks.end();
    const { sink, events } = recordingSink('continue');
    const end = await playPieces(
      resolverOf({ one: new Error('vendor down'), two: two.audio }),
      [piece('one'), piece('two')],
      { lookAhead: 1 },
      sink,
    );
    expect(end).toBe('done');
    expect(events).toEqual(['failed one internal started=false', 'start two', 'end two 0 words=1']);
  });

  it('reports a take cut during its audio as started, and cancels it', async () => {
    const log: string[] = [];
    const failing: PieceAudio = {
      ...heldAudio('one', log).audio,
      chunks: (async function* () {
        yield Buffer.from('a');
        throw new Error('cut');
      })(),
    };
    const { sink, events } = recordingSink('stop');
    await expect(
      playPieces(resolverOf({ one: failing }), [piece('one')], { lookAhead: 1 }, sink),
    ).resolves.toBe('stopped');
    expect(events).toEqual(['start one', 'write one a', 'failed one internal started=true']);
    expect(log).toEqual(['cancel one']);
  });

  it('halts at once when the client leaves while a write waits for the peer, and cancels the piece', async () => {
    const log: string[] = [];
    const one = heldAudio('one', log);
    const left = new AbortController();
    const { sink, events } = recordingSink('continue', () => new Promise<void>(() => undefined));
    const done = playPieces(
      resolverOf({ one: one.audio }),
      [piece('one')],
      { lookAhead: 1, left: left.signal },
      sink,
    );
    one.chunks.push(Buffer.from('a'));
    one.chunks.push(Buffer.from('b'));
    await new Promise((r) => setImmediate(r));
    left.abort();
    await expect(done).resolves.toBe('halted');
    // The second chunk was never read: the write of the first was still waiting for the peer.
    expect(events).toEqual(['start one', 'write one a']);
    expect(log).toEqual(['cancel one']);
  });

  it('interrupts the piece playing when the listener interrupts', async () => {
    const log: string[] = [];
    const one = heldAudio('one', log);
    const interrupted = new AbortController();
    const { sink } = recordingSink('continue');
    const done = playPieces(
      resolverOf({ one: one.audio }),
      [piece('one')],
      { lookAhead: 1, interrupted: interrupted.signal },
      sink,
    );
    one.chunks.push(Buffer.from('a'));
    await new Promise((r) => setImmediate(r));
    interrupted.abort();
    await expect(done).resolves.toBe('halted');
    expect(log).toEqual(['interrupt one']);
  });
});
