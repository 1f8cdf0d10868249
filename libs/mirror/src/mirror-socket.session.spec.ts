import { RouterError, type SynthSettings } from '@router/contracts';
import { createLogger } from '@router/observability';
import type {
  PieceAudio,
  PieceRequest,
  PieceResolver,
  ReplyPlanner,
  RequestLogRow,
  RequestLogWriter,
} from '@router/pipeline';
import type {
  SocketCommand,
  SocketConnection,
  SocketContextRenderer,
  SocketDrop,
  VendorDefinition,
} from '@router/vendors-core';
import { MirrorSocketSession, type SocketTimers } from './mirror-socket.session';

const SETTINGS: SynthSettings = {
  vendor: 'vendor_c',
  model: 'c_model_1',
  voice: 'v1',
  language: null,
  speed: null,
  sampleRate: 8000,
  format: 'pcm',
  options: {},
};

const planner = {
  plan: (orgId: string, def: VendorDefinition, settings: SynthSettings) =>
    Promise.resolve({
      def,
      settings,
      piece: (text: string): PieceRequest => ({
        orgId,
        settings,
        text,
        cacheKey: 'k'.repeat(64),
        cache: false,
        finishesOnInterrupt: false,
      }),
    }),
} as unknown as ReplyPlanner;

/**
 * Each sentence's audio is two chunks, `<text>:1` and `<text>:2`; sentences in `held` wait for `release`
 * between them, and one starting with `Fail` fails there, its take cut; one starting with `Warn` is spoken
 * whole with the vendor's warning; one starting with `Cached` comes from the cache. `resolved` lists what was
 * asked for.
 */
function resolverOf(
  held: Set<string>,
  release: Promise<void>,
  log: string[],
  resolved: string[],
): PieceResolver {
  return {
    resolve: (piece: PieceRequest): Promise<PieceAudio> => {
      resolved.push(piece.text);
      return Promise.resolve({
        cached: piece.text.startsWith('Cached'),
        contentType: 'audio/pcm',
        chunks: (async function* () {
          yield Buffer.from(`${piece.text}:1`);
          if (held.has(piece.text)) await release;
          if (piece.text.startsWith('Fail')) throw new RouterError('provider_unavailable', 'cut');
          yield Buffer.from(`${piece.text}:2`);
        })(),
        words: () => Promise.resolve(null),
        chars: () => Promise.resolve(null),
        warning: () =>
          Promise.resolve(piece.text.startsWith('Warn') ? { code: 'w_code', message: 'careful' } : null),
        cancel: () => log.push(`cancel ${piece.text}`),
        interrupt: () => log.push(`interrupt ${piece.text}`),
      });
    },
  } as unknown as PieceResolver;
}

/**
 * A made-up vendor wire, enough to drive every command: `{c, text?, settings?, flush? (true or a tag), quiet?
 * (ms, then a flush tagged `timed`), end?, cancel?, drain?, close?, ping?, bad?}`; frames are
 * `<context> <event> [detail]`. A failed sentence's error drops what `drop` says (the vendor's rule).
 */
