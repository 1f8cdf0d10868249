import { randomUUID } from 'node:crypto';
import type { StreamSettings } from '@router/client';
import {
  type JsonFrame,
  mirrorE2e,
  mirrorSocketUrl,
  openSocket,
  sayOnStream,
  type TestSocket,
} from '@router/testing';
import { createTake, readTakeId, type AudioSpec } from '@router/vendor-sim';

const { stack, sim, newOrg } = mirrorE2e('vendor_c');
const VOICE_SETTINGS = { stability: 0.5, similarity_boost: 0.75 };

/** A server frame as a vendor_c client reads it. */
type Frame = JsonFrame;

/** A vendor_c socket through the gateway, at `path` (query included) under the mirror's base. */
function connect(path: string, headers: Record<string, string> = {}): Promise<TestSocket> {
  return openSocket(mirrorSocketUrl(stack.gatewayUrl, 'vendor_c', path), { headers });
}

/** The audio of the frames (of one context, when given), in order. */
function audioOf(frames: readonly Frame[], context?: string): Buffer {
  return Buffer.concat(
    frames
      .filter((f) => typeof f['audio'] === 'string' && (context === undefined || f['contextId'] === context))
      .map((f) => Buffer.from(f['audio'] as string, 'base64')),
  );
}

async function firstVoice(key: string): Promise<string> {
  const answer = await fetch(`${stack.gatewayUrl}/vendor_c/v1/voices`, {
    headers: { 'vendor_c-api-key': key },
  });
  const { voices } = (await answer.json()) as { voices: Array<{ voice_id: string }> };
  return voices[0].voice_id;
}

/** Says a reply on `stream-input` and waits for the router to close the socket. */
async function sayOnStreamInput(
  key: string,
  voice: string,
  texts: readonly string[],
  query = 'model_id=c_model_1&output_format=pcm_16000',
): Promise<{ frames: Frame[]; close: { code: number; reason: string } }> {
  const session = await connect(`/v1/text-to-speech/${voice}/stream-input?${query}`, {
    'vendor_c-api-key': key,
  });
  session.send({ text: ' ', voice_settings: VOICE_SETTINGS });
  for (const text of texts) session.send({ text });
  session.send({ text: '' });
  return { frames: session.frames, close: await session.closed };
}

/**
 * A vendor_c client's socket sessions, written from the vendor's notes (../shared/vendors/vendor_c.md), through
 * the gateway with only the base URL and the key changed: sentences said on the mirror's sockets are sentence
 * takes, replayed from the cache on the next session and shared with /v1/stream for equal settings.
 */
