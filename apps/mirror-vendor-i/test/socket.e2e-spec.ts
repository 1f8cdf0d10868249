import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { StreamSettings } from '@router/client';
import {
  eventually,
  type JsonFrame,
  mirrorE2e,
  repliesInTurn,
  sayOnStream,
  TAKE_FAILS_MIDWAY,
} from '@router/testing';
import { createTake, readTakeId } from '@router/vendor-sim';

const kit = mirrorE2e('vendor_i');
const { stack, sim, newOrg, unique, calls, expectRepliesInTurn, keylessOrg, setCredit } = kit;
const PATH = '/tts/websocket';
const VERSION = '2026-08-14';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * vendor_i's socket through the gateway, keyed as its server clients key it: `X-API-Key` and the version header;
 * over `wss://` on the gateway's TLS port with `tls`.
 */
const connect = (key: string, tls = false) =>
  kit.connect(PATH, key, { headers: { 'vendor_i-version': VERSION }, tls });

const ofContext = (frames: readonly JsonFrame[], context: string): JsonFrame[] =>
  frames.filter((f) => f['context_id'] === context);
const isDone = (context: string) => (f: JsonFrame) => f['type'] === 'done' && f['context_id'] === context;

/** The audio of a context's chunk frames, in order. */
function audioOf(frames: readonly JsonFrame[], context: string): Buffer {
  return Buffer.concat(
    ofContext(frames, context)
      .filter((f) => f['type'] === 'chunk')
      .map((f) => Buffer.from(f['data'] as string, 'base64')),
  );
}

/** A context's audio cut into sentences at each `timestamps` frame (sent after its sentence's audio). */
function sentencesOf(frames: readonly JsonFrame[], context: string): Buffer[] {
  const sentences: Buffer[] = [];
  let chunks: Buffer[] = [];
  for (const frame of ofContext(frames, context)) {
    if (frame['type'] === 'chunk') chunks.push(Buffer.from(frame['data'] as string, 'base64'));
    if (frame['type'] === 'timestamps' || frame['type'] === 'done') {
      if (chunks.length > 0) sentences.push(Buffer.concat(chunks));
      chunks = [];
    }
  }
  return sentences;
}

/** Whether `audio` is the simulator's take of `text` (its id read from the audio), 16-bit PCM, untouched. */
function isTakeOf(audio: Buffer, text: string, sampleRate: number, speed = 1): boolean {
  const takeId = readTakeId(audio, 'pcm') ?? undefined;
  return audio.equals(createTake(text, { codec: 'pcm', sampleRate }, { takeId, speed }).bytes);
}

/** Whether `audio` is the simulator's takes of `texts`, one after the other, each untouched. */
function areTakesOf(audio: Buffer, texts: readonly string[], sampleRate: number, speed = 1): boolean {
  let at = 0;
  for (const text of texts) {
    const rest = audio.subarray(at);
    const take = createTake(
      text,
      { codec: 'pcm', sampleRate },
      { takeId: readTakeId(rest, 'pcm') ?? undefined, speed },
    );
    if (!rest.subarray(0, take.bytes.length).equals(take.bytes)) return false;
    at += take.bytes.length;
  }
  return at === audio.length;
}

/** How long 16-bit mono PCM at `sampleRate` plays, in ms. */
const playMs = (audio: Buffer, sampleRate: number): number => (audio.length / 2 / sampleRate) * 1000;

/**
 * A vendor_i client's socket sessions, written from the vendor's notes (../shared/vendors/vendor_i.md) and the
 * spec's differences, through the gateway with only the base URL and the key changed: contexts side by side with
 * their own settings, `chunk`, `timestamps` running on across a context, `flush_done` and `done`; said again, all
 * from the cache with no vendor call and the same timestamps; shared with /v1/stream.
 */
