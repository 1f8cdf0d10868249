import { type JsonFrame, mirrorE2e, TAKE_FAILS_MIDWAY, type TestSocket } from '@router/testing';
import { createTake, findTakeIds } from '@router/vendor-sim';

const kit = mirrorE2e('vendor_h');
const { sim, newOrg, unique, calls, expectRepliesInTurn, keylessOrg, disableOrg, setCredit } = kit;
const PATH = '/waves/v1/tts/live';
const VOICE = 'h1_voice_f1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** vendor_h's socket through the gateway, keyed as its clients key it: `Authorization: Bearer` at the upgrade. */
const connect = (key: string, query: Record<string, string> = {}) => kit.connect(PATH, key, { query });

const isChunk = (f: JsonFrame): boolean => f['status'] === 'chunk';
const isComplete = (f: JsonFrame): boolean => f['status'] === 'complete';

/** The audio of the chunk frames (of one context, when given), in order. */
function audioOf(frames: readonly JsonFrame[], context?: string): Buffer {
  return Buffer.concat(
    frames
      .filter((f) => isChunk(f) && (context === undefined || f['context_id'] === context))
      .map((f) => Buffer.from(f['data']['audio'] as string, 'base64')),
  );
}

/**
 * Whether `audio` is the simulator's takes of `texts` at `sampleRate`, one after the other and untouched (each
 * take's id read from the audio).
 */
function isTakesOf(audio: Buffer, texts: readonly string[], sampleRate: number, speed = 1): boolean {
  const ids = findTakeIds(audio);
  if (ids.length !== texts.length) return false;
  const takes = texts.map(
    (text, i) => createTake(text, { codec: 'pcm', sampleRate }, { takeId: ids[i], speed }).bytes,
  );
  return audio.equals(Buffer.concat(takes));
}

const isTakeOf = (audio: Buffer, text: string, sampleRate: number, speed = 1): boolean =>
  isTakesOf(audio, [text], sampleRate, speed);

/**
 * One reply as the vendor's own client and a voice-agent plugin read it (../shared/vendors/vendor_h.md): every
 * frame up to the first `complete`, which ends the reply; the socket stays open for the next.
 */
async function readReply(socket: TestSocket): Promise<JsonFrame[]> {
  const from = socket.frames.length;
  await socket.until((frames) => frames.slice(from).some(isComplete));
  const frames = socket.frames.slice(from);
  return frames.slice(0, frames.findIndex(isComplete) + 1);
}

/**
 * A reply sent as the vendor's clients send it: word by word with `continue: true`, then the end flushed, with the
 * last word (the vendor's own client) or as an empty message of its own (the voice-agent plugin).
 */
function sendWordByWord(
  socket: TestSocket,
  text: string,
  settings: Record<string, unknown>,
  end: 'last-word' | 'empty' = 'last-word',
): void {
  const words = text.split(' ');
  const last = end === 'last-word' ? words.pop() : '';
  words.forEach((word) => socket.send({ ...settings, text: `${word} `, continue: true, flush: false }));
  socket.send({ ...settings, text: last, continue: false, flush: true });
}

/**
 * A vendor_h client's socket sessions, written from the vendor's notes (../shared/vendors/vendor_h.md) and the
 * spec's differences, through the gateway with only the base URL and the key changed: every sentence's audio
 * (16-bit PCM at `sample_rate`) then one `complete` for the request, the router's own request and session ids with
 * the client's as external ids; said again it is served from the cache with no vendor call, and shared with
 * /v1/stream.
 */