describe('vendor_c mirror, sockets (e2e)', () => {
  it('speaks a stream-input session, ends it with isFinal and closes normally; said again it is all cached', async () => {
    const { key, vendorKey } = await newOrg();
    const voice = await firstVoice(key);
    const id = randomUUID().slice(0, 8);
    const texts = [`Hello there ${id}. `, 'How are ', 'you today? '];
    const before = await sim.callCount('vendor_c', { key: vendorKey });

    const first = await sayOnStreamInput(key, voice, texts);
    expect(first.close.code).toBe(1000);
    expect(first.frames.at(-1)).toEqual({ isFinal: true });
    const audio = audioOf(first.frames);
    expect(audio.length).toBeGreaterThan(0);
    // One alignment frame per sentence, after its audio: the sentence's characters with their times.
    const alignments = first.frames.filter((f) => f['alignment'] && f['audio'] === null);
    expect(alignments.map((f) => f['alignment'].chars.join(''))).toEqual([
      `Hello there ${id}.`,
      'How are you today?',
    ]);
    for (const { alignment } of alignments) {
      expect(alignment.charStartTimesMs).toHaveLength(alignment.chars.length);
      expect(alignment.charDurationsMs).toHaveLength(alignment.chars.length);
    }
    expect(await sim.callCount('vendor_c', { key: vendorKey })).toBe(before + 2);
    // The times are the vendor's own for each character of the take (the simulator's take, rebuilt).
    const said = `Hello there ${id}.`;
    const call = (await sim.calls('vendor_c', { key: vendorKey })).find((c) => c.chars === [...said].length);
    const take = createTake(said, { codec: 'pcm', sampleRate: 16000 }, { takeId: call?.takeId, speed: 1 });
    expect(alignments[0]['alignment'].charStartTimesMs).toEqual(
      take.characters.map((c) => Math.round(c.startMs)),
    );
    expect(alignments[0]['alignment'].charDurationsMs).toEqual(
      take.characters.map((c) => Math.round(c.endMs) - Math.round(c.startMs)),
    );

    const again = await sayOnStreamInput(key, voice, texts);
    expect(again.close.code).toBe(1000);
    expect(audioOf(again.frames).equals(audio)).toBe(true);
    expect(again.frames.filter((f) => f['audio'] === null)).toEqual(alignments);
    expect(await sim.callCount('vendor_c', { key: vendorKey })).toBe(before + 2);
  });

  it.each([
    { format: 'mp3_44100_128', spec: { codec: 'mp3', sampleRate: 44100, bitrateKbps: 128, id3: true } },
    { format: 'pcm_24000', spec: { codec: 'pcm', sampleRate: 24000 } },
    { format: 'wav_22050', spec: { codec: 'wav', sampleRate: 22050 } },
    { format: 'ulaw_8000', spec: { codec: 'mulaw', sampleRate: 8000 } },
    { format: 'alaw_8000', spec: { codec: 'alaw', sampleRate: 8000 } },
    ...[32, 64, 96, 128, 192].map((kbps) => ({
      format: `opus_48000_${kbps}`,
      spec: { codec: 'opus', sampleRate: 48000, bitrateKbps: kbps } as const,
    })),
  ] satisfies Array<{ format: string; spec: AudioSpec }>)(
    "says a sentence in $format as the vendor's bytes, then the same bytes from the cache",
    async ({ format, spec }) => {
      const { key, vendorKey } = await newOrg();
      const voice = await firstVoice(key);
      const text = `Spoken in ${format} ${randomUUID().slice(0, 8)}.`;
      const query = `model_id=c_model_1&output_format=${format}`;
      const before = await sim.calls('vendor_c', { key: vendorKey });

      const first = await sayOnStreamInput(key, voice, [`${text} `], query);
      expect(first.close.code).toBe(1000);
      const calls = (await sim.calls('vendor_c', { key: vendorKey })).slice(before.length);
      expect(calls).toHaveLength(1);
      const audio = audioOf(first.frames);
      // The simulator's take for that call (its id is in the call log), untouched.
      expect(audio.equals(createTake(text, spec, { takeId: calls[0].takeId }).bytes)).toBe(true);
      if (spec.codec !== 'mp3' && spec.codec !== 'opus')
        expect(readTakeId(audio, spec.codec)).toBe(calls[0].takeId);

      const again = await sayOnStreamInput(key, voice, [`${text} `], query);
      expect(again.close.code).toBe(1000);
      expect(audioOf(again.frames).equals(audio)).toBe(true);
      expect(await sim.calls('vendor_c', { key: vendorKey })).toHaveLength(before.length + 1);
    },
  );

  it('takes the key from the first message when the handshake carries none', async () => {
    const { key } = await newOrg();
    const voice = await firstVoice(key);
    const session = await connect(`/v1/text-to-speech/${voice}/stream-input?output_format=pcm_16000`);
    session.send({ text: ' ', voice_settings: VOICE_SETTINGS, vendor_c_api_key: key });
    session.send({ text: `Keyed in the message ${randomUUID().slice(0, 8)}. ` });
    session.send({ text: '' });
    expect((await session.closed).code).toBe(1000);
    expect(audioOf(session.frames).length).toBeGreaterThan(0);
  });

  it("refuses a wrong key in vendor_c's socket shape and closes with 1008", async () => {
    const session = await connect('/v1/text-to-speech/any/stream-input', { 'vendor_c-api-key': 'rtr_wrong' });
    const close = await session.closed;
    expect(close.code).toBe(1008);
    expect(session.frames).toEqual([
      { message: expect.stringContaining('Invalid API key'), error: 'invalid_api_key', code: 1008 },
    ]);
  });

  it('shares sentences with /v1/stream for equal settings, both ways', async () => {
    const { key, vendorKey, client } = await newOrg();
    const voice = await firstVoice(key);
    const settings: StreamSettings = {
      model: 'vendor_c/c_model_1',
      voice,
      response_format: 'pcm',
      sample_rate: 16000,
      options: { voice_settings: VOICE_SETTINGS },
    };
    const saidOnMirror = `Said on the mirror first ${randomUUID().slice(0, 8)}.`;
    const saidNatively = `Said natively first ${randomUUID().slice(0, 8)}.`;

    const mirrored = await sayOnStreamInput(key, voice, [`${saidOnMirror} `]);
    const calls = await sim.callCount('vendor_c', { key: vendorKey });
    const heard = await sayOnStream(client, settings, `${saidOnMirror} ${saidNatively} `);
    expect(heard.map((h) => [h.text, h.cached])).toEqual([
      [saidOnMirror, true],
      [saidNatively, false],
    ]);
    expect(heard[0].audio.equals(audioOf(mirrored.frames))).toBe(true);
    expect(await sim.callCount('vendor_c', { key: vendorKey })).toBe(calls + 1);

    const back = await sayOnStreamInput(key, voice, [`${saidNatively} `]);
    expect(audioOf(back.frames).equals(heard[1].audio)).toBe(true);
    expect(await sim.callCount('vendor_c', { key: vendorKey })).toBe(calls + 1);
  });

  it('plays multi-stream-input contexts side by side; a closed context ends with its isFinal', async () => {
    const { key } = await newOrg();
    const voice = await firstVoice(key);
    const id = randomUUID().slice(0, 8);
    const session = await connect(
      `/v1/text-to-speech/${voice}/multi-stream-input?model_id=c_model_1&output_format=mp3_44100_128`,
      { 'vendor_c-api-key': key },
    );
    session.send({ text: ' ', context_id: 'a', voice_settings: VOICE_SETTINGS });
    session.send({ text: ' ', context_id: 'b', voice_settings: VOICE_SETTINGS });
    session.send({ text: `First of a ${id}. Second of a ${id}. `, context_id: 'a', flush: true });
    session.send({ text: `Only one in b ${id}.`, context_id: 'b', flush: true });
    await session.until((frames) => frames.filter((f) => f['alignment']).length >= 3);
    session.send({ context_id: 'a', close_context: true });
    await session.until((frames) => frames.some((f) => f['isFinal'] === true));
    session.send({ close_socket: true });
    expect((await session.closed).code).toBe(1000);

    const finals = session.frames.filter((f) => f['isFinal'] === true);
    expect(finals.map((f) => f['contextId']).sort()).toEqual(['a', 'b']);
    for (const frame of session.frames) expect(frame['contextId']).toBe(frame['context_id']);
    // MP3: a context's first sentence starts with the vendor's ID3 tag, its later sentences carry none.
    const aAudio = session.frames.filter((f) => f['contextId'] === 'a' && typeof f['audio'] === 'string');
    const sentenceStarts = sentenceFirstChunks(session.frames, 'a');
    expect(sentenceStarts).toHaveLength(2);
    expect(sentenceStarts[0].subarray(0, 3).toString('latin1')).toBe('ID3');
    expect(sentenceStarts[1].subarray(0, 3).toString('latin1')).not.toBe('ID3');
    expect(aAudio.length).toBeGreaterThan(1);
  });
});

