import { randomUUID } from 'node:crypto';
import { type JsonFrame, mirrorE2e, repliesInTurn, STALLS, type TestSocket, wordsOf } from '@router/testing';
import { type AudioSpec, createTake } from '@router/vendor-sim';

const kit = mirrorE2e('vendor_f');
const { sim, newOrg, calls, expectRepliesInTurn, keylessOrg, disableOrg, setCredit } = kit;
const PCM = 'voice=coral&codec=pcm&sample_rate=16000';
const PCM_SPEC: AudioSpec = { codec: 'pcm', sampleRate: 16000 };

/** The mirror's `/v1/tts` socket through the gateway, as a vendor_f client opens it with its key. */
const open = (key: string, query = PCM) => kit.connect('/v1/tts', key, { query });
/** The same socket's handshake refusal (status 101 where it was accepted). */
const refusal = (key: string | null, query = PCM) => kit.refusal('/v1/tts', key, { query });

const unique = (): string => randomUUID().slice(0, 8);

/** The audio of `audio.delta` frames (from index `from` on), in order. */
function audioOf(frames: readonly JsonFrame[], from = 0, to = frames.length): Buffer {
  return Buffer.concat(
    frames
      .slice(from, to)
      .filter((f) => f['type'] === 'audio.delta')
      .map((f) => Buffer.from(f['delta'] as string, 'base64')),
  );
}

const typeAt = (type: string) => (frame: JsonFrame) => frame['type'] === type;
const count = (frames: readonly JsonFrame[], type: string): number => frames.filter(typeAt(type)).length;

/**
 * Says one utterance (its deltas, then `text.done`) and waits for its end: its `audio.done`, or the `error` that
 * ends a failed one. The frames it got.
 */
async function utterance(socket: TestSocket, deltas: readonly string[]): Promise<JsonFrame[]> {
  const from = socket.frames.length;
  for (const delta of deltas) socket.send({ type: 'text.delta', delta });
  socket.send({ type: 'text.done' });
  await socket.until((frames) => frames.slice(from).some((f) => ['audio.done', 'error'].includes(f['type'])));
  return socket.frames.slice(from);
}

/** The vendor's takes of these sentences (each its call's, told apart by length), joined in order. */
async function vendorAudio(
  vendorKey: string,
  before: number,
  sentences: readonly string[],
  spec: AudioSpec,
): Promise<Buffer> {
  const calls = (await sim.calls('vendor_f', { key: vendorKey })).slice(before);
  return Buffer.concat(
    sentences.map((text) => {
      const matching = calls.filter((c) => c.chars === [...text].length);
      if (matching.length !== 1) {
        throw new Error(`${matching.length} vendor calls for a sentence of ${[...text].length} characters`);
      }
      return createTake(text, spec, { takeId: matching[0]?.takeId }).bytes;
    }),
  );
}

/**
 * A vendor_f client's socket sessions, written from the vendor's notes (../shared/vendors/vendor_f.md), through
 * the gateway with only the base URL and the key changed: `text.delta` pieces and `text.done` in, base64
 * `audio.delta`, then `audio.done`, out; `text.clear` answered with `audio.clear`. Sentences are takes of their
 * own, replayed from the cache on the next session and shared with /v1/stream for equal settings.
 */