const toyConnection = (drop?: SocketDrop): SocketConnection => ({
  opened: () => [],
  parse(frame) {
    const m = JSON.parse(frame.toString()) as Record<string, unknown>;
    const c = typeof m['c'] === 'string' ? m['c'] : '';
    const commands: SocketCommand[] = [];
    if (m['bad']) return [{ kind: 'refuse', frame: 'refused', close: { code: 4400, reason: 'bad' } }];
    if (m['ping']) commands.push({ kind: 'send', frame: 'pong' });
    if (m['settings']) commands.push({ kind: 'configure', context: c, settings: SETTINGS });
    if (typeof m['text'] === 'string') commands.push({ kind: 'text', context: c, text: m['text'] });
    if (m['flush'] === true) commands.push({ kind: 'flush', context: c });
    if (typeof m['flush'] === 'string') commands.push({ kind: 'flush', context: c, tag: m['flush'] });
    if (typeof m['quiet'] === 'number') {
      const flush: SocketCommand = { kind: 'flush', context: c, tag: 'timed' };
      commands.push({ kind: 'when-quiet', context: c, ms: m['quiet'], commands: [flush] });
    }
    if (m['end']) commands.push({ kind: 'finish', context: c });
    if (m['cancel'] === true) commands.push({ kind: 'cancel', context: c });
    if (typeof m['cancel'] === 'number') commands.push({ kind: 'cancel', context: c, playedMs: m['cancel'] });
    if (m['drain']) commands.push({ kind: 'drain', context: c });
    if (m['close']) commands.push({ kind: 'close' });
    return commands;
  },
  context: (id) => ({
    audio: (chunk, at) => [
      `${id} audio ${chunk.toString()}${at.first ? ' first' : ''}${at.contentType === 'audio/pcm' ? '' : ' untyped'}`,
    ],
    sentenceEnd: ({ sentence, warning }) => [
      `${id} end ${sentence}${warning ? ` warning ${warning.code ?? ''} ${warning.message}` : ''}`,
    ],
    flushed: (tag) => [`${id} flushed${tag === undefined ? '' : ` ${tag}`}`],
    finished: (end) => [
      `${id} final${end.kind === 'cancel' ? ` cancel${end.stopped ? '' : ' nothing'}` : ''}`,
    ],
    failed: (error, at) => ({
      frames: [`${id} error ${error.code}${at ? ` at ${at.sentence}` : ''}`],
      ...(at && drop ? { drop } : {}),
    }),
  }),
});

/** Timers on a clock the test moves: `advance` fires, in order, those due by then. */
class HandClock implements SocketTimers {
  private at = 0;
  private readonly pending = new Set<{ due: number; fire: () => void }>();

  start(ms: number, fire: () => void): () => void {
    const timer = { due: this.at + ms, fire };
    this.pending.add(timer);
    return () => this.pending.delete(timer);
  }

  advance(ms: number): void {
    this.at += ms;
    const due = [...this.pending].filter((t) => t.due <= this.at).sort((a, b) => a.due - b.due);
    for (const timer of due) {
      this.pending.delete(timer);
      timer.fire();
    }
  }

  get waiting(): number {
    return this.pending.size;
  }
}

function session(held: string[] = [], drop?: SocketDrop, render?: Partial<SocketContextRenderer>) {
  const frames: string[] = [];
  const closed: Array<{ code: number; reason: string }> = [];
  const log: string[] = [];
  const resolved: string[] = [];
  let open: () => void = () => undefined;
  const release = new Promise<void>((resolve) => (open = resolve));
  const clock = new HandClock();
  /** The messages the codec was asked to read. */
  const parsed: string[] = [];
  /** The request log rows the session wrote. */
  const rows: RequestLogRow[] = [];
  const writer = { record: (row: RequestLogRow) => rows.push(row) } as unknown as RequestLogWriter;
  const toy = toyConnection(drop);
  const connection: SocketConnection = {
    ...toy,
    context: (id) => ({ ...toy.context(id), ...render }),
    parse: (frame, isBinary) => {
      parsed.push(frame.toString());
      return toy.parse(frame, isBinary);
    },
  };
  const s = new MirrorSocketSession(
    'session-1',
    'org',
    {
      send: (data) => {
        frames.push(data.toString());
        return Promise.resolve();
      },
      close: (code, reason) => closed.push({ code, reason }),
    },
    connection,
    {
      resolver: resolverOf(new Set(held), release, log, resolved),
      planner,
      lookAhead: 2,
      replanAfterMs: 60_000,
      maxHeldChars: 20_000,
      now: () => 0,
      timers: clock,
      logger: createLogger({ level: 'silent', service: 'test' }),
      requestLog: { writer, keyHash: null, vendor: 'vendor_c' },
    },
  );
  const say = (message: Record<string, unknown>) => s.receive(Buffer.from(JSON.stringify(message)), false);
  return { s, say, frames, closed, log, resolved, clock, parsed, rows, connection, release: () => open() };
}

