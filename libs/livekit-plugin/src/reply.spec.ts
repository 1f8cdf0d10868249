import fc from 'fast-check';
import { initializeLogger, type tts } from '@livekit/agents';
import { RouterApiError, type StreamEvent } from '@speech-router/client';
import { AudioFormatError } from './pcm-decoder';
import { Reply, ReplyCutError, type SentenceRecord, USERDATA_SENTENCE } from './reply';
import type { NextEvent, RouterConnection } from './router-connection';

initializeLogger({ pretty: false, level: 'silent' });

const RATE = 1000; // 100 samples (200 bytes) a frame

/** A connection whose router answers from a script: the events the test queues, in order. */
class ScriptedConnection {
  readonly sent: Array<{ type: string; value?: string }> = [];
  private readonly events: Array<StreamEvent | 'end'> = [];
  private waiting: (() => void) | null = null;
  readonly session = {
    send: (text: string) => void this.sent.push({ type: 'text', value: text }),
    flush: (id?: string) => {
      this.sent.push({ type: 'flush', value: id });
      return Promise.resolve();
    },
    interrupt: () => {
      this.sent.push({ type: 'interrupt' });
      return Promise.resolve();
    },
  };

  push(...events: Array<StreamEvent | 'end'>): void {
    this.events.push(...events);
    this.waiting?.();
  }

  async next(_timeoutMs: number | undefined, wake?: Promise<unknown>): Promise<NextEvent> {
    for (;;) {
      const event = this.events.shift();
      if (event === 'end') return { kind: 'ended' };
      if (event) return { kind: 'event', event };
      const arrived = new Promise<'arrived'>((resolve) => (this.waiting = () => resolve('arrived')));
      const woke = wake ? wake.then(() => 'woken' as const) : new Promise<never>(() => undefined);
      if ((await Promise.race([arrived, woke])) === 'woken') return { kind: 'woken' };
    }
  }
}

const pcm = (samples: number[]): Uint8Array => new Uint8Array(new Int16Array(samples).buffer);
const start = (sentence: number, text: string, cached = false): StreamEvent => ({
  type: 'sentence_start',
  sentence,
  text,
  cached,
});
const audio = (sentence: number, samples: number[]): StreamEvent => ({
  type: 'audio',
  sentence,
  data: pcm(samples),
});
const end = (sentence: number): StreamEvent => ({
  type: 'sentence_end',
  sentence,
  bytes: 0,
  duration_ms: null,
});
const ramp = (from: number, count: number): number[] => Array.from({ length: count }, (_, i) => from + i);

function reply(conn: ScriptedConnection, onError: (e: RouterApiError) => void = () => undefined) {
  const put: tts.SynthesizedAudio[] = [];
  const sentences: SentenceRecord[] = [];
  const r = new Reply(conn as unknown as RouterConnection, {
    requestId: 'r',
    format: 'pcm',
    sampleRate: RATE,
    timeoutMs: 1000,
    put: (a) => void put.push(a),
    onSentence: (s) => void sentences.push(s),
    onSentenceError: onError,
  });
  return { r, put, sentences };
}

const samplesOf = (packets: tts.SynthesizedAudio[]): number[] =>
  packets.flatMap((p) => [...p.frame.data.subarray(0, p.frame.samplesPerChannel)]);

