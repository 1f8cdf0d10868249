import type { SynthSettings } from '@router/contracts';
import { getVendor } from '@router/vendors';
import type { VendorDefinition } from '@router/vendors-core';
import type { PieceAudio, PieceRequest, PieceResolver } from './piece-resolver';
import type { ReplyPlanner } from './reply-planner';
import { ReplyStream, type ReplyStreamEvents } from './reply-stream';

const DEF: VendorDefinition = getVendor('vendor_c');

const settings = (voice: string): SynthSettings => ({
  vendor: 'vendor_c',
  model: 'c_model_1',
  voice,
  language: null,
  speed: null,
  sampleRate: 8000,
  format: 'pcm',
  options: {},
});

/** A planner whose pieces carry the settings they were planned with (no cache, no stored settings). */
const planner = {
  plan: (orgId: string, def: VendorDefinition, s: SynthSettings) =>
    Promise.resolve({
      def,
      settings: s,
      piece: (text: string): PieceRequest => ({
        orgId,
        settings: s,
        text,
        cacheKey: 'k'.repeat(64),
        cache: false,
        finishesOnInterrupt: false,
      }),
    }),
} as unknown as ReplyPlanner;

/** Each piece's audio is 1,600 bytes of 8 kHz PCM per word of its text (100 ms a word). */
function resolverRecording(
  resolved: PieceRequest[],
  gate?: Promise<void>,
  gated: (text: string) => boolean = () => true,
): PieceResolver {
  return {
    resolve: async (piece: PieceRequest): Promise<PieceAudio> => {
      resolved.push(piece);
      const words = piece.text.split(' ').length;
      return {
        cached: false,
        contentType: 'audio/pcm',
        chunks: (async function* () {
          yield Buffer.alloc(1600 * words);
          if (gate && gated(piece.text)) await gate;
        })(),
        words: () => Promise.resolve(null),
        chars: () => Promise.resolve(null),
        cancel: () => undefined,
        interrupt: () => undefined,
      };
    },
  } as unknown as PieceResolver;
}

function recordingEvents(): { events: ReplyStreamEvents; log: string[] } {
  const log: string[] = [];
  return {
    log,
    events: {
      sentenceStart: ({ sentence, text }) => void log.push(`start ${sentence} ${text}`),
      audio: () => undefined,
      sentenceEnd: ({ sentence, durationMs }) => void log.push(`end ${sentence} ${durationMs}ms`),
      sentenceFailed: (sentence, error) => void log.push(`failed ${sentence} ${error.code}`),
      failed: (error) => void log.push(`stream failed ${String(error)}`),
    },
  };
}

const deps = (resolver: PieceResolver) => ({
  resolver,
  planner,
  lookAhead: 2,
  replanAfterMs: 60_000,
  maxHeldChars: 20_000,
  now: () => 0,
});

