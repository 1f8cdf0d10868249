import { Take } from './take';

/** A sentence take's shapes: the content type before the audio, timings after it. */
function pcmTake(): Take<{ contentType: string }, { words: null; cached: boolean }> {
  return new Take({ contentType: 'audio/pcm' });
}

async function collect(iterable: AsyncIterable<Buffer>): Promise<string> {
  const parts: string[] = [];
  for await (const chunk of iterable) parts.push(chunk.toString());
  return parts.join('|');
}

describe('Take', () => {
  it('gives a late joiner the whole take from its first chunk, then the live ones', async () => {
    const take = pcmTake();
    take.push(Buffer.from('a'));
    const early = collect(take.follow());
    take.push(Buffer.from('b'));
    const late = collect(take.follow());
    take.push(Buffer.from('c'));
    take.complete({ words: null, cached: true });
    expect(await early).toBe('a|b|c');
    expect(await late).toBe('a|b|c');
    expect(await take.result).toEqual({ words: null, cached: true });
  });

  it('fails every follower after the chunks already sent', async () => {
    const take = pcmTake();
    const seen: string[] = [];
    const following = (async () => {
      for await (const chunk of take.follow()) seen.push(chunk.toString());
    })();
    take.push(Buffer.from('x'));
    await new Promise((r) => setImmediate(r));
    take.fail(new Error('cut'));
    await expect(following).rejects.toThrow('cut');
    expect(seen).toEqual(['x']);
    await expect(take.result).rejects.toThrow('cut');
  });

  it('lets one follower leave without ending the take for the others', async () => {
    const take = pcmTake();
    const leaving = new AbortController();
    const left = collect(take.follow(leaving.signal));
    const staying = collect(take.follow());
    take.push(Buffer.from('1'));
    await new Promise((r) => setImmediate(r));
    leaving.abort();
    take.push(Buffer.from('2'));
    take.complete({ words: null, cached: false });
    expect(await left).toBe('1');
    expect(await staying).toBe('1|2');
  });
});

describe('Take followers and their abort signals', () => {
  it('adds one abort listener per follower whatever the number of waits, and removes it at the end', async () => {
    const take = pcmTake();
    const signal = new AbortController().signal;
    let added = 0;
    let removed = 0;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = (...args: Parameters<AbortSignal['addEventListener']>) => {
      added += 1;
      add(...args);
    };
    signal.removeEventListener = (...args: Parameters<AbortSignal['removeEventListener']>) => {
      removed += 1;
      remove(...args);
    };
    const following = collect(take.follow(signal));
    for (let i = 0; i < 20; i += 1) {
      await new Promise((r) => setImmediate(r));
      take.push(Buffer.from(String(i % 10)));
    }
    take.complete({ words: null, cached: true });
    expect((await following).split('|')).toHaveLength(20);
    expect(added).toBe(1);
    expect(removed).toBe(1);
  });
});

describe('Take stopped on interruption', () => {
  it('stops only once every follower has gone, in whichever order stop and leaving arrive', async () => {
    const take = pcmTake();
    const first = new AbortController();
    const second = new AbortController();
    const a = collect(take.follow(first.signal));
    const b = collect(take.follow(second.signal));
    take.push(Buffer.from('x'));
    await new Promise((r) => setImmediate(r));
    take.requestStop();
    first.abort();
    await a;
    expect(take.stopped.aborted).toBe(false); // the second request still listens
    second.abort();
    await b;
    expect(take.stopped.aborted).toBe(true);
  });

  it('is never stopped when nobody asked, however many leave', async () => {
    const take = pcmTake();
    const gone = new AbortController();
    const following = collect(take.follow(gone.signal));
    await new Promise((r) => setImmediate(r));
    gone.abort();
    take.push(Buffer.from('x'));
    await following;
    expect(take.stopped.aborted).toBe(false);
  });

  it('is not stopped once it has finished', () => {
    const take = pcmTake();
    take.complete({ words: null, cached: true });
    take.requestStop();
    expect(take.stopped.aborted).toBe(false);
  });
});