/**
 * What a widely used voice-agent framework's vendor_c plugin does on `multi-stream-input`: each reply in a
 * context of its own, opened with `voice_settings: {}` (the voice's stored settings), its text as it comes,
 * then an empty flush and `close_context` back to back; it waits for the audio and `isFinal`.
 */
describe('vendor_c mirror, multi-stream-input as a voice-agent framework plugin uses it (e2e)', () => {
  const QUERY = 'model_id=c_model_1&output_format=pcm_16000';

  /** One reply in the plugin's messages; once its context's `isFinal` has come, the socket is closed. */
  async function pluginReply(
    key: string,
    voice: string,
    texts: readonly string[],
    voiceSettings: Record<string, unknown> = {},
  ): Promise<{ frames: Frame[]; context: string }> {
    const session = await connect(`/v1/text-to-speech/${voice}/multi-stream-input?${QUERY}`, {
      'vendor_c-api-key': key,
    });
    const context = randomUUID();
    session.send({ text: ' ', voice_settings: voiceSettings, context_id: context });
    for (const text of texts) session.send({ text, context_id: context });
    session.send({ text: '', context_id: context, flush: true });
    const final = session.next((f) => f['isFinal'] === true && f['contextId'] === context);
    session.send({ context_id: context, close_context: true });
    await final;
    session.send({ close_socket: true });
    expect((await session.closed).code).toBe(1000);
    return { frames: session.frames, context };
  }

  /** The sentences a context's alignment frames spell, in order. */
  const spoken = (frames: readonly Frame[]) =>
    frames.filter((f) => f['alignment'] && f['audio'] === null).map((f) => f['alignment'].chars.join(''));

  it('speaks every sentence flushed before close_context, then isFinal, on a miss and again from the cache', async () => {
    const { key, vendorKey } = await newOrg();
    const voice = await firstVoice(key);
    const id = randomUUID().slice(0, 8);
    const sentences = [`The plugin opens a context ${id}.`, `It closes it at once ${id}.`];
    const texts = [`${sentences[0]} `, `${sentences[1]}`];
    const before = await sim.callCount('vendor_c', { key: vendorKey });

    const first = await pluginReply(key, voice, texts);
    expect(first.frames.filter((f) => f['error'])).toEqual([]);
    expect(spoken(first.frames)).toEqual(sentences);
    expect(first.frames.at(-1)).toEqual({
      isFinal: true,
      contextId: first.context,
      context_id: first.context,
    });
    const audio = audioOf(first.frames, first.context);
    expect(audio.length).toBeGreaterThan(0);
    expect(await sim.callCount('vendor_c', { key: vendorKey })).toBe(before + 2);
    // `{}` is the voice's stored settings: the router read them for the key.
    expect(await sim.readCount('vendor_c', { key: vendorKey, what: 'voice-settings' })).toBeGreaterThan(0);

    const again = await pluginReply(key, voice, texts);
    expect(spoken(again.frames)).toEqual(sentences);
    expect(again.frames.at(-1)).toEqual({
      isFinal: true,
      contextId: again.context,
      context_id: again.context,
    });
    expect(audioOf(again.frames, again.context).equals(audio)).toBe(true);
    expect(await sim.callCount('vendor_c', { key: vendorKey })).toBe(before + 2);
  });

  it('serves replies in turn on one socket, each in its own context read up to its isFinal: only its own frames, on a miss and from the cache', async () => {
    const { key, vendorKey } = await newOrg();
    const voice = await firstVoice(key);
    const id = randomUUID().slice(0, 8);
    const replies = [
      [`The first reply starts here ${id}.`, `Then the first reply ends ${id}.`],
      [`A second reply follows it ${id}.`, `It ends on the same socket ${id}.`],
    ];
    const before = await sim.callCount('vendor_c', { key: vendorKey });

    /**
     * The plugin's replies on the socket it keeps: a context per reply, opened, its text word by word, an empty
     * flush and `close_context` back to back, its frames read (by context) up to its `isFinal`; then the next.
     */
    const converse = async (): Promise<Array<{ context: string; frames: Frame[] }>> => {
      const session = await connect(`/v1/text-to-speech/${voice}/multi-stream-input?${QUERY}`, {
        'vendor_c-api-key': key,
      });
      const read: Array<{ context: string; frames: Frame[] }> = [];
      for (const texts of replies) {
        const context = randomUUID();
        const from = session.frames.length;
        session.send({ text: ' ', voice_settings: {}, context_id: context });
        for (const word of texts.join(' ').split(' '))
          session.send({ text: `${word} `, context_id: context });
        session.send({ text: '', context_id: context, flush: true });
        session.send({ context_id: context, close_context: true });
        await session.next((f) => f['isFinal'] === true && f['contextId'] === context);
        read.push({ context, frames: session.frames.slice(from) });
      }
      session.send({ close_socket: true });
      expect((await session.closed).code).toBe(1000);
      // Each reply's frames are its context's alone, ending with its isFinal; nothing came after the last.
      expect(session.frames).toEqual(read.flatMap((r) => r.frames));
      for (const { context, frames } of read) {
        expect(frames.every((f) => f['contextId'] === context)).toBe(true);
        expect(frames.filter((f) => f['isFinal'] === true)).toEqual([frames.at(-1)]);
      }
      return read;
    };

    const first = await converse();
    first.forEach(({ frames }, i) => expect(spoken(frames)).toEqual(replies[i]));
    expect(await sim.callCount('vendor_c', { key: vendorKey })).toBe(before + 4);

    const again = await converse();
    again.forEach(({ frames, context }, i) => {
      expect(spoken(frames)).toEqual(replies[i]);
      const was = first[i];
      expect(audioOf(frames, context).equals(audioOf(was?.frames ?? [], was?.context))).toBe(true);
    });
    expect(await sim.callCount('vendor_c', { key: vendorKey })).toBe(before + 4);
  });

  it('keys partial voice settings apart from each other and from {}, and follows a change of the stored ones', async () => {
    const { key, vendorKey } = await newOrg();
    const voice = await firstVoice(key);
    const text = `Partial settings decide this one ${randomUUID().slice(0, 8)}.`;
    const calls = () => sim.callCount('vendor_c', { key: vendorKey });
    const before = await calls();

    const stored = await pluginReply(key, voice, [text], {});
    const slower = await pluginReply(key, voice, [text], { speed: 0.8 });
    const slowerAgain = await pluginReply(key, voice, [text], { speed: 0.8 });
    expect(await calls()).toBe(before + 2);
    expect(spoken(slower.frames)).toEqual([text]);
    // The vendor took the speed given and the rest from the stored settings: a longer take than theirs.
    expect(audioOf(slower.frames).length).toBeGreaterThan(audioOf(stored.frames).length);
    expect(audioOf(slowerAgain.frames).equals(audioOf(slower.frames))).toBe(true);

    await sim.setVendorCVoiceSettings(vendorKey, voice, { stability: 0.2 });
    await new Promise((resolve) =>
      setTimeout(resolve, Number(stack.env['STORED_SETTINGS_REFRESH_MS']) + 300),
    );
    const afterChange = await pluginReply(key, voice, [text], { speed: 0.8 });
    expect(spoken(afterChange.frames)).toEqual([text]);
    expect(await calls()).toBe(before + 3);
  });

  it('keeps a context whose settings were refused refused: each later message of it gets the error', async () => {
    const { key, vendorKey } = await newOrg();
    const voice = await firstVoice(key);
    const id = randomUUID().slice(0, 8);
    const before = await sim.callCount('vendor_c', { key: vendorKey });
    const session = await connect(`/v1/text-to-speech/${voice}/multi-stream-input?${QUERY}`, {
      'vendor_c-api-key': key,
    });
    session.send({ text: ' ', context_id: 'refused', voice_settings: { stability: 7 } });
    session.send({ text: `Never said ${id}. `, context_id: 'refused', flush: true });
    session.send({ context_id: 'refused', flush: true });
    session.send({ text: ' ', context_id: 'other', voice_settings: VOICE_SETTINGS });
    session.send({ text: `Said in the other context ${id}.`, context_id: 'other', flush: true });
    session.send({ close_socket: true });
    expect((await session.closed).code).toBe(1000);

    const refused = session.frames.filter((f) => f['context_id'] === 'refused');
    expect(refused).toHaveLength(3);
    for (const frame of refused) {
      expect(frame).toEqual({
        message: expect.stringContaining('stability'),
        error: 'invalid_request',
        code: 1008,
        context_id: 'refused',
      });
    }
    expect(spoken(session.frames)).toEqual([`Said in the other context ${id}.`]);
    expect(await sim.callCount('vendor_c', { key: vendorKey })).toBe(before + 1);
  });
});

/** The first audio bytes of each sentence of a context (a sentence ends with its alignment frame). */
function sentenceFirstChunks(frames: readonly Frame[], context: string): Buffer[] {
  const firsts: Buffer[] = [];
  let starting = true;
  for (const frame of frames.filter((f) => f['contextId'] === context)) {
    if (typeof frame['audio'] === 'string') {
      if (starting) firsts.push(Buffer.from(frame['audio'], 'base64'));
      starting = false;
    } else if (frame['alignment']) {
      starting = true;
    }
  }
  return firsts;
}
