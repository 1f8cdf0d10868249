import { randomUUID } from 'node:crypto';
import { type JsonFrame, mirrorE2e, repliesInTurn, type TestSocket, wordsOf } from '@router/testing';
import { type AudioSpec, createTake, vendorGTake } from '@router/vendor-sim';

const kit = mirrorE2e('vendor_g');
const { sim, newOrg, unique, calls, expectRepliesInTurn, keylessOrg, setCredit } = kit;
/** The audio of a stream with the settings `PCM`. */
const PCM_SPEC: AudioSpec = { codec: 'pcm', sampleRate: 24000 };
/** A stream's settings as the vendor's notes show a config (../shared/vendors/vendor_g.md), less its key and id. */
const PCM = {
  model: 'g_model_3',
  language: 'en',
  voice: 'Maren',
  audio_format: 'pcm_s16le',
  sample_rate: 24000,
};

/**
 * A connection as the vendor's clients open it, at the mirror's realtime path (the vendor's is
 * `wss://{TTS_HOST}/tts-websocket`): no key at the upgrade unless `headers` carry one.
 */
const connect = (headers: Record<string, string> = {}) => kit.connect('/tts-websocket', null, { headers });

/** One stream's frames, in order. */
const framesOf = (frames: readonly JsonFrame[], id: string): JsonFrame[] =>
  frames.filter((f) => f['stream_id'] === id);

/** One stream's audio, its messages' `audio` decoded and joined in order. */
const audioOf = (frames: readonly JsonFrame[], id: string): Buffer =>
  Buffer.concat(
    framesOf(frames, id)
      .filter((f) => typeof f['audio'] === 'string')
      .map((f) => Buffer.from(f['audio'] as string, 'base64')),
  );

/** Waits for a stream's `terminated`. */
const terminated = (socket: TestSocket, id: string): Promise<void> =>
  socket.until((frames) => framesOf(frames, id).some((f) => f['terminated'] === true));

/** Says `texts` on one stream of a new connection (config with the key, the texts, an empty `text_end`). */
async function say(
  key: string,
  texts: readonly string[],
  settings: Record<string, unknown> = PCM,
): Promise<JsonFrame[]> {
  const socket = await connect();
  socket.send({ api_key: key, stream_id: 's1', ...settings });
  for (const text of texts) socket.send({ stream_id: 's1', text, text_end: false });
  socket.send({ stream_id: 's1', text: '', text_end: true });
  await terminated(socket, 's1');
  socket.close();
  return framesOf(socket.frames, 's1');
}

/**
 * The simulator's take of each sentence (found in `key`'s calls by its length; the sentences of a test differ
 * in length), in `spec`, joined in the order given.
 */
async function vendorTakes(
  vendorKey: string,
  sentences: readonly string[],
  spec: AudioSpec,
  options: { speed?: number; samples?: 'f32le' | 's16be' } = {},
): Promise<Buffer> {
  const calls = await sim.calls('vendor_g', { key: vendorKey });
  return Buffer.concat(
    sentences.map((text) => {
      const call = calls.find((c) => c.chars === [...text].length);
      if (!call) throw new Error(`no vendor call for a sentence of ${[...text].length} characters`);
      const take = createTake(text, spec, { takeId: call.takeId, speed: options.speed ?? 1 });
      return vendorGTake(take, options.samples).bytes;
    }),
  );
}

/** A stream ends as the vendor's does: its audio, an `audio_end` message, then `terminated`. */
function expectEndedNormally(frames: readonly JsonFrame[], id = 's1'): void {
  expect(frames.slice(-2)).toEqual([
    { stream_id: id, audio: '', audio_end: true },
    { stream_id: id, terminated: true },
  ]);
  expect(frames.slice(0, -2).every((f) => typeof f['audio'] === 'string' && f['audio'] !== '')).toBe(true);
}

/**
 * A vendor_g client's realtime session, written from the vendor's notes (../shared/vendors/vendor_g.md),
 * through the gateway with only the URL and the key changed: each sentence of a stream is a take of its own,
 * replayed from the cache the next time and shared with /v1/stream for equal settings.
 */
