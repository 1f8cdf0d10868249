import type { PieceAudio, PieceRequest, PieceResolver } from './piece-resolver';
import { AsyncQueue } from './async-queue';
import { playReply } from './reply';
import { pieceOf } from './test/pieces.fixture';

function fakeResolver(delays: Record<string, number>) {
  const started: string[] = [];
  const cancelled: string[] = [];
  const interrupted: string[] = [];
  const resolver = {
    resolve: async (piece: PieceRequest): Promise<PieceAudio> => {
      started.push(piece.text);
      await new Promise((r) => setTimeout(r, delays[piece.text] ?? 0));
      if (piece.text === 'boom') throw new Error('vendor failed');
      return {
        cached: false,
        contentType: 'audio/pcm',
        chunks: (async function* () {
          yield Buffer.from(piece.text);
        })(),
        words: () => Promise.resolve(null),
        chars: () => Promise.resolve(null),
        cancel: () => cancelled.push(piece.text),
        interrupt: () => interrupted.push(piece.text),
      };
    },
  } as unknown as PieceResolver;
  return { resolver, started, cancelled, interrupted };
}

const piece = (text: string): PieceRequest => pieceOf(text);

describe('playReply', () => {
  it('plays pieces in order even when later ones resolve first', async () => {
    const { resolver } = fakeResolver({ one: 30, two: 0, three: 10 });
    const out: string[] = [];
    for await (const p of playReply(resolver, ['one', 'two', 'three'].map(piece), { lookAhead: 2 })) {
      for await (const c of p.audio!.chunks) out.push(`${p.index}:${c.toString()}`);
    }
    expect(out).toEqual(['0:one', '1:two', '2:three']);
  });

  it('resolves at most lookAhead pieces beyond the one playing', async () => {
    const { resolver, started } = fakeResolver({});
    const reply = playReply(resolver, ['a', 'b', 'c', 'd', 'e'].map(piece), { lookAhead: 1 });
    await reply.next();
    expect(started).toEqual(['a', 'b']);
    await reply.return(undefined);
  });

  it('cancels what was resolved ahead and asks for nothing more when the listener stops', async () => {
    const { resolver, started, cancelled, interrupted } = fakeResolver({});
    const reply = playReply(resolver, ['a', 'b', 'c', 'd'].map(piece), { lookAhead: 2 });
    await reply.next();
    await reply.return(undefined);
    await new Promise((r) => setTimeout(r, 30)); // the fake resolves each piece on a timer
    expect(started).toEqual(['a', 'b', 'c']);
    expect(cancelled.sort()).toEqual(['b', 'c']);
    expect(interrupted).toEqual([]);
  });

  it('interrupts what was resolved ahead when the listener interrupted', async () => {
    const { resolver, cancelled, interrupted } = fakeResolver({});
    const stop = new AbortController();
    const reply = playReply(resolver, ['a', 'b', 'c', 'd'].map(piece), {
      lookAhead: 2,
      interrupted: stop.signal,
    });
    await reply.next();
    stop.abort();
    await reply.return(undefined);
    await new Promise((r) => setTimeout(r, 30)); // the fake resolves each piece on a timer
    expect(interrupted.sort()).toEqual(['b', 'c']);
    expect(cancelled).toEqual([]);
  });

  it("surfaces a piece's failure in its turn, then goes on with the pieces after it", async () => {
    const { resolver } = fakeResolver({});
    const seen: string[] = [];
    for await (const p of playReply(resolver, ['a', 'boom', 'c'].map(piece), { lookAhead: 2 })) {
      seen.push(`${p.index}:${p.request.text}:${p.failure ? p.failure.code : 'audio'}`);
    }
    // An unknown error is the router's own failure by the time a client could see it.
    expect(seen).toEqual(['0:a:audio', '1:boom:internal', '2:c:audio']);
  });

  it('ends at once when the client leaves while the next piece is still to come, and cancels it later', async () => {
    const { resolver, cancelled } = fakeResolver({ slow: 50 });
    const left = new AbortController();
    const text = new AsyncQueue<PieceRequest>();
    const reply = playReply(resolver, text, { lookAhead: 1, left: left.signal });
    text.push(piece('slow'));
    const first = reply.next();
    setTimeout(() => left.abort(), 5);
    await expect(first).resolves.toEqual({ done: true, value: undefined });
    await new Promise((r) => setTimeout(r, 80));
    expect(cancelled).toEqual(['slow']);
  });

  it('interrupts the piece it was waiting for when the listener interrupts', async () => {
    const { resolver, interrupted } = fakeResolver({ slow: 50 });
    const stop = new AbortController();
    const reply = playReply(resolver, [piece('slow')], { lookAhead: 1, interrupted: stop.signal });
    const first = reply.next();
    stop.abort();
    await expect(first).resolves.toEqual({ done: true, value: undefined });
    await new Promise((r) => setTimeout(r, 80));
    expect(interrupted).toEqual(['slow']);
  });

  it('stops waiting for more text when halted', async () => {
    const { resolver } = fakeResolver({});
    const left = new AbortController();
    const text = new AsyncQueue<PieceRequest>();
    const reply = playReply(resolver, text, { lookAhead: 1, left: left.signal });
    const first = reply.next();
    left.abort();
    await expect(first).resolves.toEqual({ done: true, value: undefined });
  });

  it('plays a piece at once though the pieces after it have not arrived', async () => {
    const { resolver } = fakeResolver({});
    const text = new AsyncQueue<PieceRequest>();
    const reply = playReply(resolver, text, { lookAhead: 2 });
    text.push(piece('first'));
    const first = await reply.next();
    expect(first.done ? null : first.value.request.text).toBe('first');
    const second = reply.next();
    text.push(piece('second'));
    const got = await second;
    expect(got.done ? null : got.value.index).toBe(1);
    text.end();
    await expect(reply.next()).resolves.toEqual({ done: true, value: undefined });
  });
});