describe('Reply', () => {
  it("turns the router's sentences into 100 ms frames in order, the segment's last one final", async () => {
    const conn = new ScriptedConnection();
    const { r, put, sentences } = reply(conn);
    r.send('One. ');
    r.send('Two.');
    r.endInput();
    conn.push(start(0, 'One.'), audio(0, ramp(0, 150)), end(0));
    conn.push(start(1, 'Two.', true), audio(1, ramp(150, 120)), end(1), {
      type: 'flushed',
      id: 'r-1',
      last_sentence: 1,
    });
    await r.receive(new AbortController().signal);

    expect(conn.sent).toEqual([
      { type: 'text', value: 'One. ' },
      { type: 'text', value: 'Two.' },
      { type: 'flush', value: 'r-1' },
    ]);
    expect(put.map((p) => p.frame.samplesPerChannel)).toEqual([100, 100, 70]);
    expect(samplesOf(put)).toEqual(ramp(0, 270));
    expect(put.map((p) => [p.final, p.segmentId, p.requestId])).toEqual([
      [false, 'r-1', 'r'],
      [false, 'r-1', 'r'],
      [true, 'r-1', 'r'],
    ]);
    // The frame that completes in sentence 1 names it, and that it came from the cache.
    expect(put.map((p) => p.frame.userdata[USERDATA_SENTENCE])).toEqual([
      { index: 0, cached: false },
      { index: 1, cached: true },
      { index: 1, cached: true },
    ]);
    expect(sentences.map((s) => [s.index, s.characters, s.cached, s.audioDurationMs, s.cancelled])).toEqual([
      [0, 4, false, 150, false],
      [1, 4, true, 120, false],
    ]);
  });

  it('gives word timings as timed transcripts from the start of the segment', async () => {
    const conn = new ScriptedConnection();
    const { r, put } = reply(conn);
    r.send('A b. C.');
    r.endInput();
    conn.push(start(0, 'A b.'), audio(0, ramp(0, 250)));
    conn.push({
      type: 'words',
      sentence: 0,
      words: [
        { word: 'A', start: 0, end: 1, start_ms: 0, end_ms: 100 },
        { word: 'b.', start: 2, end: 4, start_ms: 120, end_ms: 240 },
      ],
    });
    conn.push(end(0), start(1, 'C.'), audio(1, ramp(0, 100)));
    conn.push({
      type: 'words',
      sentence: 1,
      words: [{ word: 'C.', start: 0, end: 2, start_ms: 10, end_ms: 90 }],
    });
    conn.push(end(1), { type: 'flushed', id: 'r-1', last_sentence: 1 });
    await r.receive(new AbortController().signal);
    const timed = put.flatMap((p) => p.timedTranscripts ?? []);
    expect(timed.map((t) => [t.text, t.startTime, t.endTime])).toEqual([
      ['A ', 0, 0.1],
      ['b. ', 0.12, 0.24],
      ['C. ', 0.25 + 0.01, 0.25 + 0.09],
    ]);
  });

  it('skips a sentence the vendor failed and goes on; an error naming no sentence ends the reply', async () => {
    const conn = new ScriptedConnection();
    const failed: RouterApiError[] = [];
    const { r, put } = reply(conn, (e) => failed.push(e));
    r.send('One. Two.');
    r.endInput();
    const providerTimeout = { code: 'provider_timeout' as const, message: 'slow', retryable: true };
    conn.push(start(0, 'One.'), audio(0, ramp(0, 50)), {
      type: 'error',
      sentence: 0,
      error: providerTimeout,
    });
    conn.push(start(1, 'Two.'), audio(1, ramp(0, 100)), end(1), {
      type: 'flushed',
      id: 'r-1',
      last_sentence: 1,
    });
    await r.receive(new AbortController().signal);
    expect(failed.map((e) => [e.code, e.sentence])).toEqual([['provider_timeout', 0]]);
    expect(put.map((p) => p.frame.samplesPerChannel)).toEqual([100, 50]);

    const next = new ScriptedConnection();
    const second = reply(next);
    second.r.send('Three.');
    second.r.endInput();
    next.push({ type: 'error', error: { code: 'internal', message: 'broken', retryable: true } });
    await expect(second.r.receive(new AbortController().signal)).rejects.toBeInstanceOf(RouterApiError);
  });

  it('an interrupt drops everything up to `interrupted`, so nothing of this reply reaches the next', async () => {
    const conn = new ScriptedConnection();
    const { r, put, sentences } = reply(conn);
    const abort = new AbortController();
    r.send('One. Two. Three.');
    conn.push(start(0, 'One.'), audio(0, ramp(0, 100)), audio(0, ramp(0, 10)));
    const receiving = r.receive(abort.signal);
    await new Promise((resolve) => setImmediate(resolve));
    abort.abort();
    await receiving;
    conn.push(audio(0, ramp(0, 100)), start(1, 'Two.'), audio(1, ramp(0, 100)));
    conn.push({ type: 'interrupted', last_spoken: 0, text_spoken: 'One.', text_remaining: 'Two. Three.' });
    conn.push(start(2, 'Next reply.'));
    await r.interrupt();
    expect(conn.sent.at(-1)).toEqual({ type: 'interrupt' });
    expect(put).toHaveLength(0); // its one whole frame was still held back: a cut segment has no final frame
    expect(sentences.map((s) => [s.index, s.cancelled])).toEqual([[0, true]]);
    // What follows `interrupted` is left for the next reply.
    expect(await conn.next(undefined)).toEqual({ kind: 'event', event: start(2, 'Next reply.') });
  });

  it('a connection that ends mid-reply is a ReplyCutError', async () => {
    const conn = new ScriptedConnection();
    const { r } = reply(conn);
    r.send('One.');
    r.endInput();
    conn.push(start(0, 'One.'), 'end');
    await expect(r.receive(new AbortController().signal)).rejects.toBeInstanceOf(ReplyCutError);
  });

  it('whatever the router sends, the frames keep the order of the audio of the sentences they follow (fuzz)', async () => {
    const event = fc.oneof(
      fc.record({ kind: fc.constant('start' as const), sentence: fc.nat(5) }),
      fc.record({ kind: fc.constant('audio' as const), sentence: fc.nat(5), samples: fc.nat(120) }),
      fc.record({ kind: fc.constant('end' as const), sentence: fc.nat(5) }),
      fc.record({ kind: fc.constant('words' as const), sentence: fc.nat(5) }),
      fc.record({ kind: fc.constant('failed' as const), sentence: fc.nat(5) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(event, { maxLength: 30 }), async (script) => {
        const conn = new ScriptedConnection();
        const { r, put } = reply(conn);
        r.send('Text.');
        r.endInput();
        let counter = 0;
        let current: number | null = null;
        const expected: number[] = [];
        for (const step of script) {
          if (step.kind === 'start') {
            conn.push(start(step.sentence, 'x'));
            current = step.sentence;
          } else if (step.kind === 'audio') {
            const samples = ramp(counter, step.samples);
            counter += step.samples;
            conn.push(audio(step.sentence, samples));
            if (current === step.sentence) expected.push(...samples);
          } else if (step.kind === 'end') {
            conn.push(end(step.sentence));
            if (current === step.sentence) current = null;
          } else if (step.kind === 'words') {
            conn.push({ type: 'words', sentence: step.sentence, words: [] });
          } else {
            conn.push({
              type: 'error',
              sentence: step.sentence,
              error: { code: 'provider_rejected', message: 'no', retryable: false },
            });
            if (current === step.sentence) current = null;
          }
        }
        conn.push({ type: 'flushed', id: 'r-1', last_sentence: null });
        await r.receive(new AbortController().signal);
        expect(samplesOf(put).map((s) => (s + 0x10000) % 0x10000)).toEqual(expected.map((s) => s % 0x10000));
        if (put.length > 0) expect(put.map((p) => p.final)).toEqual(put.map((_, i) => i === put.length - 1));
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a wav sentence in another format with AudioFormatError', async () => {
    const conn = new ScriptedConnection();
    const r = new Reply(conn as unknown as RouterConnection, {
      requestId: 'r',
      format: 'wav',
      sampleRate: RATE,
      timeoutMs: 1000,
      put: () => undefined,
      onSentence: () => undefined,
      onSentenceError: () => undefined,
    });
    r.send('One.');
    r.endInput();
    conn.push(start(0, 'One.'), {
      type: 'audio',
      sentence: 0,
      data: new TextEncoder().encode('not a wav header'),
    });
    await expect(r.receive(new AbortController().signal)).rejects.toBeInstanceOf(AudioFormatError);
  });
});