describe('vendor_h mirror, WebSocket (e2e)', () => {
  it("says a request's sentences as chunks, then one complete, with the router's ids; said again, all from the cache", async () => {
    const { key, vendorKey } = await newOrg();
    const texts = [unique('Hello there, the first sentence is here'), unique('And a second one follows')];
    const message = {
      voice_id: VOICE,
      text: texts.join(' '),
      sample_rate: 16000,
      session_id: 'their-session',
      request_id: 'their-request',
    };
    const before = await calls(vendorKey);

    const say = async (): Promise<JsonFrame[]> => {
      const socket = await connect(key);
      socket.send(message);
      const reply = await readReply(socket);
      socket.close();
      return reply;
    };
    const first = await say();
    expect(first.every((f) => isChunk(f) || isComplete(f))).toBe(true);
    const [requestId, sessionId] = [first[0]?.['request_id'], first[0]?.['session_id']];
    expect([requestId, sessionId]).toEqual([expect.stringMatching(UUID), expect.stringMatching(UUID)]);
    for (const frame of first) {
      expect(frame).toMatchObject({
        request_id: requestId,
        session_id: sessionId,
        external_request_id: 'their-request',
        external_session_id: 'their-session',
      });
      expect(frame['context_id']).toBeUndefined();
    }
    // Both sentences' audio, in order, before the request's one complete.
    expect(first.filter(isComplete)).toEqual([first.at(-1)]);
    expect(isTakesOf(audioOf(first), texts, 16000)).toBe(true);
    expect(await calls(vendorKey)).toBe(before + 2);

    const again = await say();
    expect(audioOf(again).equals(audioOf(first))).toBe(true);
    expect(again[0]?.['request_id']).not.toBe(requestId);
    expect(await calls(vendorKey)).toBe(before + 2);
  });

  it("reads two replies in turn on one socket as the vendor's clients do, each up to its one complete: only its own audio, on a miss and from the cache", async () => {
    const settings = { voice_id: VOICE, sample_rate: 16000, output_format: 'pcm' };

    /** Both replies in turn on one socket, each sent word by word and read up to its first complete. */
    const converse = async (key: string, replies: string[][]): Promise<JsonFrame[][]> => {
      const socket = await connect(key);
      const read: JsonFrame[][] = [];
      for (const [i, texts] of replies.entries()) {
        sendWordByWord(socket, texts.join(' '), settings, i === 0 ? 'last-word' : 'empty');
        read.push(await readReply(socket));
      }
      // Nothing of either reply comes after the complete that ended it: by the pong, it would have.
      socket.send({ type: 'ping' });
      await socket.next((f) => f['type'] === 'pong');
      socket.close();
      expect(socket.frames).toEqual([...read.flat(), { type: 'pong' }]);
      return read;
    };

    const replies = [
      [unique('Hello there, this is the first reply'), unique('It has two sentences')],
      [unique('And here comes the second reply'), unique('Which has two sentences as well')],
    ];
    // Said again on a new socket: every sentence from the cache, byte for byte the same takes, no vendor call.
    await expectRepliesInTurn(
      converse,
      {
        miss(first) {
          first.forEach((reply, i) => {
            expect(reply.filter(isComplete)).toEqual([reply.at(-1)]);
            expect(new Set(reply.map((f) => f['request_id'])).size).toBe(1);
            expect(isTakesOf(audioOf(reply), replies[i] ?? [], 16000)).toBe(true);
          });
          expect(first[0]?.[0]?.['request_id']).not.toBe(first[1]?.[0]?.['request_id']);
        },
        hit(reply, first) {
          expect(reply.filter(isComplete)).toEqual([reply.at(-1)]);
          expect(audioOf(reply).equals(audioOf(first ?? []))).toBe(true);
        },
      },
      replies,
    );
  });

  it('speaks all a context holds on a flush followed at once by context_close, then its one complete', async () => {
    const { key } = await newOrg();
    const texts = [unique('Everything flushed is spoken'), unique('Even right before the close')];
    const socket = await connect(key);
    const settings = { voice_id: VOICE, sample_rate: 16000, context_id: 'closing' };
    for (const word of texts.join(' ').split(' '))
      socket.send({ ...settings, text: `${word} `, continue: true });
    socket.send({ ...settings, text: '', continue: true, flush: true });
    socket.send({ context_id: 'closing', context_close: true });
    const reply = await readReply(socket);
    expect(reply.filter(isComplete)).toEqual([reply.at(-1)]);
    expect(isTakesOf(audioOf(reply), texts, 16000)).toBe(true);
    socket.close();
  });

  it('closes normally on a flush followed at once by a close, and stores no part of a take it cut', async () => {
    const { key } = await newOrg();
    const text = unique('Flushed and closed at once');
    const socket = await connect(key);
    sendWordByWord(socket, text, { voice_id: VOICE });
    socket.close();
    expect(await socket.closed).toMatchObject({ code: 1000, by: 'client' });
    expect(socket.frames.some((f) => f['status'] === 'error')).toBe(false);

    // Said again, the sentence is whole: from the take that went on after the close, or a new one.
    const again = await connect(key);
    sendWordByWord(again, text, { voice_id: VOICE });
    const reply = await readReply(again);
    again.close();
    expect(isTakeOf(audioOf(reply), text, 24000)).toBe(true);
  });

  it('keeps two interleaved contexts apart, each with its own settings and order, in both streaming styles', async () => {
    const { key } = await newOrg();
    const a = [unique('First sentence of context a'), unique('Second sentence of context a')];
    const b = unique('The only sentence of context b');
    const socket = await connect(key);
    const inA = { voice_id: VOICE, sample_rate: 16000, context_id: 'a' };
    const inB = {
      voice_id: 'h2_voice_m1',
      model: 'h_model_2',
      sample_rate: 8000,
      speed: 1.5,
      context_id: 'b',
    };
    // `a` in the continue style, `b` in the flush style, their messages interleaved.
    socket.send({ ...inA, text: `${a[0]} `, continue: true });
    socket.send({ ...inB, text: `${b} `, continue: true, flush: false });
    socket.send({ ...inA, text: a[1]?.slice(0, 10), continue: true });
    socket.send({ ...inB, text: '', continue: false, flush: true });
    socket.send({ ...inA, text: a[1]?.slice(10), continue: false });
    await socket.until(
      (frames) =>
        frames.filter((f) => isComplete(f) && f['context_id'] === 'a').length === 1 &&
        frames.filter((f) => isComplete(f) && f['context_id'] === 'b').length === 1,
    );
    socket.close();

    expect(isTakesOf(audioOf(socket.frames, 'a'), a, 16000)).toBe(true);
    expect(isTakeOf(audioOf(socket.frames, 'b'), b, 8000, 1.5)).toBe(true);
    // A continuation is one request: one request id per context, and each context's own.
    const ids = (context: string) =>
      new Set(socket.frames.filter((f) => f['context_id'] === context).map((f) => f['request_id']));
    expect([ids('a').size, ids('b').size]).toEqual([1, 1]);
    expect([...ids('a')]).not.toEqual([...ids('b')]);
  });

  it("plays a context's requests one after the other, each with its own id and ended by one complete, one with no speech too", async () => {
    const { key, vendorKey } = await newOrg();
    const [one, two] = [unique('The first request'), unique('The second request')];
    const before = await calls(vendorKey);
    const socket = await connect(key);
    socket.send({ voice_id: VOICE, text: one });
    socket.send({ voice_id: VOICE, text: '... ?!' });
    socket.send({ voice_id: VOICE, text: two });
    await socket.until((frames) => frames.filter(isComplete).length === 3);
    socket.close();

    const byRequest = [...new Set(socket.frames.map((f) => f['request_id']))];
    expect(byRequest).toHaveLength(3);
    // In order: the first request's chunks and complete, the silent one's complete, then the third's.
    const shape = socket.frames.map((f) => `${byRequest.indexOf(f['request_id'])}:${f['status']}`);
    const collapsed = shape.filter((s, i) => s !== shape[i - 1]);
    expect(collapsed).toEqual(['0:chunk', '0:complete', '1:complete', '2:chunk', '2:complete']);
    expect(await calls(vendorKey)).toBe(before + 2);
  });

  it('stops a context on cancel_request: nothing more of it, no complete, and its sentence is not cached', async () => {
    const { key, vendorKey } = await newOrg();
    const text = unique('This long sentence is stopped before its end');
    // The vendor holds the take after its first audio, so the cancel comes while it is being spoken.
    const stall = await sim.injectFault({
      vendor: 'vendor_h',
      key: vendorKey,
      kind: 'stall',
      afterBytes: 2000,
      stallMs: null,
    });
    const socket = await connect(key);
    socket.send({ voice_id: VOICE, context_id: 'x', text, continue: true, flush: true });
    await socket.next((f) => isChunk(f) && f['context_id'] === 'x');
    socket.send({ context_id: 'x', cancel_request: true });
    socket.send({ type: 'ping' });
    await socket.next((f) => f['type'] === 'pong');
    const cancelledAt = socket.frames.length;
    // Another context speaks after the cancel: by its complete, anything of x would have come.
    const other = unique('Another context goes on');
    socket.send({ voice_id: VOICE, context_id: 'y', text: other });
    await socket.next((f) => isComplete(f) && f['context_id'] === 'y');
    socket.close();
    await sim.removeFault(stall.id).catch(() => undefined);

    expect(socket.frames.slice(cancelledAt).filter((f) => f['context_id'] === 'x')).toEqual([]);
    expect(socket.frames.some((f) => isComplete(f) && f['context_id'] === 'x')).toBe(false);
    const before = await calls(vendorKey);
    const again = await connect(key);
    again.send({ voice_id: VOICE, text });
    await again.next(isComplete);
    again.close();
    expect(await calls(vendorKey)).toBe(before + 1);
  });

  it('reports a vendor error mid-sentence as an error for its request, drops the rest of that request, plays the next and caches nothing of it', async () => {
    const { key, vendorKey } = await newOrg();
    const [failing, dropped, next] = [
      unique('This sentence fails midway at the vendor'),
      unique('This one of the same request is never spoken'),
      unique('The next request plays'),
    ];
    // The failing sentence's own call: the sentences after it may reach the vendor first (look-ahead).
    const fault = await kit.injectFault(vendorKey, { ...TAKE_FAILS_MIDWAY, textIncludes: failing });
    const socket = await connect(key);
    socket.send({ voice_id: VOICE, text: `${failing} ${dropped}`, request_id: 'failing' });
    socket.send({ voice_id: VOICE, text: next });
    const error = await socket.next((f) => f['status'] === 'error');
    const after = await socket.next((f) => isComplete(f));
    await sim.removeFault(fault.id).catch(() => undefined);
    expect(error).toEqual({
      status: 'error',
      message: 'The take failed.',
      request_id: expect.stringMatching(UUID),
      session_id: expect.stringMatching(UUID),
      external_request_id: 'failing',
    });
    // Of the failed request: the failed sentence's audio up to the vendor's error, then nothing more.
    const ofFailed = socket.frames.filter((f) => f['request_id'] === error['request_id']);
    expect(ofFailed.at(-1)).toBe(error);
    expect(ofFailed.filter((f) => !isChunk(f))).toEqual([error]);
    expect(audioOf(ofFailed).length).toBe(2000);
    // The next request plays, whole.
    expect(after['request_id']).not.toBe(error['request_id']);
    const ofNext = socket.frames.filter((f) => f['request_id'] === after['request_id']);
    expect(isTakeOf(audioOf(ofNext), next, 24000)).toBe(true);
    socket.send({ type: 'ping' });
    await socket.next((f) => f['type'] === 'pong');

    // Said again, the failed sentence reaches the vendor: nothing of the failed take was stored.
    const before = await calls(vendorKey);
    socket.send({ voice_id: VOICE, text: failing });
    await socket.next(isComplete);
    socket.close();
    expect(await calls(vendorKey)).toBe(before + 1);
  });

  kit.itSharesWithStream(
    { model: 'vendor_h/h_model_1', voice: VOICE, response_format: 'pcm', sample_rate: 16000 },
    async (key, text, turn) => {
      const socket = await connect(key);
      socket.send(
        turn === 'first'
          ? { voice_id: VOICE, text, sample_rate: 16000, output_format: 'wav' }
          : { voice_id: VOICE, model: 'h_model_1', language: 'en', sample_rate: 16000, text },
      );
      await socket.next(isComplete);
      socket.close();
      return audioOf(socket.frames);
    },
  );

  it('answers a ping with a pong, text with no letter or digit with no audio, and a refused message with an error', async () => {
    const { key, vendorKey } = await newOrg();
    const socket = await connect(key);
    socket.send({ type: 'ping' });
    expect(await socket.next(() => true)).toEqual({ type: 'pong' });
    socket.send({ voice_id: VOICE, text: '... !? -', word_timestamps: true });
    expect(await socket.next(() => true)).toMatchObject({
      status: 'complete',
      request_id: expect.any(String),
    });
    socket.send({ voice_id: VOICE, text: 'Hello.', sample_rate: 22050 });
    expect(await socket.next(() => true)).toEqual({
      status: 'error',
      message: 'sample_rate must be one of 8000, 16000, 24000, 44100',
      session_id: expect.stringMatching(UUID),
    });
    socket.send('not json');
    expect(await socket.next(() => true)).toEqual({ status: 'error', message: expect.any(String) });
    socket.send({ type: 'ping' });
    expect(await socket.next(() => true)).toEqual({ type: 'pong' });
    socket.close();
    expect(socket.frames.some(isChunk)).toBe(false);
    expect(await calls(vendorKey)).toBe(0);
  });

  it("closes a connection idle for its timeout (a short one here) with the vendor's idle error, and refuses a timeout past 180 s", async () => {
    const { key } = await newOrg();
    const idle = await connect(key, { timeout: '1' });
    expect(await idle.closed).toMatchObject({ code: 1000, by: 'server' });
    expect(idle.frames).toEqual([
      { status: 'error', message: 'Connection timed out after 1 seconds of inactivity' },
    ]);

    expect(await kit.refusal(PATH, key, { query: { timeout: '181' } })).toEqual({
      status: 400,
      body: { error: 'timeout must be an integer between 1 and 180' },
    });
  });

  it("refuses a missing, wrong or vendor-keyless key and a disabled org at the handshake with the vendor's 401, out of credit with 402", async () => {
    const refusal = (headers: Record<string, string>) => kit.refusal(PATH, null, { headers });
    const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
    const unauthorized = { status: 401, body: { error: 'unauthorized' } };
    expect(await refusal({})).toEqual(unauthorized);
    expect(await refusal(bearer('rtr_not-a-key'))).toEqual(unauthorized);
    expect(await refusal(bearer(keylessOrg().key))).toEqual(unauthorized);

    const disabled = await newOrg();
    await disableOrg(disabled.orgId, async () => (await refusal(bearer(disabled.key))).status === 401);
    expect(await refusal(bearer(disabled.key))).toEqual(unauthorized);

    const broke = await newOrg();
    await setCredit(broke.orgId, 'out', async () => (await refusal(bearer(broke.key))).status === 402);
    expect(await refusal(bearer(broke.key))).toEqual({
      status: 402,
      body: { error: expect.stringMatching(/credit/i) },
    });
  });
});