describe('ReplyStream', () => {
  it('splits text as it arrives, plays sentences in order and answers a flush after the last one ended', async () => {
    const { events, log } = recordingEvents();
    const stream = new ReplyStream('org', deps(resolverRecording([])), events);
    await stream.configure(DEF, settings('v1'));
    stream.push('Hello there. How are');
    stream.push(' you today? Fine');
    const flushed = new Promise<number | null>((resolve) => stream.flush(resolve));
    await expect(flushed).resolves.toBe(2);
    expect(log).toEqual([
      'start 0 Hello there.',
      'end 0 200ms',
      'start 1 How are you today?',
      'end 1 400ms',
      'start 2 Fine',
      'end 2 100ms',
    ]);
  });

  it('answers a flush with nothing said at once, with null', () => {
    const { events } = recordingEvents();
    const stream = new ReplyStream('org', deps(resolverRecording([])), events);
    return stream.configure(DEF, settings('v1')).then(() => {
      let answered: number | null | undefined;
      stream.flush((last) => (answered = last));
      expect(answered).toBeNull();
    });
  });

  it('speaks text held under the old settings with them when settings change', async () => {
    const resolved: PieceRequest[] = [];
    const { events } = recordingEvents();
    const stream = new ReplyStream('org', deps(resolverRecording(resolved)), events);
    await stream.configure(DEF, settings('v1'));
    stream.push('Held without an end');
    await stream.configure(DEF, settings('v2'));
    stream.push('Said after. ');
    await stream.finish();
    expect(resolved.map((p) => `${p.settings.voice}: ${p.text}`)).toEqual([
      'v1: Held without an end',
      'v2: Said after.',
    ]);
  });

  it('tells spoken from remaining text at an interrupt by the audio played', async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const { events, log } = recordingEvents();
    const stream = new ReplyStream('org', deps(resolverRecording([], gate)), events);
    await stream.configure(DEF, settings('v1'));
    stream.push('One two three. Four five. Six. Seven');
    await new Promise((r) => setTimeout(r, 20));
    // 250 ms heard: the first sentence (300 ms of audio) had started, the second had not.
    const cut = await stream.interrupt(250);
    open();
    expect(cut.spoken).toEqual([{ sentence: 0, text: 'One two three.' }]);
    expect(cut.remaining).toEqual(['Four five.', 'Six.', 'Seven']);
    expect(cut.stopped).toBe(true);
    expect(log).toEqual(['start 0 One two three.']);
  });

  it("tells where each flush an interrupt forgot ends in the remaining text, so a request's rest is told from the next's", async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let playing: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (playing = resolve));
    const { events } = recordingEvents();
    const stream = new ReplyStream('org', deps(resolverRecording([], gate)), {
      ...events,
      sentenceStart: (sentence) => {
        events.sentenceStart(sentence);
        playing();
      },
    });
    await stream.configure(DEF, settings('v1'));
    stream.push('First request. Its second sentence. ');
    stream.flush(() => undefined, 'first');
    stream.push('Next request. ');
    stream.flush(() => undefined, 'next');
    stream.push('Held');
    await started;
    const cut = await stream.interrupt(null);
    open();
    expect(cut.spoken).toEqual([{ sentence: 0, text: 'First request.' }]);
    expect(cut.remaining).toEqual(['Its second sentence.', 'Next request.', 'Held']);
    expect(cut.unanswered).toEqual([
      { label: 'first', through: 1 },
      { label: 'next', through: 2 },
    ]);
  });

  it('says an interrupt stopped nothing once every sentence had ended and no text was held', async () => {
    const { events } = recordingEvents();
    const stream = new ReplyStream('org', deps(resolverRecording([])), events);
    await stream.configure(DEF, settings('v1'));
    stream.push('All of it. ');
    await new Promise<number | null>((resolve) => stream.flush(resolve));
    expect((await stream.interrupt(null)).stopped).toBe(false);
    stream.push('Held, not yet a sentence');
    expect((await stream.interrupt(null)).stopped).toBe(true);
  });

  it("drops the rest of a failed request through its flush's label, answering the flushes it passes", async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const resolved: PieceRequest[] = [];
    const { events, log } = recordingEvents();
    const resolver = resolverRecording(resolved, gate, (text) => text === 'Playing.');
    const stream = new ReplyStream('org', { ...deps(resolver), lookAhead: 1 }, events);
    await stream.configure(DEF, settings('v1'));
    const answers: Array<number | null> = [];
    stream.push('Playing. Ahead. Never sent. ');
    stream.flush((last) => answers.push(last), 'end');
    stream.push('Next request. ');
    stream.flush((last) => answers.push(last), 'end');
    await new Promise((r) => setTimeout(r, 20));
    stream.drop('end'); // as if 'Playing.' had failed: the rest of its request goes
    open();
    await stream.finish();
    expect(resolved.map((p) => p.text)).toEqual(['Playing.', 'Ahead.', 'Next request.']);
    expect(log).toEqual(['start 0 Playing.', 'end 0 100ms', 'start 3 Next request.', 'end 3 200ms']);
    expect(answers).toEqual([2, 3]);
  });

  it('drains: plays every sentence released and answers its flush, drops the text held since', async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const resolved: PieceRequest[] = [];
    const { events, log } = recordingEvents();
    const resolver = resolverRecording(resolved, gate, (text) => text === 'Slow to say.');
    const stream = new ReplyStream('org', deps(resolver), events);
    await stream.configure(DEF, settings('v1'));
    stream.push('Slow to say. Flushed');
    const flushed = new Promise<number | null>((resolve) => stream.flush(resolve));
    stream.push(' and held');
    const drained = stream.drain();
    open();
    await drained;
    await expect(flushed).resolves.toBe(1);
    expect(resolved.map((p) => p.text)).toEqual(['Slow to say.', 'Flushed']);
    expect(log).toEqual(['start 0 Slow to say.', 'end 0 300ms', 'start 1 Flushed', 'end 1 100ms']);
  });

  it('is quiet only once every sentence released has ended and no text awaits a flush', async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const { events, log } = recordingEvents();
    const stream = new ReplyStream('org', deps(resolverRecording([], gate)), events);
    await stream.configure(DEF, settings('v1'));
    expect(stream.quiet).toBe(true);
    stream.push('Said now. And this');
    expect(stream.quiet).toBe(false);
    let quiet = false;
    void stream.whenQuiet().then(() => (quiet = true));
    stream.flush(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Flushed, but the sentences still play: not quiet yet.
    expect(quiet).toBe(false);
    open();
    await stream.whenQuiet();
    expect(quiet).toBe(true);
    expect(log).toEqual(['start 0 Said now.', 'end 0 200ms', 'start 1 And this', 'end 1 200ms']);
  });

  it('forgets a flush that an interrupt overtook', async () => {
    const gate = new Promise<void>(() => undefined);
    const { events } = recordingEvents();
    const resolver = resolverRecording([], gate, (text) => text === 'Never ends.');
    const stream = new ReplyStream('org', deps(resolver), events);
    await stream.configure(DEF, settings('v1'));
    stream.push('Never ends. ');
    const answers: Array<number | null> = [];
    stream.flush((last) => answers.push(last));
    await stream.interrupt(null);
    stream.push('Next one. ');
    stream.flush((last) => answers.push(last));
    await new Promise((r) => setTimeout(r, 20));
    expect(answers).toEqual([1]);
  });
});