describe('vendor_i mirror, WebSocket (e2e)', () => {
  let voice = '';
  const request = (context: string, transcript: string, extra: Record<string, unknown> = {}) => ({
    model_id: 'i_model_2',
    transcript,
    voice: { mode: 'id', id: voice },
    output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 24000 },
    language: 'en',
    context_id: context,
    ...extra,
  });

  /** /v1/stream's settings equal to `request`'s. */
  const nativeSettings = (): StreamSettings => ({
    model: 'vendor_i/i_model_2',
    voice,
    response_format: 'pcm',
    sample_rate: 24000,
  });

  beforeAll(async () => {
    const { key } = await newOrg();
    const answer = await fetch(`${stack.gatewayUrl}/vendor_i/voices?limit=2`, {
      headers: { 'x-api-key': key, 'vendor_i-version': VERSION },
    });
    voice = ((await answer.json()) as { data: Array<{ id: string }> }).data[0]?.id ?? '';
    expect(voice).toMatch(UUID);
  });

  it("says a context's sentences as chunks with word timestamps running on, then done; said again, the same from the cache", async () => {
    const { key, vendorKey } = await newOrg();
    const texts = [
      unique('Hello there, this is the first sentence'),
      unique('And here comes the second one'),
    ];
    const before = await calls(vendorKey);

    const say = async (tls = false): Promise<JsonFrame[]> => {
      const socket = await connect(key, tls);
      socket.send(request('c1', `${texts[0]} `, { continue: true, add_timestamps: true }));
      // The final message with an empty transcript, as clients close a context.
      socket.send(request('c1', `${texts[1]}`, { continue: true, add_timestamps: true }));
      socket.send(request('c1', '', { continue: false, add_timestamps: true }));
      await socket.next(isDone('c1'));
      socket.close();
      return socket.frames;
    };
    const first = await say();
    for (const frame of first.filter((f) => f['type'] === 'chunk')) {
      expect(frame).toEqual({
        type: 'chunk',
        data: expect.any(String),
        step_time: expect.any(Number),
        done: false,
        status_code: 200,
        context_id: 'c1',
      });
    }
    expect(first.at(-1)).toEqual({ type: 'done', done: true, status_code: 200, context_id: 'c1' });
    const stamps = first.filter((f) => f['type'] === 'timestamps');
    expect(stamps).toHaveLength(2);
    for (const frame of stamps) {
      expect(frame).toEqual({
        type: 'timestamps',
        word_timestamps: { words: expect.any(Array), start: expect.any(Array), end: expect.any(Array) },
        done: false,
        status_code: 200,
        context_id: 'c1',
      });
    }
    expect(stamps.map((f) => (f['word_timestamps']['words'] as string[]).join(' '))).toEqual(texts);
    const sentences = sentencesOf(first, 'c1');
    expect(sentences).toHaveLength(2);
    sentences.forEach((audio, i) => expect(isTakeOf(audio, texts[i] ?? '', 24000)).toBe(true));
    // The second sentence's words run on from the end of the first sentence's audio.
    const firstMs = playMs(sentences[0] ?? Buffer.alloc(0), 24000);
    const secondStarts = stamps[1]?.['word_timestamps']['start'] as number[];
    expect(secondStarts[0]).toBeGreaterThanOrEqual(Math.round(firstMs) / 1000);
    expect(secondStarts[0]).toBeLessThan(Math.round(firstMs) / 1000 + 0.5);
    expect((stamps[0]?.['word_timestamps']['start'] as number[])[0]).toBeLessThan(0.5);
    expect(await calls(vendorKey)).toBe(before + 2);

    const again = await say();
    expect(audioOf(again, 'c1').equals(audioOf(first, 'c1'))).toBe(true);
    expect(again.filter((f) => f['type'] === 'timestamps')).toEqual(stamps);
    expect(await calls(vendorKey)).toBe(before + 2);

    // The same session over wss:// on the gateway's TLS port: the same frames, from the cache.
    expect(stack.gatewayTlsUrl).toMatch(/^https:/);
    const secure = await say(true);
    expect(audioOf(secure, 'c1').equals(audioOf(first, 'c1'))).toBe(true);
    expect(secure.filter((f) => f['type'] === 'timestamps')).toEqual(stamps);
    expect(await calls(vendorKey)).toBe(before + 2);
  });

  it("serves replies in turn on one socket as the vendor's clients send them, each read up to its done: only its own frames, on a miss and from the cache", async () => {
    /**
     * The replies as the voice-agent plugin sends them on one pooled socket: a context of its own per reply, each
     * sentence with `continue: true` (spoken at once, `max_buffer_delay_ms` 0), the context closed with a blank
     * transcript and `continue: false`; every frame read, whatever its context, up to the first `done`.
     */
    const converse = async (key: string, replies: string[][]): Promise<JsonFrame[][]> => {
      const socket = await connect(key);
      const read = await repliesInTurn(socket, replies, (texts) => {
        const context = randomUUID().slice(0, 12);
        const options = { max_buffer_delay_ms: 0, add_timestamps: true };
        for (const text of texts) socket.send(request(context, `${text} `, { ...options, continue: true }));
        socket.send(request(context, ' ', { ...options, continue: false }));
        return (f) => f['type'] === 'done';
      });
      // A context with nothing to say ends at once: by its done, anything left of the replies would have come.
      socket.send(request('probe', '', { continue: false }));
      await socket.next(isDone('probe'));
      socket.close();
      expect(socket.frames).toEqual([...read.flat(), socket.frames.at(-1)]);
      return read;
    };

    await expectRepliesInTurn(converse, {
      miss: (first, { replies }) =>
        first.forEach((reply, i) => {
          const context = reply[0]?.['context_id'] as string;
          expect(ofContext(reply, context)).toEqual(reply);
          expect(reply.filter((f) => f['type'] === 'done')).toEqual([reply.at(-1)]);
          expect(reply.filter((f) => f['type'] === 'timestamps')).toHaveLength(2);
          expect(areTakesOf(audioOf(reply, context), replies[i] ?? [], 24000)).toBe(true);
        }),
      hit(reply, first = []) {
        const context = reply[0]?.['context_id'] as string;
        expect(audioOf(reply, context).equals(audioOf(first, first[0]?.['context_id'] as string))).toBe(true);
      },
    });
  });

  it('closes normally on a flush followed at once by a close, and stores no part of a take it cut', async () => {
    const { key } = await newOrg();
    const text = unique('Flushed and closed at once');
    const socket = await connect(key);
    socket.send(request('c1', text, { continue: true, flush: true }));
    socket.close();
    expect(await socket.closed).toMatchObject({ code: 1000, by: 'client' });
    expect(socket.frames.some((f) => f['type'] === 'error')).toBe(false);

    // Said again, the sentence is whole: from the take that went on after the close, or a new one.
    const again = await connect(key);
    again.send(request('c1', text, { continue: false }));
    await again.next(isDone('c1'));
    again.close();
    expect(isTakeOf(audioOf(again.frames, 'c1'), text, 24000)).toBe(true);
  });

  it('serves a context over wss:// as over ws://, the vendor called once for both', async () => {
    const { key, vendorKey } = await newOrg();
    const text = unique('Said over TLS first');
    const before = await calls(vendorKey);
    const frames: JsonFrame[][] = [];
    for (const tls of [true, false]) {
      const socket = await connect(key, tls);
      socket.send(request('t', text, { continue: false, add_timestamps: true }));
      await socket.next(isDone('t'));
      socket.close();
      frames.push(socket.frames);
    }
    expect(isTakeOf(audioOf(frames[0] ?? [], 't'), text, 24000)).toBe(true);
    const [secure, plain] = [frames[0] ?? [], frames[1] ?? []];
    expect(audioOf(plain, 't').equals(audioOf(secure, 't'))).toBe(true);
    const notAudio = (all: JsonFrame[]) => all.filter((f) => f['type'] !== 'chunk');
    expect(notAudio(plain)).toEqual(notAudio(secure));
    expect(notAudio(plain).map((f) => f['type'])).toEqual(['timestamps', 'done']);
    expect(await calls(vendorKey)).toBe(before + 1);
  });

  it('speaks a context with a regional locale: en-GB once, then from the cache, apart from en', async () => {
    const { key, vendorKey } = await newOrg();
    const text = unique('Spoken in British English');
    const before = await calls(vendorKey);
    const say = async (context: string, extra: Record<string, unknown>): Promise<Buffer> => {
      const socket = await connect(key);
      socket.send(request(context, text, { continue: false, ...extra }));
      await socket.next(isDone(context));
      socket.close();
      expect(ofContext(socket.frames, context).some((f) => f['type'] === 'error')).toBe(false);
      return audioOf(socket.frames, context);
    };
    const british = { language: undefined, locale: 'en-GB' };

    const first = await say('gb', british);
    expect(isTakeOf(first, text, 24000)).toBe(true);
    expect(await calls(vendorKey)).toBe(before + 1);
    expect((await say('gb', british)).equals(first)).toBe(true);
    // `language` and `locale` are one setting at the vendor: the same code either way is the same entry.
    expect((await say('gb-language', { language: 'en-GB' })).equals(first)).toBe(true);
    expect(await calls(vendorKey)).toBe(before + 1);

    const plain = await say('en', {});
    expect(await calls(vendorKey)).toBe(before + 2);
    expect(isTakeOf(plain, text, 24000)).toBe(true);
    expect(plain.equals(first)).toBe(false);

    // Only what the vendor refuses is refused: a locale beside a language, for its context; the socket speaks on.
    const socket = await connect(key);
    socket.send(request('both', text, { locale: 'en-GB', continue: false }));
    expect(await socket.next((f) => f['context_id'] === 'both')).toMatchObject({
      type: 'error',
      status_code: 400,
      title: 'Invalid language',
    });
    socket.send(request('after', text, { ...british, continue: false }));
    await socket.next(isDone('after'));
    socket.close();
    expect(audioOf(socket.frames, 'after').equals(first)).toBe(true);
    expect(await calls(vendorKey)).toBe(before + 2);
  });

  it('keeps two interleaved contexts apart, each with its own settings and order', async () => {
    const { key } = await newOrg();
    const a = [unique('First sentence of context a'), unique('Second sentence of context a')];
    const b = [unique('First sentence of context b'), unique('Second sentence of context b')];
    const slow = {
      output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 16000 },
      generation_config: { speed: 0.8 },
    };
    const socket = await connect(key);
    socket.send(request('a', `${a[0]} `, { continue: true }));
    socket.send(request('b', `${b[0]} `, { continue: true, ...slow }));
    socket.send(request('a', `${a[1]} `, { continue: true }));
    socket.send(request('b', `${b[1]} `, { continue: false, ...slow }));
    socket.send(request('a', '', { continue: false }));
    await socket.until((frames) => frames.some(isDone('a')) && frames.some(isDone('b')));
    socket.close();

    expect(areTakesOf(audioOf(socket.frames, 'a'), a, 24000)).toBe(true);
    expect(areTakesOf(audioOf(socket.frames, 'b'), b, 16000, 0.8)).toBe(true);
    // No timestamps where the client did not ask for them.
    expect(socket.frames.some((f) => f['type'] === 'timestamps')).toBe(false);
  });

  it('speaks each message at once with max_buffer_delay_ms 0, and a trailing fragment after the delay when buffering', async () => {
    const { key, vendorKey } = await newOrg();
    const socket = await connect(key);
    const [part1, part2] = [
      `Spoken at once ${randomUUID().slice(0, 6)}`,
      `and so is this ${randomUUID().slice(0, 6)}`,
    ];
    const before = await calls(vendorKey);
    socket.send(request('now', part1, { continue: true, max_buffer_delay_ms: 0 }));
    socket.send(request('now', part2, { continue: true, max_buffer_delay_ms: 0 }));
    // Neither ends a sentence, and no flush: each is spoken as it came.
    await eventually('both fragments spoken', async () => (await calls(vendorKey)) === before + 2);

    // Buffering: the sentence that ended is spoken, the fragment after it waits for the delay without more text.
    const sentence = unique('A sentence that ends');
    const fragment = `And a trailing fragment ${randomUUID().slice(0, 6)}`;
    socket.send(request('later', `${sentence} ${fragment}`, { continue: true, max_buffer_delay_ms: 800 }));
    await eventually(
      'the fragment spoken after the delay',
      async () => (await calls(vendorKey)) === before + 4,
    );
    socket.send(request('later', '', { continue: false }));
    socket.send(request('now', '', { continue: false }));
    await socket.until((frames) => frames.some(isDone('later')) && frames.some(isDone('now')));
    socket.close();
    expect(areTakesOf(audioOf(socket.frames, 'now'), [part1, part2], 24000)).toBe(true);
    expect(areTakesOf(audioOf(socket.frames, 'later'), [sentence, fragment], 24000)).toBe(true);
  });

  it('answers each flush with flush_done and its flush_id, counted from 1 per context', async () => {
    const { key } = await newOrg();
    const socket = await connect(key);
    socket.send(request('f', `First part ${randomUUID().slice(0, 6)}`, { continue: true, flush: true }));
    socket.send(request('g', `Other context ${randomUUID().slice(0, 6)}`, { continue: true, flush: true }));
    socket.send(request('f', `Second part ${randomUUID().slice(0, 6)}`, { continue: true, flush: true }));
    await socket.until((frames) => frames.filter((f) => f['type'] === 'flush_done').length === 3);
    socket.send(request('f', '', { continue: false }));
    await socket.next(isDone('f'));
    socket.close();
    const flushes = socket.frames.filter((f) => f['type'] === 'flush_done');
    expect(flushes.filter((f) => f['context_id'] === 'f')).toEqual([
      { type: 'flush_done', flush_done: true, flush_id: 1, done: false, status_code: 200, context_id: 'f' },
      { type: 'flush_done', flush_done: true, flush_id: 2, done: false, status_code: 200, context_id: 'f' },
    ]);
    expect(flushes.filter((f) => f['context_id'] === 'g')).toEqual([
      { type: 'flush_done', flush_done: true, flush_id: 1, done: false, status_code: 200, context_id: 'g' },
    ]);
    // Each flush_done comes after its text's audio.
    const f = ofContext(socket.frames, 'f').map((frame) => frame['type'] as string);
    expect(f.filter((t, i) => t !== f[i - 1])).toEqual([
      'chunk',
      'flush_done',
      'chunk',
      'flush_done',
      'done',
    ]);
  });

  it('on cancel sends done at once, drops what was not sent, and finishes and caches the sentence being synthesized', async () => {
    const { key, vendorKey, client } = await newOrg();
    const sentence = unique('This sentence is being synthesized when the cancel comes');
    const held = `And this fragment is never sent ${randomUUID().slice(0, 6)}`;
    const stall = await sim.injectFault({
      vendor: 'vendor_i',
      key: vendorKey,
      kind: 'stall',
      afterBytes: 2000,
      stallMs: 1500,
    });
    const before = await calls(vendorKey);
    const socket = await connect(key);
    socket.send(request('x', `${sentence} ${held}`, { continue: true, max_buffer_delay_ms: 5000 }));
    await socket.next((f) => f['type'] === 'chunk' && f['context_id'] === 'x');
    socket.send({ context_id: 'x', cancel: true });
    const done = await socket.next((f) => f['context_id'] === 'x' && f['type'] !== 'chunk');
    expect(done).toEqual({ type: 'done', done: true, status_code: 200, context_id: 'x' });
    // Another context speaks after the cancel: by its done, anything more of x would have come.
    const other = unique('Another context goes on');
    socket.send(request('y', other, { continue: false }));
    await socket.next(isDone('y'));
    const cancelledAt = socket.frames.indexOf(done);
    expect(ofContext(socket.frames.slice(cancelledAt + 1), 'x')).toEqual([]);
    socket.close();
    await sim.removeFault(stall.id).catch(() => undefined);
    // The held fragment never reached the vendor: the calls are the stalled sentence's and y's.
    const made = await sim.calls('vendor_i', { key: vendorKey });
    expect(made.slice(before).map((c) => c.chars)).toEqual([[...sentence].length, [...other].length]);

    // The cancelled sentence finishes at the vendor and is cached: said again once its take is done, a replay.
    let cached = false;
    for (let i = 0; i < 20 && !cached; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const [heard] = await sayOnStream(client, nativeSettings(), `${sentence} `);
      cached = heard?.cached ?? false;
    }
    expect(cached).toBe(true);
  });

  it('refuses add_phoneme_timestamps with an error for that context, and reports a vendor error as an error for its context; the socket stays open', async () => {
    const { key, vendorKey } = await newOrg();
    const socket = await connect(key);
    socket.send(request('p', unique('Phonemes asked for'), { add_phoneme_timestamps: true }));
    expect(await socket.next(() => true)).toEqual({
      type: 'error',
      context_id: 'p',
      status_code: 400,
      done: true,
      title: 'Invalid request',
      message: 'add_phoneme_timestamps is not supported on this connection',
      error_code: 'invalid_request',
      request_id: expect.stringMatching(UUID),
    });

    // An unknown voice is the vendor's to refuse: it comes when the context's first sentence is synthesized,
    // with the vendor's own error_code.
    socket.send(request('v', unique('An unknown voice'), { voice: { mode: 'id', id: 'nobody' } }));
    const refused = await socket.next((f) => f['context_id'] === 'v');
    expect(refused).toEqual({
      type: 'error',
      context_id: 'v',
      status_code: 404,
      done: true,
      title: 'Not Found',
      message: expect.stringContaining('Voice nobody was not found'),
      error_code: 'voice_not_found',
      request_id: expect.stringMatching(UUID),
    });

    const failing = unique('This sentence fails midway at the vendor');
    const fault = await kit.injectFault(vendorKey, {
      ...TAKE_FAILS_MIDWAY,
      textIncludes: failing,
      code: 'synthesis_failed',
      // Every call of the sentence fails: one that fails before any audio reached the router is retried.
      times: 'always',
    });
    socket.send(request('e', failing, { continue: false }));
    const error = await socket.next((f) => f['context_id'] === 'e' && f['type'] === 'error');
    await sim.removeFault(fault.id).catch(() => undefined);
    expect(error).toEqual({
      type: 'error',
      context_id: 'e',
      status_code: 500,
      done: true,
      title: 'Internal Server Error',
      message: expect.stringContaining('The take failed.'),
      error_code: 'synthesis_failed',
      request_id: expect.stringMatching(UUID),
    });
    // The socket stays open: another context plays whole, and the failed one sent no done.
    const next = unique('The next context plays');
    socket.send(request('n', next, { continue: false }));
    await socket.next(isDone('n'));
    expect(isTakeOf(audioOf(socket.frames, 'n'), next, 24000)).toBe(true);
    expect(socket.frames.some(isDone('e'))).toBe(false);

    // A message without a context, and one that is not JSON: an error with a null context.
    socket.send({ transcript: 'Hi.' });
    expect(await socket.next(() => true)).toMatchObject({
      type: 'error',
      context_id: null,
      status_code: 400,
      message: 'context_id is required',
    });
    socket.send('not json');
    expect(await socket.next(() => true)).toMatchObject({
      type: 'error',
      context_id: null,
      status_code: 400,
    });
    socket.close();
  });

  kit.itSharesWithStream(nativeSettings, async (key, text, turn) => {
    const socket = await connect(key);
    const context = turn === 'first' ? 'm' : 'n';
    socket.send(
      request(
        context,
        text,
        turn === 'first' ? { continue: false } : { continue: false, language: undefined },
      ),
    );
    await socket.next(isDone(context));
    socket.close();
    return audioOf(socket.frames, context);
  });

  it("takes any messages on an open socket without a close: each answered in the vendor's frames, the socket still speaking after", async () => {
    const { key } = await newOrg();
    const field = fc.constantFrom(
      'transcript',
      'context_id',
      'continue',
      'flush',
      'cancel',
      'max_buffer_delay_ms',
      'add_timestamps',
      'add_phoneme_timestamps',
      'model_id',
      'voice',
      'output_format',
      'language',
      'locale',
      'generation_config',
      'speed',
      'pronunciation_dict_id',
    );
    const value = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.constantFrom(
        'i_model_2',
        'c1',
        '',
        'Hello there.',
        'en',
        'slow',
        -1,
        0,
        5001,
        1e308,
        true,
        false,
        null,
      ),
      fc.double(),
      fc.constant({ container: 'raw', encoding: 'pcm_s16le', sample_rate: 24000 }),
      fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string({ maxLength: 8 }), fc.double()), {
        maxKeys: 3,
      }),
    );
    const message = fc.oneof(
      { weight: 5, arbitrary: fc.dictionary(field, value, { maxKeys: 8 }).map((m) => JSON.stringify(m)) },
      { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
      {
        weight: 1,
        arbitrary: fc.constantFrom('[]', 'null', '1e400', `{"a":${'['.repeat(50)}${']'.repeat(50)}}`),
      },
    );
    const kinds = new Set(['chunk', 'timestamps', 'flush_done', 'done', 'error']);
    await fc.assert(
      fc.asyncProperty(fc.array(message, { maxLength: 8 }), async (messages) => {
        const socket = await connect(key);
        for (const m of messages) socket.send(m);
        const closing = unique('Still speaking after');
        socket.send(request('after-fuzz', closing, { continue: false }));
        await socket.next(isDone('after-fuzz'));
        expect(socket.open).toBe(true);
        for (const frame of socket.frames) expect(kinds.has(frame['type'] as string)).toBe(true);
        expect(socket.received.every((f) => !f.binary)).toBe(true);
        socket.close();
      }),
      { numRuns: 15 },
    );
  });

  it('closes a connection idle for its limit (capped at 10 s in this stack) normally, with no frame', async () => {
    const { key } = await newOrg();
    const idle = await connect(key);
    expect(await idle.closed).toEqual({ code: 1000, reason: 'idle timeout', by: 'server' });
    expect(idle.received).toEqual([]);
  }, 30_000);

  it('takes the key in the query as browsers send it, with the version in its query form', async () => {
    const { key } = await newOrg();
    const socket = await kit.connect(PATH, null, { query: { api_key: key, vendor_i_version: VERSION } });
    socket.send(request('q', unique('Keyed in the query'), { continue: false }));
    await socket.next(isDone('q'));
    socket.close();
  });

  it('refuses a handshake without a version with 400, a bad key with 401 by version, out of credit with 402', async () => {
    const refusal = async (headers: Record<string, string>) => {
      const socket = kit.dial(PATH, null, { headers });
      const handshake = await socket.handshake;
      if (handshake.kind === 'open') {
        socket.close();
        return { status: 101, type: undefined, body: '' };
      }
      const { status, contentType, body } = handshake.answer;
      return { status, type: contentType, body: body.toString('utf8') };
    };
    const { orgId, key } = await newOrg();
    const noVersion = await refusal({ 'x-api-key': key });
    expect([noVersion.status, JSON.parse(noVersion.body)]).toEqual([
      400,
      {
        status_code: 400,
        error_code: 'invalid_version',
        title: 'Invalid version',
        message: 'A supported vendor_i-Version is required',
        request_id: expect.stringMatching(UUID),
      },
    ]);
    const wrong = await refusal({ 'x-api-key': 'rtr_nope', 'vendor_i-version': VERSION });
    expect([wrong.status, JSON.parse(wrong.body)]).toEqual([
      401,
      {
        error_code: 'invalid_api_key',
        title: 'Unauthorized',
        message: expect.any(String),
        request_id: expect.stringMatching(UUID),
      },
    ]);
    const older = await refusal({ authorization: 'Bearer rtr_nope', 'vendor_i-version': '2025-04-16' });
    expect([older.status, older.type]).toEqual([401, 'text/plain; charset=utf-8']);
    expect(older.body).toMatch(/^Unauthorized: \S/);
    expect((await refusal({ 'x-api-key': keylessOrg().key, 'vendor_i-version': VERSION })).status).toBe(401);
    expect((await refusal({ authorization: `Bearer ${key}`, 'vendor_i-version': VERSION })).status).toBe(101);

    await setCredit(
      orgId,
      'out',
      async () => (await refusal({ 'x-api-key': key, 'vendor_i-version': VERSION })).status === 402,
    );
    const broke = await refusal({ 'x-api-key': key, 'vendor_i-version': VERSION });
    expect(JSON.parse(broke.body)).toEqual({
      error_code: 'insufficient_credits',
      title: 'Payment Required',
      message: expect.stringMatching(/credit/i),
      request_id: expect.stringMatching(UUID),
    });
  });
});