describe('vendor_f mirror, /v1/tts socket (e2e)', () => {
  it("speaks an utterance as the vendor's audio, then audio.done; the socket takes the next; said again, all from the cache", async () => {
    const { key, vendorKey } = await newOrg();
    const id = unique();
    const first = `Hello there ${id}.`;
    const second = 'How are you doing today?';
    const before = await calls(vendorKey);

    const socket = await open(key);
    const frames = await utterance(socket, ['Hello there ', `${id}. How are `, 'you doing today?']);
    expect(frames.at(-1)).toEqual({ type: 'audio.done' });
    expect(frames.slice(0, -1).every((f) => f['type'] === 'audio.delta')).toBe(true);
    const audio = audioOf(frames);
    expect(audio.equals(await vendorAudio(vendorKey, before, [first, second], PCM_SPEC))).toBe(true);
    expect(await calls(vendorKey)).toBe(before + 2);
    // The socket stays open for the next utterance.
    const next = await utterance(socket, [`And one more ${id}.`]);
    expect(audioOf(next).length).toBeGreaterThan(0);
    expect(await calls(vendorKey)).toBe(before + 3);
    socket.close();

    const again = await open(key);
    const replay = await utterance(again, [`Hello there ${id}. How are you doing today?`]);
    again.close();
    expect(audioOf(replay).equals(audio)).toBe(true);
    expect(replay.at(-1)).toEqual({ type: 'audio.done' });
    expect(await calls(vendorKey)).toBe(before + 3);
  });

  it.each([
    { query: 'codec=mp3', spec: { codec: 'mp3', sampleRate: 24000, bitrateKbps: 128 } },
    {
      query: 'codec=mp3&sample_rate=44100&bit_rate=64000',
      spec: { codec: 'mp3', sampleRate: 44100, bitrateKbps: 64 },
    },
    { query: 'codec=wav&sample_rate=22050', spec: { codec: 'wav', sampleRate: 22050 } },
    { query: 'codec=pcm&sample_rate=48000', spec: { codec: 'pcm', sampleRate: 48000 } },
    { query: 'codec=mulaw&sample_rate=8000', spec: { codec: 'mulaw', sampleRate: 8000 } },
    { query: 'codec=alaw&sample_rate=8000', spec: { codec: 'alaw', sampleRate: 8000 } },
  ] satisfies Array<{ query: string; spec: AudioSpec }>)(
    "says a sentence with $query as the vendor's bytes, then the same bytes from the cache",
    async ({ query, spec }) => {
      const { key, vendorKey } = await newOrg();
      const text = `Spoken with ${query} ${unique()}.`;
      const before = await calls(vendorKey);

      const socket = await open(key, `voice=birch&${query}`);
      const audio = audioOf(await utterance(socket, [text]));
      socket.close();
      expect(audio.equals(await vendorAudio(vendorKey, before, [text], spec))).toBe(true);

      const again = await open(key, `voice=birch&${query}`);
      expect(audioOf(await utterance(again, [text])).equals(audio)).toBe(true);
      again.close();
      expect(await calls(vendorKey)).toBe(before + 1);
    },
  );

  it("serves replies in turn on one socket as the vendor's clients send them, each read up to its audio.done: only its own audio, on a miss and from the cache", async () => {
    /**
     * The replies as the voice-agent plugin sends them on a pooled socket: each word a `text.delta`, then
     * `text.done`, every frame read up to the `audio.done` that follows it; the next reply reuses the socket.
     */
    const converse = async (key: string, replies: string[][]): Promise<JsonFrame[][]> => {
      const socket = await open(key);
      const read = await repliesInTurn(socket, replies, (texts) => {
        for (const delta of wordsOf(texts)) socket.send({ type: 'text.delta', delta });
        socket.send({ type: 'text.done' });
        return (f) => ['audio.done', 'error'].includes(f['type']);
      });
      // An utterance with no text ends at once: by its audio.done, anything left of the replies would have come.
      socket.send({ type: 'text.done' });
      await socket.until((frames) => count(frames, 'audio.done') === replies.length + 1);
      socket.close();
      expect(socket.frames).toEqual([...read.flat(), { type: 'audio.done' }]);
      for (const reply of read) {
        expect(reply.filter(typeAt('audio.done'))).toEqual([reply.at(-1)]);
        expect(reply.slice(0, -1).every(typeAt('audio.delta'))).toBe(true);
      }
      return read;
    };

    await expectRepliesInTurn(converse, {
      async miss([one, two], { replies, vendorKey, before }) {
        const heard = [audioOf(one ?? []), audioOf(two ?? [])];
        expect(heard[0]?.equals(await vendorAudio(vendorKey, before, replies[0] ?? [], PCM_SPEC))).toBe(true);
        expect(heard[1]?.equals(await vendorAudio(vendorKey, before, replies[1] ?? [], PCM_SPEC))).toBe(true);
      },
      hit: (reply, first) => expect(audioOf(reply).equals(audioOf(first ?? []))).toBe(true),
    });
  });

  it('closes normally on a text.done followed at once by a close, and stores no part of a take it cut', async () => {
    const { key, vendorKey } = await newOrg();
    const text = `Finished and closed at once ${unique()}.`;
    const before = await calls(vendorKey);
    const socket = await open(key);
    socket.send({ type: 'text.delta', delta: text });
    socket.send({ type: 'text.done' });
    socket.close();
    expect(await socket.closed).toMatchObject({ code: 1000, by: 'client' });
    expect(count(socket.frames, 'error')).toBe(0);

    // Said again, the sentence is whole: from the take that went on after the close, or a new one.
    const again = await open(key);
    const reply = await utterance(again, [text]);
    again.close();
    const made = (await sim.calls('vendor_f', { key: vendorKey })).slice(before);
    const takes = made.map((c) => createTake(text, PCM_SPEC, { takeId: c.takeId }).bytes);
    expect(takes.some((take) => take.equals(audioOf(reply)))).toBe(true);
  });

  it('keys settings left out and the same settings spelled out (a voice in any case) as one entry', async () => {
    const { key, vendorKey } = await newOrg();
    const text = `Defaults left out ${unique()}.`;
    const before = await calls(vendorKey);
    const bare = await open(key, 'codec=pcm');
    const audio = audioOf(await utterance(bare, [text]));
    bare.close();
    const spelled = await open(
      key,
      'voice=Aster&language=auto&codec=pcm&sample_rate=24000&speed=1.0&optimize_streaming_latency=0' +
        '&text_normalization=false&with_timestamps=false',
    );
    expect(audioOf(await utterance(spelled, [text])).equals(audio)).toBe(true);
    spelled.close();
    expect(await calls(vendorKey)).toBe(before + 1);
  });

  kit.itSharesWithStream(
    { model: 'vendor_f/f_model_1', voice: 'coral', response_format: 'pcm', sample_rate: 16000 },
    async (key, text) => {
      const socket = await open(key);
      const audio = audioOf(await utterance(socket, [text]));
      socket.close();
      return audio;
    },
  );

  it('keeps two sockets interleaved each to its own settings, and back-to-back utterances in order', async () => {
    const { key, vendorKey } = await newOrg();
    const id = unique();
    const texts = {
      a: [`First for pcm ${id}.`, `And the second for pcm ${id}.`],
      b: [`Mulaw ${id}.`],
    };
    const before = await calls(vendorKey);
    const pcm = await open(key);
    const mulaw = await open(key, 'voice=dune&codec=mulaw&sample_rate=8000');
    // Interleaved: the second utterance on the pcm socket is sent before the first's audio.done.
    pcm.send({ type: 'text.delta', delta: `${texts.a[0]} ` });
    mulaw.send({ type: 'text.delta', delta: texts.b[0] });
    pcm.send({ type: 'text.done' });
    mulaw.send({ type: 'text.done' });
    pcm.send({ type: 'text.delta', delta: texts.a[1] });
    pcm.send({ type: 'text.done' });
    await pcm.until((frames) => count(frames, 'audio.done') === 2);
    await mulaw.until((frames) => count(frames, 'audio.done') === 1);
    pcm.close();
    mulaw.close();

    const firstDone = pcm.frames.findIndex(typeAt('audio.done'));
    expect(await calls(vendorKey)).toBe(before + 3);
    expect(
      audioOf(pcm.frames, 0, firstDone).equals(await vendorAudio(vendorKey, before, [texts.a[0]], PCM_SPEC)),
    ).toBe(true);
    expect(
      audioOf(pcm.frames, firstDone).equals(await vendorAudio(vendorKey, before, [texts.a[1]], PCM_SPEC)),
    ).toBe(true);
    expect(
      audioOf(mulaw.frames).equals(
        await vendorAudio(vendorKey, before, texts.b, { codec: 'mulaw', sampleRate: 8000 }),
      ),
    ).toBe(true);
  });

  it('answers text.clear with audio.clear: the sentence playing stops uncached, the rest is dropped, the socket goes on', async () => {
    const { key, vendorKey } = await newOrg();
    const id = unique();
    const held = `Held in the middle ${id}.`;
    const stall = await kit.injectFault(vendorKey, { ...STALLS, afterBytes: 1000, textIncludes: id });
    const socket = await open(key);
    socket.send({ type: 'text.delta', delta: `${held} Never said ${id}.` });
    await socket.next(typeAt('audio.delta'));
    socket.send({ type: 'text.clear' });
    await socket.next(typeAt('audio.clear'));
    await sim.removeFault(stall.id).catch(() => undefined);
    const cleared = socket.frames.findIndex(typeAt('audio.clear'));
    expect(audioOf(socket.frames, 0, cleared).length).toBe(1000);

    // A clear with nothing playing is acknowledged too, and an empty utterance ends at once.
    socket.send({ type: 'text.clear' });
    socket.send({ type: 'text.done' });
    await socket.until((frames) => count(frames, 'audio.done') === 1);
    expect(socket.frames.slice(cleared + 1).map((f) => f['type'])).toEqual(['audio.clear', 'audio.done']);

    // The held sentence was stopped at the vendor, so its part was not cached: said again at once, the vendor
    // speaks it whole (a request that reaches the worker while the stopped take still unwinds waits for it to
    // end, then is a take of its own).
    const again = await utterance(socket, [held]);
    expect(count(again, 'error')).toBe(0);
    socket.close();
    const heldCalls = (await sim.calls('vendor_f', { key: vendorKey })).filter(
      (c) => c.chars === [...held].length,
    );
    expect(heldCalls.length).toBeGreaterThan(1);
    const take = createTake(held, PCM_SPEC, { takeId: heldCalls.at(-1)?.takeId }).bytes;
    expect(audioOf(again).equals(take)).toBe(true);
  });

  it('passes a vendor error mid-sentence on as an error that ends its utterance, stores nothing of it, and keeps the socket open', async () => {
    const { key, vendorKey } = await newOrg();
    const id = unique();
    const broken = `Broken in the middle ${id}.`;
    const fault = await kit.injectFault(vendorKey, {
      kind: 'error',
      afterBytes: 10_000,
      message: 'engine failed',
      textIncludes: broken,
    });
    // Audio at playback speed, so the break comes well after the sentence's first audio reached the client
    // (broken off before that, the router would ask the vendor once more, as for any take with no audio yet).
    await sim.setPacing('vendor_f', { factor: 1 });
    const socket = await open(key);
    socket.send({ type: 'text.delta', delta: `${broken} Never heard after the break ${id}.` });
    socket.send({ type: 'text.done' });
    const error = await socket.next(typeAt('error')).finally(() => sim.setPacing('vendor_f', { factor: 0 }));
    await sim.removeFault(fault.id).catch(() => undefined);
    expect(error).toEqual({ type: 'error', message: expect.any(String) });
    const failedAt = socket.frames.indexOf(error);
    expect(audioOf(socket.frames, 0, failedAt).length).toBe(10_000);

    // The error ended the utterance: nothing more of it, no audio.done for it. The next utterance is the same
    // sentence, which reaches the vendor again (nothing of the broken take was stored) and is all there is.
    const again = await utterance(socket, [broken]);
    socket.close();
    expect(socket.frames.slice(failedAt + 1).map((f) => f['type'])).toEqual([
      ...again.filter(typeAt('audio.delta')).map(() => 'audio.delta'),
      'audio.done',
    ]);
    const brokenCalls = (await sim.calls('vendor_f', { key: vendorKey })).filter(
      (c) => c.chars === [...broken].length,
    );
    expect(brokenCalls.map((c) => c.fault)).toEqual(['error', null]);
    const whole = createTake(broken, PCM_SPEC, { takeId: brokenCalls[1]?.takeId }).bytes;
    expect(audioOf(again).equals(whole)).toBe(true);

    // A voice the vendor does not know is its refusal, in its words, for that utterance.
    const unknown = await open(key, 'voice=nobody&codec=pcm');
    unknown.send({ type: 'text.delta', delta: `Nobody speaks this ${unique()}.` });
    unknown.send({ type: 'text.done' });
    expect(await unknown.next(typeAt('error'))).toEqual({ type: 'error', message: 'invalid voice: nobody' });
    expect(unknown.open).toBe(true);
    unknown.close();
  });

  it('closes a socket its client left quiet normally, with idle timeout (the stack caps idle limits at 10 s)', async () => {
    const { key } = await newOrg();
    const socket = await open(key);
    await utterance(socket, [`Then nothing more ${unique()}.`]);
    // Only the client's messages count: its last was the text.done, and the router's frames since do not.
    const end = await socket.closed;
    expect(end).toEqual({ code: 1000, reason: 'idle timeout', by: 'server' });
  }, 20_000);

  it("answers a message it cannot read with the vendor's error message and stays open", async () => {
    const { key } = await newOrg();
    const socket = await open(key);
    socket.send({ type: 'speak', text: 'x' });
    socket.send({ type: 'text.delta', delta: 5 });
    socket.send('not json');
    await socket.until((frames) => count(frames, 'error') === 3);
    expect(socket.frames).toEqual([
      { type: 'error', message: expect.any(String) },
      { type: 'error', message: 'text.delta needs a string delta' },
      { type: 'error', message: expect.any(String) },
    ]);
    const frames = await utterance(socket, [`Still here ${unique()}.`]);
    expect(audioOf(frames).length).toBeGreaterThan(0);
    socket.close();
  });

  it('refuses settings the vendor refuses at the upgrade with its 400, before any vendor call', async () => {
    const { key, vendorKey } = await newOrg();
    for (const query of [
      'codec=opus',
      'codec=pcm&sample_rate=32000',
      'codec=wav&bit_rate=64000',
      'speed=3',
    ]) {
      expect([query, await refusal(key, query)]).toEqual([
        query,
        { status: 400, body: { code: 'Bad Request', error: expect.any(String) } },
      ]);
    }
    expect(await calls(vendorKey)).toBe(0);
  });

  it("refuses a missing, wrong or vendor-keyless key, a disabled org and an org out of credit at the upgrade, in the vendor's shape", async () => {
    const unauthorized = { code: 'Unauthorized', error: expect.any(String) };
    expect(await refusal(null)).toEqual({ status: 401, body: unauthorized });
    expect(await refusal('rtr_not-a-key')).toEqual({ status: 401, body: unauthorized });
    const noVendorKey = await refusal(keylessOrg().key);
    expect(noVendorKey).toEqual({ status: 401, body: unauthorized });
    expect(noVendorKey.body.error).toContain('/dashboard/provider-keys');

    const { orgId, key } = await newOrg();
    await setCredit(orgId, 'out', async () => (await refusal(key)).status === 402);
    expect(await refusal(key)).toEqual({
      status: 402,
      body: { code: 'insufficient_credits', error: expect.any(String) },
    });
    await disableOrg(orgId, async () => (await refusal(key)).status === 401);
    expect(await refusal(key)).toEqual({ status: 401, body: unauthorized });
  });

  it("answers a socket on a path the vendor has no socket at with the vendor's 404", async () => {
    const { key } = await newOrg();
    for (const path of ['/v1/tts/voices', '/v1/tts/live', '/v2/tts']) {
      expect([path, await kit.refusal(path, key)]).toEqual([
        path,
        { status: 404, body: { code: 'Not Found', error: 'no route matched' } },
      ]);
    }
  });
});
