import type { PieceAudio, PieceRequest, PieceResolver } from './piece-resolver';
import { playReply } from './reply';

function fakeResolver(delays: Record<string, number>) {
  const started: string[] = [];
  const cancelled: string[] = [];
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
        cancel: () => cancelled.push(piece.text),
      };
    },
  } as unknown as PieceResolver;
  return { resolver, started, cancelled };
}

const piece = (text: string): PieceRequest => ({
  orgId: 'o',
  text,
  cacheKey: 'k'.repeat(64),
  cache: true,
  settings: {
    vendor: 'vendor_a',
    model: 'm',
    voice: 'v',
    language: null,
    speed: null,
    sampleRate: 8000,
    format: 'pcm',
    options: {},
  },
});

describe('playReply', () => {
  it('plays pieces in order even when later ones resolve first', async () => {
    const { resolver } = fakeResolver({ one: 30, two: 0, three: 10 });
    const out: string[] = [];
    for await (const p of playReply(resolver, ['one', 'two', 'three'].map(piece), 2)) {
      for await (const c of p.chunks) out.push(`${p.index}:${c.toString()}`);
    }
    expect(out).toEqual(['0:one', '1:two', '2:three']);
  });

  it('resolves at most lookAhead pieces beyond the one playing', async () => {
    const { resolver, started } = fakeResolver({});
    const reply = playReply(resolver, ['a', 'b', 'c', 'd', 'e'].map(piece), 1);
    await reply.next();
    expect(started).toEqual(['a', 'b']);
    await reply.return(undefined);
  });

  it('cancels what was resolved ahead and asks for nothing more when the listener stops', async () => {
    const { resolver, started, cancelled } = fakeResolver({});
    const reply = playReply(resolver, ['a', 'b', 'c', 'd'].map(piece), 2);
    await reply.next();
    await reply.return(undefined);
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual(['a', 'b', 'c']);
    expect(cancelled.sort()).toEqual(['b', 'c']);
  });

  it("surfaces a piece's failure in its turn, after the pieces before it", async () => {
    const { resolver } = fakeResolver({});
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const p of playReply(resolver, ['a', 'boom', 'c'].map(piece), 2)) seen.push(p.index);
      })(),
    ).rejects.toThrow('vendor failed');
    expect(seen).toEqual([0]);
  });
});