describe('vendor_g mirror, /tts-websocket (e2e)', () => {
  it('speaks a stream sentence by sentence, each a take of its own; said again, all from the cache', async () => {
    const { key, vendorKey } = await newOrg();
    const first = unique('Hello there');
    const second = 'How are you today, my friend?';
    const before = await calls(vendorKey);

    const live = await say(key, [first.slice(0, 8), `${first.slice(8)} How are `, 'you today, my friend?']);
    expectEndedNormally(live);
    const audio = audioOf(live, 's1');
    expect(
      audio.equals(await vendorTakes(vendorKey, [first, second], { codec: 'pcm', sampleRate: 24000 })),
    ).toBe(true);
    expect(await calls(vendorKey)).toBe(before + 2);

    const again = await say(key, [`${first} ${second}`]);
    expectEndedNormally(again);
    expect(audioOf(again, 's1').equals(audio)).toBe(true);
    expect(await calls(vendorKey)).toBe(before + 2);
  });

  it("serves replies in turn on one connection as the vendor's clients send them, each a stream read up to its terminated: only its own frames, on a miss and from the cache", async () => {
    /**
     * The replies as the voice-agent plugin sends them on the connection it keeps: a stream of its own per reply
     * (its config with the key), each word with `text_end: false`, an empty `text_end`, then the stream's frames
     * up to its `terminated`; the next reply opens the next stream.
     */
    const converse = async (
      key: string,
      replies: string[][],
    ): Promise<Array<{ id: string; frames: JsonFrame[] }>> => {
      const socket = await connect();
      const ids = replies.map(() => randomUUID().slice(0, 12));
      const heard = await repliesInTurn(socket, replies, (texts, i) => {
        const id = ids[i] ?? '';
        socket.send({ api_key: key, stream_id: id, ...PCM });
        for (const text of wordsOf(texts)) socket.send({ stream_id: id, text, text_end: false });
        socket.send({ stream_id: id, text: '', text_end: true });
        return (f) => f['stream_id'] === id && f['terminated'] === true;
      });
      const read = heard.map((frames, i) => ({ id: ids[i] ?? '', frames }));
      socket.close();
      expect(socket.frames).toEqual(read.flatMap((r) => r.frames));
      for (const { id, frames } of read) {
        expect(framesOf(frames, id)).toEqual(frames);
        expectEndedNormally(frames, id);
      }
      return read;
    };

    await expectRepliesInTurn(converse, {
      async miss(first, { replies, vendorKey }) {
        for (const [i, { id, frames }] of first.entries()) {
          const takes = await vendorTakes(vendorKey, replies[i] ?? [], PCM_SPEC);
          expect(audioOf(frames, id).equals(takes)).toBe(true);
        }
      },
      hit: ({ id, frames }, was) =>
        expect(audioOf(frames, id).equals(audioOf(was?.frames ?? [], was?.id ?? ''))).toBe(true),
    });
  });

  it('closes normally on a text_end followed at once by a close, and stores no part of a take it cut', async () => {
    const { key, vendorKey } = await newOrg();
    const text = unique('Ended and closed at once');
    const socket = await connect();
    socket.send({ api_key: key, stream_id: 's1', ...PCM });
    socket.send({ stream_id: 's1', text, text_end: true });
    socket.close();
    expect(await socket.closed).toMatchObject({ code: 1000, by: 'client' });
    expect(socket.frames.some((f) => f['error_code'] !== undefined)).toBe(false);

    // Said again, the sentence is whole: from the take that went on after the close, or a new one.
    const again = await say(key, [text]);
    expectEndedNormally(again);
    const takes = (await sim.calls('vendor_g', { key: vendorKey })).map(
      (c) => createTake(text, PCM_SPEC, { takeId: c.takeId }).bytes,
    );
    expect(takes.some((take) => take.equals(audioOf(again, 's1')))).toBe(true);
  });

  it('keeps two streams interleaved on one connection apart, each with its own settings and order', async () => {
    const { key, vendorKey } = await newOrg();
    const a = [unique('Stream one begins'), 'Stream one carries on for longer.'];
    const b = [unique('The second stream has a much longer start'), 'Then its end.'];
    const socket = await connect();
    socket.send({ api_key: key, stream_id: 'a', ...PCM, sample_rate: 16000 });
    socket.send({ api_key: key, stream_id: 'b', ...PCM, voice: 'Tobin', audio_format: 'mp3', speed: 1.2 });
    socket.send({ stream_id: 'b', text: `${b[0]} ` });
    socket.send({ stream_id: 'a', text: `${a[0]} ` });
    socket.send({ keep_alive: true });
    socket.send({ stream_id: 'a', text: a[1], text_end: true });
    socket.send({ stream_id: 'b', text: b[1] });
    socket.send({ stream_id: 'b', text: '', text_end: true });
    await Promise.all([terminated(socket, 'a'), terminated(socket, 'b')]);
    socket.close();

    expectEndedNormally(framesOf(socket.frames, 'a'), 'a');
    expectEndedNormally(framesOf(socket.frames, 'b'), 'b');
    const pcm = await vendorTakes(vendorKey, a, { codec: 'pcm', sampleRate: 16000 });
    const mp3 = await vendorTakes(vendorKey, b, { codec: 'mp3', sampleRate: 24000 }, { speed: 1.2 });
    expect(audioOf(socket.frames, 'a').equals(pcm)).toBe(true);
    expect(audioOf(socket.frames, 'b').equals(mp3)).toBe(true);
    // Nothing but the streams' own messages came: a keep-alive is not answered.
    expect(socket.frames.every((f) => f['stream_id'] === 'a' || f['stream_id'] === 'b')).toBe(true);
  });

  it('cancels a stream mid-sentence: terminated without audio_end, nothing after it, the other stream goes on', async () => {
    const { key, vendorKey } = await newOrg();
    const stalled = unique('This sentence stalls after its first audio');
    const other = unique('The other stream is not cancelled');
    await kit.injectFault(vendorKey, {
      kind: 'stall',
      afterBytes: 2000,
      textIncludes: stalled.slice(-10),
    });
    const socket = await connect();
    socket.send({ api_key: key, stream_id: 's1', ...PCM });
    socket.send({ api_key: key, stream_id: 's2', ...PCM });
    socket.send({ stream_id: 's1', text: stalled, text_end: true });
    await socket.until((frames) => audioOf(frames, 's1').length >= 2000);
    socket.send({ stream_id: 's1', cancel: true });
    socket.send({ stream_id: 's2', text: other, text_end: true });
    await Promise.all([terminated(socket, 's1'), terminated(socket, 's2')]);

    const cancelled = framesOf(socket.frames, 's1');
    expect(cancelled.at(-1)).toEqual({ stream_id: 's1', terminated: true });
    expect(cancelled.some((f) => f['audio_end'] === true)).toBe(false);
    expect(audioOf(socket.frames, 's1').length).toBe(2000);
    expectEndedNormally(framesOf(socket.frames, 's2'), 's2');
    // The id is free again once terminated: a new stream under it speaks.
    socket.send({ api_key: key, stream_id: 's1', ...PCM });
    socket.send({ stream_id: 's1', text: other, text_end: true });
    await socket.until(
      (frames) => framesOf(frames, 's1').filter((f) => f['terminated'] === true).length === 2,
    );
    socket.close();

    // The cancelled sentence was stopped, not stored: said again, it reaches the vendor.
    const before = await calls(vendorKey);
    expectEndedNormally(await say(key, [stalled]));
    expect(await calls(vendorKey)).toBe(before + 1);
  });

  it('ends a stream whose sentence fails at the vendor with its error and terminated; the connection goes on', async () => {
    const { key, vendorKey } = await newOrg();
    const sentences = [
      unique('First sentence is fine'),
      unique('Second one fails midway'),
      'Third is dropped.',
    ];
    await kit.injectFault(vendorKey, {
      kind: 'error',
      status: 503,
      message: 'model overloaded',
      afterBytes: 2000,
      textIncludes: sentences[1]?.slice(-10),
    });
    const socket = await connect();
    socket.send({ api_key: key, stream_id: 's1', ...PCM });
    socket.send({ stream_id: 's1', text: sentences.join(' '), text_end: true });
    await terminated(socket, 's1');
    const failed = framesOf(socket.frames, 's1');
    expect(failed.slice(-2)).toEqual([
      { stream_id: 's1', error_code: 503, error_message: 'model overloaded' },
      { stream_id: 's1', terminated: true },
    ]);
    expect(failed.some((f) => f['audio_end'] === true)).toBe(false);
    // The first sentence whole and the start of the second, as the vendor sent them; nothing of the third.
    const firstTake = await vendorTakes(vendorKey, [sentences[0] ?? ''], { codec: 'pcm', sampleRate: 24000 });
    const heard = audioOf(socket.frames, 's1');
    expect(heard.length).toBe(firstTake.length + 2000);
    expect(heard.subarray(0, firstTake.length).equals(firstTake)).toBe(true);

    // Stream errors do not close the socket: another stream on it speaks. The failed sentence was not stored.
    const second = sentences[1] ?? '';
    const before = await sim.calls('vendor_g', { key: vendorKey });
    socket.send({ api_key: key, stream_id: 's2', ...PCM });
    socket.send({ stream_id: 's2', text: `${sentences[0]} ${second}`, text_end: true });
    await terminated(socket, 's2');
    socket.close();
    expectEndedNormally(framesOf(socket.frames, 's2'), 's2');
    // (The third sentence may have been asked for before its stream ended; only the two said again count.)
    const said = [sentences[0] ?? '', second].map((text) => [...text].length);
    const after = (await sim.calls('vendor_g', { key: vendorKey })).slice(before.length);
    expect(after.map((c) => c.chars).filter((chars) => said.includes(chars))).toEqual([[...second].length]);
  });

  kit.itSharesWithStream(
    {
      model: 'vendor_g/g_model_3',
      voice: 'Maren',
      language: 'en',
      response_format: 'pcm',
      sample_rate: 24000,
    },
    async (key, text) => audioOf(await say(key, [text]), 's1'),
  );

  it("shares one entry between a config with the vendor's defaults left out and the same spelled out", async () => {
    const { key, vendorKey } = await newOrg();
    const text = unique('Defaults left out');
    const before = await calls(vendorKey);
    const leftOut = await say(key, [text], { voice: 'Maren' });
    expectEndedNormally(leftOut);
    const wav = await vendorTakes(vendorKey, [text], { codec: 'wav', sampleRate: 24000 });
    expect(audioOf(leftOut, 's1').equals(wav)).toBe(true);
    const spelled = await say(key, [text], {
      model: 'g_model_3',
      language: 'en',
      voice: 'Maren',
      audio_format: 'wav',
      sample_rate: 24000,
      speed: 1.0,
      reduce_silence: false,
    });
    expect(audioOf(spelled, 's1').equals(wav)).toBe(true);
    expect(await calls(vendorKey)).toBe(before + 1);
  });

  it.each([
    { audio_format: 'pcm_f32le', rate: 22050, spec: { codec: 'pcm', sampleRate: 22050 }, samples: 'f32le' },
    { audio_format: 'pcm_s16be', rate: 16000, spec: { codec: 'pcm', sampleRate: 16000 }, samples: 's16be' },
    { audio_format: 'pcm_mulaw', rate: 8000, spec: { codec: 'mulaw', sampleRate: 8000 } },
    { audio_format: 'pcm_alaw', rate: 8000, spec: { codec: 'alaw', sampleRate: 8000 } },
    { audio_format: 'wav', rate: 44100, spec: { codec: 'wav', sampleRate: 44100 } },
    { audio_format: 'aac', rate: 24000, spec: { codec: 'aac', sampleRate: 24000 } },
    { audio_format: 'opus', rate: 48000, spec: { codec: 'opus', sampleRate: 48000 } },
    { audio_format: 'flac', rate: 16000, spec: { codec: 'flac', sampleRate: 16000 } },
  ] as const)(
    "says a sentence in $audio_format as the vendor's bytes, then the same bytes from the cache",
    async ({ audio_format, rate, spec, ...rest }) => {
      const { key, vendorKey } = await newOrg();
      const text = unique(`Spoken in ${audio_format}`);
      const settings = { ...PCM, audio_format, sample_rate: rate };
      const samples = 'samples' in rest ? rest.samples : undefined;
      const live = await say(key, [text], settings);
      expectEndedNormally(live);
      const take = await vendorTakes(vendorKey, [text], spec, samples ? { samples } : {});
      expect(audioOf(live, 's1').equals(take)).toBe(true);
      const before = await calls(vendorKey);
      expect(audioOf(await say(key, [text], settings), 's1').equals(take)).toBe(true);
      expect(await calls(vendorKey)).toBe(before);
    },
  );

  it("takes keep-alives sent before a connection's first stream, as its clients send them from the connect on", async () => {
    const { key } = await newOrg();
    const socket = await connect();
    socket.send({ keep_alive: true });
    socket.send({ keep_alive: true });
    socket.send({ api_key: key, stream_id: 's1', ...PCM });
    socket.send({ stream_id: 's1', text: unique('After two keep-alives'), text_end: true });
    await terminated(socket, 's1');
    socket.close();
    expectEndedNormally(framesOf(socket.frames, 's1'));
  });

  it('takes the key from an Authorization header at the upgrade, with none in the config', async () => {
    const { key } = await newOrg();
    const socket = await connect({ authorization: `Bearer ${key}` });
    socket.send({ stream_id: 's1', ...PCM });
    socket.send({ stream_id: 's1', text: unique('Keyed at the upgrade'), text_end: true });
    await terminated(socket, 's1');
    socket.close();
    expectEndedNormally(framesOf(socket.frames, 's1'));
  });

  it('closes a connection its client left quiet, however much it was sent (the stack caps idle limits at 10 s)', async () => {
    const { key } = await newOrg();
    const socket = await connect({ authorization: `Bearer ${key}` });
    socket.send({ stream_id: 's1', ...PCM });
    socket.send({ stream_id: 's1', text: unique('Then nothing more'), text_end: true });
    await terminated(socket, 's1');
    // Only the client's messages count: its last was the text, and the router's frames since do not.
    const end = await socket.closed;
    expect({ code: end.code, by: end.by }).toEqual({ code: 1000, by: 'server' });
  }, 20_000);

  it('refuses a config the vendor refuses, and a sixth stream, each with its error and terminated; the socket stays open', async () => {
    const { key } = await newOrg();
    const socket = await connect();
    socket.send({ api_key: key, stream_id: 'raw', ...PCM, sample_rate: undefined });
    for (const id of ['a', 'b', 'c', 'd', 'e', 'f']) socket.send({ api_key: key, stream_id: id, ...PCM });
    await Promise.all([terminated(socket, 'raw'), terminated(socket, 'f')]);
    expect(framesOf(socket.frames, 'raw')).toEqual([
      { stream_id: 'raw', error_code: 400, error_message: 'sample_rate is required for raw pcm formats' },
      { stream_id: 'raw', terminated: true },
    ]);
    expect(framesOf(socket.frames, 'f')).toEqual([
      { stream_id: 'f', error_code: 429, error_message: expect.stringContaining('5 streams') },
      { stream_id: 'f', terminated: true },
    ]);
    socket.send({ stream_id: 'a', text: unique('Still open'), text_end: true });
    await terminated(socket, 'a');
    socket.close();
    expectEndedNormally(framesOf(socket.frames, 'a'), 'a');
  });

  /** A connection refused as the vendor fails one: the stream's error, its terminated, then close 1008. */
  async function refusedWith(apiKey: string | undefined): Promise<{ frames: JsonFrame[]; code: number }> {
    const socket = await connect();
    socket.send({ ...(apiKey === undefined ? {} : { api_key: apiKey }), stream_id: 's1', ...PCM });
    const { code } = await socket.closed;
    return { frames: socket.frames, code };
  }

  it("refuses a missing, wrong or vendor-keyless key, and an org out of credit, in vendor_g's shape", async () => {
    for (const apiKey of [undefined, 'rtr_not-a-key']) {
      expect(await refusedWith(apiKey)).toEqual({
        frames: [
          { stream_id: 's1', error_code: 401, error_message: expect.any(String) },
          { stream_id: 's1', terminated: true },
        ],
        code: 1008,
      });
    }
    const noVendorKey = await refusedWith(keylessOrg().key);
    expect(noVendorKey.code).toBe(1008);
    expect(noVendorKey.frames[0]).toMatchObject({ stream_id: 's1', error_code: 401 });
    expect(noVendorKey.frames[0]?.['error_message']).toContain('/dashboard/provider-keys');

    const { orgId, key } = await newOrg();
    try {
      await setCredit(orgId, 'out', async () => {
        const refused = await refusedWith(key);
        return refused.code === 1008 && refused.frames[0]?.['error_code'] === 402;
      });
    } finally {
      await setCredit(orgId, 'in');
    }
  });

  it("answers a handshake on a path with no socket with the vendor's 404", async () => {
    const { key } = await newOrg();
    expect(await kit.refusal('/tts-websocket/v2', key)).toEqual({
      status: 404,
      body: {
        status_code: 404,
        error_type: 'not_found',
        message: expect.any(String),
        validation_errors: [],
        request_id: expect.any(String),
      },
    });
  });
});