const settle = () => new Promise((r) => setTimeout(r, 20));
/** Waits for a state, turn after turn of the event loop (the test's own timeout bounds it). */
const until = async (done: () => boolean): Promise<void> => {
  while (!done()) await new Promise((r) => setImmediate(r));
};

describe('MirrorSocketSession', () => {
  it("plays a context's sentences in order, marking each one's first chunk, and ends it with its final frame", async () => {
    const { say, frames } = session();
    say({ c: 'a', settings: true, text: 'One. Two. ', end: true });
    await settle();
    expect(frames).toEqual([
      'a audio One.:1 first',
      'a audio One.:2',
      'a end 0',
      'a audio Two.:1 first',
      'a audio Two.:2',
      'a end 1',
      'a final',
    ]);
  });

  it("writes one request log row once the socket closes, naming its contexts' model and voice, never the text", async () => {
    const { say, rows } = session();
    say({ c: 'a', settings: true, text: 'One. Cached two. ', end: true });
    say({ close: true });
    await settle();
    expect(rows).toEqual([
      expect.objectContaining({
        orgId: 'org',
        surface: 'mirror_socket',
        vendor: 'vendor_c',
        model: SETTINGS.model,
        voice: SETTINGS.voice,
        sentences: 2,
        cachedSentences: 1,
        chars: 'One.'.length + 'Cached two.'.length,
        status: 'ok',
      }),
    ]);
    expect(JSON.stringify(rows)).not.toContain('One.');
  });

  it('tells the renderer of each sentence whether it came from the cache, its bytes and how long it plays', async () => {
    const audio: string[] = [];
    const ends: unknown[] = [];
    const { say } = session([], undefined, {
      audio: (chunk, at) => {
        audio.push(`${chunk.toString()} ${at.cached ? 'cached' : 'vendor'}`);
        return [];
      },
      sentenceEnd: ({ sentence, text, cached, bytes, durationMs }) => {
        ends.push({ sentence, text, cached, bytes, durationMs });
        return [];
      },
    });
    say({ c: 'a', settings: true, text: 'Cached one. Fresh two. ', end: true });
    await settle();
    expect(audio).toEqual([
      'Cached one.:1 cached',
      'Cached one.:2 cached',
      'Fresh two.:1 vendor',
      'Fresh two.:2 vendor',
    ]);
    // 16-bit PCM at 8000 Hz: 2 bytes a sample, 16 samples a millisecond.
    expect(ends).toEqual([
      { sentence: 0, text: 'Cached one.', cached: true, bytes: 26, durationMs: 26 / 16 },
      { sentence: 1, text: 'Fresh two.', cached: false, bytes: 24, durationMs: 24 / 16 },
    ]);
  });

  it("hands a take's warning to the renderer after its audio, and each chunk its take's content type", async () => {
    const { say, frames } = session();
    say({ c: 'a', settings: true, text: 'Warn me. Fine. ', end: true });
    await settle();
    expect(frames).toEqual([
      'a audio Warn me.:1 first',
      'a audio Warn me.:2',
      'a end 0 warning w_code careful',
      'a audio Fine.:1 first',
      'a audio Fine.:2',
      'a end 1',
      'a final',
    ]);
  });

  it('does not hold up other contexts while one finishes', async () => {
    const { say, frames, release } = session(['Slow.']);
    say({ c: 'a', settings: true, text: 'Slow. ', end: true });
    say({ c: 'b', settings: true, text: 'Quick. ', end: true });
    await settle();
    expect(frames).toEqual([
      'a audio Slow.:1 first',
      'b audio Quick.:1 first',
      'b audio Quick.:2',
      'b end 0',
      'b final',
    ]);
    release();
    await settle();
    expect(frames.slice(5)).toEqual(['a audio Slow.:2', 'a end 0', 'a final']);
  });

  it("answers a flush once the flushed sentence's audio is sent", async () => {
    const { say, frames } = session();
    say({ c: 'a', settings: true, text: 'No end yet', flush: true });
    await settle();
    expect(frames).toEqual(['a audio No end yet:1 first', 'a audio No end yet:2', 'a end 0', 'a flushed']);
  });

  it('stops a cancelled context at the vendor and ends it', async () => {
    const { say, frames, log } = session(['Long one.']);
    say({ c: 'a', settings: true, text: 'Long one. Never said. ' });
    await settle();
    say({ c: 'a', cancel: true });
    await settle();
    expect(frames).toEqual(['a audio Long one.:1 first', 'a final cancel']);
    expect(log).toContain('interrupt Long one.');
  });

  it('plays a cancelled context named again only after the cancelled one has ended', async () => {
    const { say, frames, log } = session(['Long one.']);
    say({ c: 'a', settings: true, text: 'Long one. Never said. ' });
    await settle();
    say({ c: 'a', cancel: true });
    say({ c: 'a', settings: true, flush: 'nothing yet' });
    say({ c: 'a', text: 'Again. ', flush: true });
    say({ c: 'b', settings: true, text: 'Other. ', flush: true });
    await settle();
    expect(frames.filter((f) => f.startsWith('a '))).toEqual([
      'a audio Long one.:1 first',
      'a final cancel',
      'a flushed nothing yet',
      'a audio Again.:1 first',
      'a audio Again.:2',
      'a end 0',
      'a flushed',
    ]);
    expect(frames.filter((f) => f.startsWith('b '))).toHaveLength(4);
    expect(log).toEqual(['interrupt Long one.']);
  });

  describe('a cancel at a played position (a barge-in the client reports)', () => {
    /** The cancel's spoken and remaining text, as the renderer is told. */
    function cancelSession(held: string[]) {
      const told: unknown[] = [];
      const s = session(held, undefined, {
        finished: (end) => {
          if (end.kind === 'cancel') told.push({ spoken: end.spoken, remaining: end.remaining });
          return [];
        },
      });
      return { ...s, told };
    }
    // Each sentence's audio is `<text>:1<text>:2` as 16-bit PCM at 8000 Hz: 16 bytes a millisecond, so
    // 'One.' plays 12/16 ms and 'Two.' 12/16 ms.
    it('splits the text at sentence boundaries: a sentence whose audio had started by the position is spoken', async () => {
      const { say, told } = cancelSession(['Three.']);
      say({ c: 'a', settings: true, text: 'One. Two. Three. Four. Held' });
      await settle();
      say({ c: 'a', cancel: 1 }); // past the end of One. (0.75 ms): Two. had started
      await settle();
      expect(told).toEqual([
        {
          spoken: [
            { sentence: 0, text: 'One.' },
            { sentence: 1, text: 'Two.' },
          ],
          remaining: ['Three.', 'Four.', 'Held'],
        },
      ]);
    });

    it('counts a sentence as spoken only once the position is past its start', async () => {
      const { say, told } = cancelSession(['Three.']);
      say({ c: 'a', settings: true, text: 'One. Two. Three. ' });
      await settle();
      say({ c: 'a', cancel: 0.75 }); // exactly the end of One.: Two. had not started
      await settle();
      expect(told).toEqual([{ spoken: [{ sentence: 0, text: 'One.' }], remaining: ['Two.', 'Three.'] }]);
    });

    it('counts every sentence whose audio had started as spoken when no position is given', async () => {
      const { say, told } = cancelSession(['Three.']);
      say({ c: 'a', settings: true, text: 'One. Two. Three. Four. ' });
      await settle();
      say({ c: 'a', cancel: true });
      await settle();
      expect(told).toEqual([
        {
          spoken: [
            { sentence: 0, text: 'One.' },
            { sentence: 1, text: 'Two.' },
            { sentence: 2, text: 'Three.' },
          ],
          remaining: ['Four.'],
        },
      ]);
    });

    it('tells the renderer where each flush it left unanswered ends in the remaining text, by its tag', async () => {
      const told: unknown[] = [];
      const { say, frames } = session(['Two.'], undefined, {
        finished: (end) => {
          if (end.kind === 'cancel') told.push({ remaining: end.remaining, unanswered: end.unanswered });
          return [];
        },
      });
      say({ c: 'a', settings: true, text: 'One. Two. Three. ', flush: 'first' });
      say({ c: 'a', text: 'Four. ', flush: 'second' });
      say({ c: 'a', text: 'Held' });
      await until(() => frames.includes('a audio Two.:1 first'));
      say({ c: 'a', cancel: true });
      await until(() => told.length > 0);
      expect(told).toEqual([
        {
          remaining: ['Three.', 'Four.', 'Held'],
          unanswered: [
            { tag: 'first', through: 1 },
            { tag: 'second', through: 2 },
          ],
        },
      ]);
    });

    it("counts the position from the context's first sentence after its last cancel", async () => {
      const { say, told } = cancelSession(['Six.']);
      say({ c: 'a', settings: true, text: 'Zero. ' });
      await settle();
      say({ c: 'a', cancel: true });
      say({ c: 'a', settings: true, text: 'Five. Six. Seven. ' });
      await settle();
      say({ c: 'a', cancel: 0.5 });
      await settle();
      expect(told[1]).toEqual({ spoken: [{ sentence: 0, text: 'Five.' }], remaining: ['Six.', 'Seven.'] });
    });
  });

  it("tells the renderer a cancel stopped nothing once the context's text has all been spoken", async () => {
    const { say, frames } = session();
    say({ c: 'a', settings: true, text: 'All said. ', flush: true });
    await settle();
    say({ c: 'a', cancel: true });
    say({ c: 'b', settings: true, text: 'Still held' });
    say({ c: 'b', cancel: true });
    await settle();
    expect(frames.filter((f) => f.includes('final'))).toEqual(['a final cancel nothing', 'b final cancel']);
  });

  it("answers a ping at once while a context's audio is still to come, not behind it", async () => {
    const { say, frames, release } = session(['Long one.']);
    say({ c: 'a', settings: true, text: 'Long one. ', flush: true });
    await settle();
    say({ ping: true });
    await settle();
    expect(frames).toEqual(['a audio Long one.:1 first', 'pong']);
    release();
    await settle();
    expect(frames.slice(2)).toEqual(['a audio Long one.:2', 'a end 0', 'a flushed']);
  });

  describe("a failed sentence's drop (a vendor that speaks nothing more of a failed request)", () => {
    it('drops the rest of the context: sentences never resolved stay unsent, those resolved ahead are stopped unheard, held text goes', async () => {
      const { say, frames, log, resolved, release } = session(['Fail one.'], {});
      say({ c: 'a', settings: true, text: 'Fail one. Two. Three. Four. Held' });
      await settle();
      expect(resolved).toEqual(['Fail one.', 'Two.', 'Three.']); // the look-ahead of 2
      release();
      await settle();
      expect(frames).toEqual(['a audio Fail one.:1 first', 'a error provider_unavailable at 0']);
      // The failed sentence's take is let go as any cut one is; the two resolved ahead are stopped.
      expect(log).toEqual(['cancel Fail one.', 'interrupt Two.', 'interrupt Three.']);
      say({ c: 'a', text: ' After. ', end: true });
      await settle();
      expect(resolved).toEqual(['Fail one.', 'Two.', 'Three.', 'After.']);
      expect(frames.slice(2)).toEqual(['a audio After.:1 first', 'a audio After.:2', 'a end 4', 'a final']);
    });

    it('drops only through the tagged flush that ends the failed request: flushes on the way are answered, the next request plays', async () => {
      const { say, frames, log, release } = session(['Fail one.'], { through: 'end' });
      say({ c: 'a', settings: true, text: 'Fail one. Two', flush: 'mid' });
      say({ c: 'a', text: 'Three. ', flush: 'end' });
      say({ c: 'a', text: 'Next request. ', flush: 'end' });
      say({ c: 'a', text: 'Held' });
      await settle();
      release();
      await settle();
      expect(frames).toEqual([
        'a audio Fail one.:1 first',
        'a error provider_unavailable at 0',
        'a flushed mid',
        'a flushed end',
        'a audio Next request.:1 first',
        'a audio Next request.:2',
        'a end 3',
        'a flushed end',
      ]);
      say({ c: 'a', end: true });
      await settle();
      expect(frames.slice(8)).toEqual(['a audio Held:1 first', 'a audio Held:2', 'a end 4', 'a final']);
      expect(log).toEqual(['cancel Fail one.', 'interrupt Two', 'interrupt Three.']);
    });

    it("drops nothing where the renderer does not say so: the context goes on with the failed sentence's next", async () => {
      const { say, frames, release } = session(['Fail one.']);
      say({ c: 'a', settings: true, text: 'Fail one. Two. ', end: true });
      release();
      await settle();
      expect(frames).toEqual([
        'a audio Fail one.:1 first',
        'a error provider_unavailable at 0',
        'a audio Two.:1 first',
        'a audio Two.:2',
        'a end 1',
        'a final',
      ]);
    });
  });

  it('drains a context: the sentences flushed before play out, text held since is dropped, then its final', async () => {
    const { say, frames, log, release } = session(['Long one.']);
    say({ c: 'a', settings: true, text: 'Long one. Flushed', flush: true });
    say({ c: 'a', text: ' never flushed', drain: true });
    say({ c: 'b', settings: true, text: 'Other. ', end: true });
    await settle();
    // Context b is not held up while a drains.
    expect(frames.filter((f) => f.startsWith('b '))).toEqual([
      'b audio Other.:1 first',
      'b audio Other.:2',
      'b end 0',
      'b final',
    ]);
    release();
    await settle();
    expect(frames.filter((f) => f.startsWith('a '))).toEqual([
      'a audio Long one.:1 first',
      'a audio Long one.:2',
      'a end 0',
      'a audio Flushed:1 first',
      'a audio Flushed:2',
      'a end 1',
      'a flushed',
      'a final',
    ]);
    expect(log).toEqual([]);
  });

  it('closes normally once every context has finished', async () => {
    const { say, frames, closed, release } = session(['Slow.']);
    say({ c: 'a', settings: true, text: 'Slow. ' });
    say({ c: 'b', settings: true, text: 'Other. ' });
    say({ close: true });
    await settle();
    expect(closed).toEqual([]);
    release();
    await settle();
    expect(frames.filter((f) => f.endsWith('final')).sort()).toEqual(['a final', 'b final']);
    expect(closed).toEqual([{ code: 1000, reason: '' }]);
  });

  it("sends the connection's closing frames once every context has finished, then closes", async () => {
    const { say, frames, closed, release, connection } = session(['Slow.']);
    connection.closing = () => [`closing after ${frames.filter((f) => f.endsWith('final')).length} finals`];
    say({ c: 'a', settings: true, text: 'Slow. ' });
    say({ c: 'b', settings: true, text: 'Other. ' });
    say({ close: true });
    await settle();
    expect(frames).not.toContain('closing after 2 finals');
    release();
    await settle();
    expect(frames.at(-1)).toBe('closing after 2 finals');
    expect(closed).toEqual([{ code: 1000, reason: '' }]);
  });

  it('answers at once, refuses with the codec close code, and does not read what comes after', async () => {
    const { say, frames, closed, parsed } = session();
    say({ ping: true });
    say({ bad: true });
    say({ c: 'a', settings: true, text: 'Too late. ', end: true });
    await settle();
    expect(frames).toEqual(['pong', 'refused']);
    expect(closed).toEqual([{ code: 4400, reason: 'bad' }]);
    expect(parsed).toEqual(['{"ping":true}', '{"bad":true}']);
  });

  it("refuses text before the context's settings in the codec's error shape, and goes on", async () => {
    const { say, frames, closed } = session();
    say({ c: 'a', text: 'Hello. ' });
    say({ c: 'a', settings: true, text: 'Hello. ', end: true });
    await settle();
    expect(frames[0]).toBe('a error bad_request');
    expect(frames.at(-1)).toBe('a final');
    expect(closed).toEqual([]);
  });

  it("hands a flush's tag back to the renderer once its sentences are sent", async () => {
    const { say, frames } = session();
    say({ c: 'a', settings: true, text: 'One. ', flush: 'turn' });
    say({ c: 'a', text: 'Two', flush: true });
    await settle();
    expect(frames.filter((f) => f.includes('flushed'))).toEqual(['a flushed turn', 'a flushed']);
  });

  describe('when-quiet: time-based buffering on the session clock', () => {
    it("carries out the commands once the context has had no text for the time: a trailing fragment's timed flush", async () => {
      const { say, frames, clock } = session();
      say({ c: 'a', settings: true, text: 'A sentence. A trailing fragment', quiet: 100 });
      await settle();
      expect(frames).toEqual(['a audio A sentence.:1 first', 'a audio A sentence.:2', 'a end 0']);
      clock.advance(99);
      await settle();
      expect(frames).toHaveLength(3);
      clock.advance(1);
      await settle();
      expect(frames.slice(3)).toEqual([
        'a audio A trailing fragment:1 first',
        'a audio A trailing fragment:2',
        'a end 1',
        'a flushed timed',
      ]);
      expect(clock.waiting).toBe(0);
    });

    it("starts the wait again with the context's next text, and leaves the other contexts' waits alone", async () => {
      const { say, frames, clock } = session();
      say({ c: 'a', settings: true, text: 'Part one', quiet: 100 });
      say({ c: 'b', settings: true, text: 'Other part', quiet: 100 });
      await settle();
      clock.advance(60);
      say({ c: 'a', text: ' and part two', quiet: 100 });
      await settle();
      clock.advance(60); // b's wait is over, a's first one would have been
      await settle();
      expect(frames).toEqual([
        'b audio Other part:1 first',
        'b audio Other part:2',
        'b end 0',
        'b flushed timed',
      ]);
      clock.advance(40);
      await settle();
      expect(frames.slice(4)).toEqual([
        'a audio Part one and part two:1 first',
        'a audio Part one and part two:2',
        'a end 0',
        'a flushed timed',
      ]);
    });

    it('drops a wait that ends while text of the context received before it still waits its turn', async () => {
      const { say, frames, clock } = session();
      say({ c: 'a', settings: true, text: 'Part one', quiet: 100 });
      await settle();
      // The text is received before the wait ends, and carried out after it: it still counts.
      say({ c: 'a', text: ' and more' });
      clock.advance(100);
      await settle();
      expect(frames).toEqual([]);
      say({ c: 'a', end: true });
      await settle();
      expect(frames.at(-2)).toBe('a end 0');
      expect(frames.at(-1)).toBe('a final');
      expect(frames.some((f) => f.includes('timed'))).toBe(false);
    });

    it('drops the wait when the context ends, and every wait when the client leaves', async () => {
      const { s, say, frames, clock } = session();
      say({ c: 'a', settings: true, text: 'Ended', quiet: 100 });
      say({ c: 'a', end: true });
      say({ c: 'b', settings: true, text: 'Left behind', quiet: 100 });
      await settle();
      expect(clock.waiting).toBe(1);
      s.disconnected();
      expect(clock.waiting).toBe(0);
      clock.advance(100);
      await settle();
      expect(frames.some((f) => f.includes('timed'))).toBe(false);
    });
  });
});
