import { FakeRouter, type FakeStreamConnection, resolved } from '../test/fake-router';
import {
  RouterApiError,
  RouterClient,
  RouterConnectionError,
  type Sentence,
  StreamClosedError,
  type StreamEvent,
  type StreamSession,
} from './index';

const KEY = 'rtr_' + 's'.repeat(43);
const SETTINGS = {
  model: 'vendor_c/c_model_1',
  voice: 'v_rachel',
  response_format: 'pcm' as const,
  sample_rate: 24000 as const,
  options: { voice_settings: { stability: 0.5, similarity_boost: 0.7 } },
};
const failure = (code: string, retryable: boolean, extra: object = {}) => ({
  code,
  message: `${code} happened`,
  retryable,
  ...extra,
});

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of iterable) all.push(item);
  return all;
}

describe('StreamSession over /v1/stream (fake ws router)', () => {
  let router: FakeRouter;
  let client: RouterClient;

  beforeAll(async () => {
    router = await FakeRouter.start();
    client = new RouterClient({ baseUrl: router.url, apiKey: KEY });
  });
  afterAll(() => router.stop());
  afterEach(() => {
    router.refuseHandshake = null;
  });

  /** A session whose settings the fake router accepted, and the router's end of it. */
  async function open(
    options: Parameters<RouterClient['stream']>[1] = {},
  ): Promise<{ session: StreamSession; conn: FakeStreamConnection }> {
    const opening = client.stream(SETTINGS, options);
    const conn = await router.connection();
    await conn.accept();
    return { session: await opening, conn };
  }

  describe('opening', () => {
    it('sends the key in the handshake and the settings as the first message, and resolves on ready', async () => {
      const opening = client.stream(SETTINGS);
      const conn = await router.connection();
      const handshake = router.handshakes.at(-1)!;
      expect(handshake.url).toBe('/v1/stream');
      expect(handshake.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(handshake.headers['sec-websocket-extensions']).toBeUndefined(); // no deflate of audio
      expect(await conn.next()).toEqual({ type: 'settings', ...SETTINGS });
      conn.send({ type: 'ready', session_id: 'abc', settings: resolved(SETTINGS) });
      const session = await opening;
      expect(session.sessionId).toBe('abc');
      expect(session.settings).toEqual(resolved(SETTINGS));
      expect(session.settings).toMatchObject({ language: null, speed: null });
      session.disconnect();
    });

    it.each([
      [401, 'unauthorized', false],
      [402, 'insufficient_credits', false],
      [400, 'bad_request', false],
    ])('rejects a handshake refused with %d as RouterApiError %s', async (status, code, retryable) => {
      router.refuseHandshake = { status, body: { error: { code, message: `${code}!`, retryable } } };
      const error = await client.stream(SETTINGS).catch((e) => e);
      expect(error).toBeInstanceOf(RouterApiError);
      expect(error).toMatchObject({ code, message: `${code}!`, retryable, httpStatus: status });
    });

    it('rejects settings the router refuses, and closes the socket', async () => {
      const opening = client.stream(SETTINGS);
      const conn = await router.connection();
      await conn.next();
      conn.send({ type: 'error', error: failure('bad_request', false) });
      const error = await opening.catch((e) => e);
      expect(error).toBeInstanceOf(RouterApiError);
      expect(error).toMatchObject({ code: 'bad_request', httpStatus: undefined, sentence: undefined });
      expect((await conn.closed).code).toBe(1000);
    });

    it('reports a router it cannot reach as a RouterConnectionError', async () => {
      const unreachable = new RouterClient({ baseUrl: 'http://127.0.0.1:1', apiKey: KEY });
      await expect(unreachable.stream(SETTINGS)).rejects.toBeInstanceOf(RouterConnectionError);
    });

    it('gives up on abort while waiting for ready, with the abort reason', async () => {
      const abort = new AbortController();
      const opening = client.stream(SETTINGS, { signal: abort.signal });
      const conn = await router.connection();
      await conn.next();
      abort.abort();
      await expect(opening).rejects.toMatchObject({ name: 'AbortError' });
      await conn.closed;
    });
  });

  describe('writing', () => {
    it('encodes text, flush, interrupt, settings and close as the protocol has them', async () => {
      const { session, conn } = await open();
      session.send('Hello there');
      session.send('');
      session.send('. How can I');
      void session.flush('turn-1');
      void session.flush();
      void session.interrupt(1500);
      void session.interrupt();
      void session.updateSettings({ ...SETTINGS, voice: 'v_other' });
      void session.close();
      const sent = [];
      for (let i = 0; i < 8; i += 1) sent.push(await conn.next());
      expect(sent).toEqual([
        { type: 'text', text: 'Hello there' },
        { type: 'text', text: '. How can I' },
        { type: 'flush', id: 'turn-1' },
        { type: 'flush' },
        { type: 'interrupt', played_ms: 1500 },
        { type: 'interrupt' },
        { type: 'settings', ...SETTINGS, voice: 'v_other' },
        { type: 'close' },
      ]);
      expect(() => session.send('more')).toThrow('closing');
      session.disconnect();
    });

    it('splits a delta over the message limit into several text messages', async () => {
      const { session, conn } = await open();
      const text = 'word '.repeat(9000);
      session.send(text);
      const first = await conn.next();
      const second = await conn.next();
      const third = await conn.next();
      expect([first.text.length, second.text.length, third.text.length]).toEqual([20000, 20000, 5000]);
      expect(first.text + second.text + third.text).toBe(text);
      session.disconnect();
    });

    it('refuses a flush id over 64 characters and a negative played_ms before sending', async () => {
      const { session, conn } = await open();
      expect(() => session.flush('x'.repeat(65))).toThrow(RangeError);
      expect(() => session.interrupt(-1)).toThrow(RangeError);
      expect(() => session.interrupt(Number.NaN)).toThrow(RangeError);
      session.send('after');
      expect(await conn.next()).toEqual({ type: 'text', text: 'after' });
      session.disconnect();
    });
  });

  describe('reading sentences', () => {
    it('assembles each sentence from its start, binary frames, words and end', async () => {
      const { session, conn } = await open();
      conn.send({ type: 'sentence_start', sentence: 0, text: 'Hello there.', cached: true });
      conn.audio([1, 2]);
      conn.audio([3]);
      conn.send({
        type: 'words',
        sentence: 0,
        words: [
          { word: 'Hello', start: 0, end: 5, start_ms: 0, end_ms: 310 },
          { word: 'there.', start: 6, end: 12, start_ms: 320, end_ms: 700 },
        ],
      });
      conn.send({ type: 'sentence_end', sentence: 0, bytes: 3, duration_ms: 1000 });
      conn.send({ type: 'sentence_start', sentence: 1, text: 'How can I help?', cached: false });
      conn.audio([4]);
      conn.send({ type: 'sentence_end', sentence: 1, bytes: 1, duration_ms: null });
      conn.close(1000);

      const got = [];
      for await (const sentence of session.sentences()) {
        got.push({
          index: sentence.index,
          text: sentence.text,
          cached: sentence.cached,
          audio: [...(await sentence.bytes())],
          words: await sentence.words(),
          end: await sentence.end(),
        });
      }
      expect(got).toEqual([
        {
          index: 0,
          text: 'Hello there.',
          cached: true,
          audio: [1, 2, 3],
          words: [
            { word: 'Hello', start: 0, end: 5, startMs: 0, endMs: 310 },
            { word: 'there.', start: 6, end: 12, startMs: 320, endMs: 700 },
          ],
          end: { bytes: 3, durationMs: 1000, interrupted: false },
        },
        {
          index: 1,
          text: 'How can I help?',
          cached: false,
          audio: [4],
          words: null,
          end: { bytes: 1, durationMs: null, interrupted: false },
        },
      ]);
    });

    it('keeps each sentence’s audio when sentences are taken before their audio is read', async () => {
      const { session, conn } = await open();
      for (const index of [0, 1, 2]) {
        conn.send({ type: 'sentence_start', sentence: index, text: `S${index}.`, cached: false });
        conn.audio([index, index]);
        conn.send({ type: 'sentence_end', sentence: index, bytes: 2, duration_ms: null });
      }
      conn.close(1000);
      const sentences = await collect(session.sentences());
      expect(sentences.map((s) => s.index)).toEqual([0, 1, 2]);
      for (const s of sentences.reverse()) expect([...(await s.bytes())]).toEqual([s.index, s.index]);
    });

    it('lets end() and words() be awaited without reading the audio, which stays readable', async () => {
      const { session, conn } = await open();
      conn.send({ type: 'sentence_start', sentence: 0, text: 'A.', cached: false });
      conn.audio([5]);
      conn.send({
        type: 'words',
        sentence: 0,
        words: [{ word: 'A.', start: 0, end: 2, start_ms: 0, end_ms: 90 }],
      });
      conn.audio([6]);
      conn.send({ type: 'sentence_end', sentence: 0, bytes: 2, duration_ms: 125 });
      const iterator = session.sentences();
      const { value: sentence } = (await iterator.next()) as { value: Sentence };
      expect(await sentence.end()).toEqual({ bytes: 2, durationMs: 125, interrupted: false });
      expect((await sentence.words())?.map((w) => w.endMs)).toEqual([90]);
      expect([...(await sentence.bytes())]).toEqual([5, 6]);
      await expect(sentence.bytes()).rejects.toThrow('already been read');
      session.disconnect();
    });

    it('fails only the sentence the router names, after the audio that arrived, and goes on', async () => {
      const { session, conn } = await open();
      conn.send({ type: 'sentence_start', sentence: 0, text: 'Breaks.', cached: false });
      conn.audio([1]);
      conn.send({ type: 'error', sentence: 0, error: failure('provider_unavailable', true) });
      conn.send({
        type: 'error',
        sentence: 1,
        error: failure('provider_rejected', false, { provider_status: 422 }),
      });
      conn.send({ type: 'sentence_start', sentence: 2, text: 'Fine.', cached: true });
      conn.audio([2]);
      conn.send({ type: 'sentence_end', sentence: 2, bytes: 1, duration_ms: null });
      conn.close(1000);

      const outcomes = [];
      for await (const sentence of session.sentences()) {
        const audio: number[] = [];
        try {
          for await (const chunk of sentence.audio) audio.push(...chunk);
          outcomes.push([sentence.index, sentence.text, audio, 'ok']);
        } catch (error) {
          expect(error).toBeInstanceOf(RouterApiError);
          const e = error as RouterApiError;
          outcomes.push([
            sentence.index,
            sentence.text,
            audio,
            e.code,
            e.retryable,
            e.sentence,
            e.providerStatus,
          ]);
          await expect(sentence.end()).rejects.toBe(error);
        }
      }
      expect(outcomes).toEqual([
        [0, 'Breaks.', [1], 'provider_unavailable', true, 0, undefined],
        [1, '', [], 'provider_rejected', false, 1, 422],
        [2, 'Fine.', [2], 'ok'],
      ]);
    });

    it('lets only one reader read at a time, and not both sentences() and events()', async () => {
      const { session } = await open();
      const sentences = session.sentences();
      expect(() => session.sentences()).toThrow('already being read');
      expect(() => session.events()).toThrow('read with sentences()');
      session.disconnect();
      expect(await sentences.next()).toEqual({ value: undefined, done: true });
    });
  });

  describe('events()', () => {
    it('yields every message and binary frame in order, frames tagged with their sentence', async () => {
      const seen: StreamEvent[] = [];
      const { session, conn } = await open({ onEvent: (e) => seen.push(e) });
      conn.send({ type: 'sentence_start', sentence: 0, text: 'Hi.', cached: true });
      conn.audio([7, 7]);
      conn.send({ type: 'heartbeat' }); // unknown types are skipped
      conn.send({ type: 'sentence_end', sentence: 0, bytes: 2, duration_ms: null });
      conn.send({ type: 'flushed', id: null, last_sentence: 0 });
      conn.close(1000);
      const events = await collect(session.events());
      expect(events.map((e) => (e.type === 'audio' ? { ...e, data: [...e.data] } : e))).toEqual([
        { type: 'ready', session_id: 'session-1', settings: resolved(SETTINGS) },
        { type: 'sentence_start', sentence: 0, text: 'Hi.', cached: true },
        { type: 'audio', sentence: 0, data: [7, 7] },
        { type: 'sentence_end', sentence: 0, bytes: 2, duration_ms: null },
        { type: 'flushed', id: null, last_sentence: 0 },
      ]);
      expect(seen).toEqual(events);
    });
  });

  describe('flush and interrupt', () => {
    it('resolves each flush with its own flushed answer', async () => {
      const { session, conn } = await open();
      session.send('One.');
      const a = session.flush('a');
      session.send('Two.');
      const b = session.flush();
      await conn.next();
      await conn.next();
      await conn.next();
      await conn.next();
      conn.send({ type: 'flushed', id: 'a', last_sentence: 0 });
      expect(await a).toEqual({ id: 'a', lastSentence: 0, interrupted: false });
      conn.send({ type: 'flushed', id: 'stale', last_sentence: 0 }); // answers no pending flush
      conn.send({ type: 'flushed', id: null, last_sentence: 1 });
      expect(await b).toEqual({ id: null, lastSentence: 1, interrupted: false });
      session.disconnect();
    });

    it('resolves interrupt with the interrupted answer, ends the open sentence, and settles an earlier flush', async () => {
      const { session, conn } = await open();
      session.send('A long reply. With two sentences.');
      const flush = session.flush('turn');
      conn.send({ type: 'sentence_start', sentence: 0, text: 'A long reply.', cached: false });
      conn.audio([1, 2, 3]);
      const sentences = session.sentences();
      const { value: sentence } = (await sentences.next()) as { value: Sentence };
      const interrupt = session.interrupt(250);
      await conn.next();
      await conn.next();
      expect(await conn.next()).toEqual({ type: 'interrupt', played_ms: 250 });
      conn.send({
        type: 'interrupted',
        last_spoken: 0,
        text_spoken: 'A long reply.',
        text_remaining: 'With two sentences.',
      });
      expect(await interrupt).toEqual({
        lastSpoken: 0,
        textSpoken: 'A long reply.',
        textRemaining: 'With two sentences.',
      });
      expect(await flush).toEqual({ id: 'turn', lastSentence: null, interrupted: true });
      expect([...(await sentence.bytes())]).toEqual([1, 2, 3]);
      expect(await sentence.end()).toEqual({ bytes: 3, durationMs: null, interrupted: true });

      // The connection is ready for the next reply.
      conn.send({ type: 'sentence_start', sentence: 1, text: 'Next.', cached: true });
      conn.send({ type: 'sentence_end', sentence: 1, bytes: 0, duration_ms: 0 });
      const next = (await sentences.next()).value as Sentence;
      expect([next.index, await next.end()]).toEqual([1, { bytes: 0, durationMs: 0, interrupted: false }]);
      session.disconnect();
    });
  });

  describe('settings changes and errors', () => {
    it('rejects a refused settings change and resolves the next accepted one', async () => {
      const { session, conn } = await open();
      const refused = session.updateSettings({ ...SETTINGS, sample_rate: 8000 });
      await conn.next();
      conn.send({ type: 'error', error: failure('bad_request', false) });
      await expect(refused).rejects.toMatchObject({ code: 'bad_request', sentence: undefined });
      expect(session.settings).toEqual(resolved(SETTINGS));
      const accepted = session.updateSettings({ ...SETTINGS, voice: 'v2' });
      await conn.next();
      conn.send({ type: 'ready', session_id: 'session-1', settings: resolved({ ...SETTINGS, voice: 'v2' }) });
      expect(await accepted).toEqual(resolved({ ...SETTINGS, voice: 'v2' }));
      expect(session.settings?.voice).toBe('v2');
      session.disconnect();
    });

    it('sends raw frames as given, text and binary, for testing bad input', async () => {
      let reported!: (error: RouterApiError) => void;
      const error = new Promise<RouterApiError>((resolve) => (reported = resolve));
      const { session, conn } = await open({ onError: (e) => reported(e) });
      session.sendRaw('{"type":"shout"}');
      session.sendRaw(new Uint8Array([1, 2]));
      expect(await conn.next()).toEqual({ type: 'shout' });
      expect([...(await conn.next()).binary]).toEqual([1, 2]);
      conn.send({ type: 'error', error: failure('bad_request', false) });
      expect((await error).code).toBe('bad_request');
      session.send('still open');
      expect(await conn.next()).toEqual({ type: 'text', text: 'still open' });
      session.disconnect();
    });

    it('passes an error that answers nothing to onError and to events(), and stays open', async () => {
      const errors: RouterApiError[] = [];
      const { session, conn } = await open({ onError: (e) => errors.push(e) });
      conn.send({ type: 'error', error: failure('internal', true) });
      conn.close(1000);
      const events = await collect(session.events());
      expect(errors.map((e) => [e.code, e.retryable])).toEqual([['internal', true]]);
      expect(events.at(-1)).toEqual({ type: 'error', error: failure('internal', true) });
    });
  });

  describe('closing', () => {
    it('close() sends close, reads the rest and resolves on 1000', async () => {
      const { session, conn } = await open();
      session.send('Last words.');
      const closing = session.close();
      await conn.next();
      expect(await conn.next()).toEqual({ type: 'close' });
      conn.send({ type: 'sentence_start', sentence: 0, text: 'Last words.', cached: false });
      conn.audio([9]);
      conn.send({ type: 'sentence_end', sentence: 0, bytes: 1, duration_ms: null });
      conn.close(1000);
      expect(await closing).toEqual({ code: 1000, reason: '' });
      const sentences = await collect(session.sentences());
      expect(sentences.map((s) => s.text)).toEqual(['Last words.']);
      expect([...(await sentences[0].bytes())]).toEqual([9]);
      expect(() => session.send('x')).toThrow(StreamClosedError);
      expect(await session.closed).toEqual({ code: 1000, reason: '' });
    });

    it.each([
      [1001, 'shutting down', true],
      [1011, 'internal failure', true],
      [4008, 'idle', false],
      [1009, 'too big', false],
    ])('ends readers and pending calls with StreamClosedError on %d', async (code, reason, retryable) => {
      const { session, conn } = await open();
      conn.send({ type: 'sentence_start', sentence: 0, text: 'Cut.', cached: false });
      conn.audio([1]);
      const flush = session.flush();
      await conn.next();
      conn.close(code, reason);
      const sentences = session.sentences();
      const sentence = (await sentences.next()).value as Sentence;
      const readError = await sentences.next().catch((e) => e);
      expect(readError).toBeInstanceOf(StreamClosedError);
      expect(readError).toMatchObject({ closeCode: code, reason, retryable });
      await expect(sentence.end()).rejects.toBe(readError);
      await expect(flush).rejects.toMatchObject({ closeCode: code });
      expect(await session.closed).toEqual({ code, reason });
    });

    it('disconnect() closes with the code given; readers end quietly and pending calls reject', async () => {
      const { session, conn } = await open();
      const flush = session.flush();
      const events = session.events();
      await conn.next();
      session.disconnect(4000, 'gone');
      expect(await conn.closed).toEqual({ code: 4000, reason: 'gone' });
      await expect(flush).rejects.toBeInstanceOf(StreamClosedError);
      expect((await events.next()).value).toMatchObject({ type: 'ready' });
      expect(await events.next()).toEqual({ value: undefined, done: true });
    });

    it('disconnects when the abort signal fires after opening', async () => {
      const abort = new AbortController();
      const { conn } = await open({ signal: abort.signal });
      abort.abort();
      expect((await conn.closed).code).toBe(1000);
    });

    it('closes with 1002 when the router breaks the protocol, and says so', async () => {
      const { session, conn } = await open();
      conn.send({ type: 'sentence_start', sentence: 0 });
      expect((await conn.closed).code).toBe(1002);
      const error = await collect(session.events()).catch((e) => e);
      expect(error).toBeInstanceOf(StreamClosedError);
      expect(error.closeCode).toBe(1002);
      expect(error.message).toContain('"text"');
    });
  });
});
