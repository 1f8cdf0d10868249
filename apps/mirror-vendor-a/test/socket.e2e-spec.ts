import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StreamSettings } from '@router/client';
import { type JsonFrame, mirrorE2e, repliesInTurn, sayOnStream, wordsOf } from '@router/testing';
import { parseVendorASettings } from '@router/vendor-a';
import { createTake, readTakeId } from '@router/vendor-sim';

const kit = mirrorE2e('vendor_a');
const { stack, sim, newOrg, unique, calls, expectRepliesInTurn, keylessOrg, disableOrg, setCredit } = kit;
const WS = '/text-to-speech/ws';
const WS_V2 = '/text-to-speech/ws/v2';
const REQUEST_ID = /^\d{8}_[0-9a-f]{12}$/;

/** A socket as the vendor's clients open it: the key in `api-subscription-key` at the upgrade. */
const connect = (key: string, path = WS, query: Record<string, string> = {}) =>
  kit.connect(path, key, {
    query: { model: path === WS ? 'a_model_1' : 'a_model_2', send_completion_event: 'true', ...query },
  });

const isAudio = (f: JsonFrame): boolean => f['type'] === 'audio';
const isFinal = (f: JsonFrame): boolean => f['type'] === 'event' && f['data']['event_type'] === 'final';
const isError = (f: JsonFrame): boolean => f['type'] === 'error';
const finals = (frames: readonly JsonFrame[]): number => frames.filter(isFinal).length;

/** Each sentence's audio: the audio frames grouped by their request id, in order. */
function sentencesOf(
  frames: readonly JsonFrame[],
): Array<{ requestId: string; type: string; audio: Buffer }> {
  const sentences: Array<{ requestId: string; type: string; audio: Buffer }> = [];
  for (const frame of frames.filter(isAudio)) {
    const { request_id: requestId, audio, content_type: type } = frame['data'];
    const chunk = Buffer.from(audio as string, 'base64');
    const last = sentences.at(-1);
    if (last !== undefined && last.requestId === requestId) last.audio = Buffer.concat([last.audio, chunk]);
    else sentences.push({ requestId, type, audio: chunk });
  }
  return sentences;
}

/** Whether `audio` is the simulator's take of `text` with a config's settings (its id read from the audio). */
function isTakeOf(
  audio: Buffer,
  text: string,
  config: Record<string, unknown>,
  model = 'a_model_1',
): boolean {
  const parsed = parseVendorASettings(config, 'ws', model);
  if (!parsed.ok) throw new Error(parsed.problem.message);
  const { spec, pace } = parsed.settings;
  const takeId = readTakeId(audio, spec.codec) ?? undefined;
  return audio.equals(createTake(text, spec, { takeId, speed: pace }).bytes);
}

const HINDI = { target_language_code: 'hi-IN', speaker: 'aarila' };

/**
 * A vendor_a client's socket sessions, written from the vendor's notes (../shared/vendors/vendor_a.md), through
 * the gateway with only the base URL and the key changed: `config`, `text`, `flush`, `ping`; each sentence's
 * audio as `audio` frames (spoken once it ends), a `final` after each flush; said again, served from the cache
 * with no vendor call and the same audio (the replay differences: request ids are the router's own).
 */
describe('vendor_a mirror, WebSocket (e2e)', () => {
  it('speaks a sentence once it ends, a final after each flush; said again, all from the cache', async () => {
    const { key, vendorKey } = await newOrg();
    const texts = [unique('Namaste, the first sentence is here'), unique('And the second follows')];
    const before = await calls(vendorKey);

    const socket = await connect(key);
    socket.send({ type: 'config', data: HINDI });
    socket.send({ type: 'text', data: { text: `${texts[0]} And the` } });
    // The first sentence ended: it is spoken without a flush.
    await socket.next(isAudio);
    expect(finals(socket.frames)).toBe(0);
    socket.send({ type: 'text', data: { text: texts[1]?.slice('And the'.length) } });
    socket.send({ type: 'flush' });
    await socket.next(isFinal);
    // A second flush with no new text is answered with its own final, and no error.
    socket.send({ type: 'flush' });
    await socket.until((frames) => finals(frames) === 2);
    socket.close();
    const first = sentencesOf(socket.frames);
    expect(first.map((s) => [s.type, REQUEST_ID.test(s.requestId)])).toEqual([
      ['audio/mpeg', true],
      ['audio/mpeg', true],
    ]);
    expect(first.every((s, i) => isTakeOf(s.audio, texts[i] ?? '', HINDI))).toBe(true);
    expect(socket.frames.some(isError)).toBe(false);
    expect(socket.frames.at(-1)).toEqual({ type: 'event', data: { event_type: 'final' } });
    expect(await calls(vendorKey)).toBe(before + 2);

    const again = await connect(key);
    again.send({ type: 'config', data: { ...HINDI, speech_sample_rate: '24000', model: 'a_model_1' } });
    again.send({ type: 'text', data: { text: texts.join(' ') } });
    again.send({ type: 'ping' });
    again.send({ type: 'flush' });
    await again.next(isFinal);
    again.close();
    const replayed = sentencesOf(again.frames);
    expect(replayed.map((s) => s.audio)).toEqual(first.map((s) => s.audio));
    expect(replayed.map((s) => s.requestId)).not.toEqual(first.map((s) => s.requestId));
    expect(await calls(vendorKey)).toBe(before + 2);
  });

  it("serves replies in turn on one socket as the vendor's clients send them, each read up to its final: only its own audio, on a miss and from the cache", async () => {
    /**
     * The replies as the vendor's clients send them on one pooled socket: `config`, the text word by word, one
     * `flush`, then every frame up to that flush's `final`; the next reply reuses the socket.
     */
    const converse = async (key: string, replies: string[][]): Promise<JsonFrame[][]> => {
      const socket = await connect(key);
      const read = await repliesInTurn(socket, replies, (texts) => {
        socket.send({ type: 'config', data: HINDI });
        for (const text of wordsOf(texts)) socket.send({ type: 'text', data: { text } });
        socket.send({ type: 'flush' });
        return isFinal;
      });
      // A flush with nothing held gets a final of its own: by then anything left of the replies would have come.
      socket.send({ type: 'flush' });
      await socket.until((frames) => finals(frames) === replies.length + 1);
      socket.close();
      expect(socket.frames).toEqual([...read.flat(), { type: 'event', data: { event_type: 'final' } }]);
      return read;
    };

    await expectRepliesInTurn(converse, {
      miss: (first, { replies }) =>
        first.forEach((reply, i) => {
          expect(reply.filter(isFinal)).toEqual([reply.at(-1)]);
          const sentences = sentencesOf(reply);
          expect(sentences.map((s, j) => isTakeOf(s.audio, replies[i]?.[j] ?? '', HINDI))).toEqual([
            true,
            true,
          ]);
        }),
      hit: (reply, first) => {
        expect(reply.filter(isFinal)).toEqual([reply.at(-1)]);
        expect(sentencesOf(reply).map((s) => s.audio)).toEqual(sentencesOf(first ?? []).map((s) => s.audio));
      },
    });
  });

  it('closes normally on a flush followed at once by a close, and stores no part of a take it cut', async () => {
    const { key } = await newOrg();
    const text = unique('Flushed and closed at once');
    const socket = await connect(key);
    socket.send({ type: 'config', data: HINDI });
    socket.send({ type: 'text', data: { text } });
    socket.send({ type: 'flush' });
    socket.close();
    expect(await socket.closed).toMatchObject({ code: 1000, by: 'client' });
    expect(socket.frames.some(isError)).toBe(false);

    // Said again, the sentence is whole: from the take that went on after the close, or a new one.
    const again = await connect(key);
    again.send({ type: 'config', data: HINDI });
    again.send({ type: 'text', data: { text } });
    again.send({ type: 'flush' });
    await again.next(isFinal);
    again.close();
    const [sentence, ...rest] = sentencesOf(again.frames);
    expect(rest).toEqual([]);
    expect(isTakeOf(sentence?.audio ?? Buffer.alloc(0), text, HINDI)).toBe(true);
  });

  it.each(['True', '1'])(
    'reads send_completion_event=%s as the vendor does: a final after the flushed audio',
    async (flag) => {
      const { key } = await newOrg();
      const texts = [unique(`Completion asked as ${flag}`), unique('The flush ends this one')];
      const socket = await connect(key, WS, { send_completion_event: flag });
      socket.send({ type: 'config', data: HINDI });
      socket.send({ type: 'text', data: { text: `${texts[0]} ` } });
      socket.send({ type: 'text', data: { text: texts[1] } });
      socket.send({ type: 'flush' });
      await socket.next(isFinal);
      socket.close();
      // Both sentences' audio, whole, then the one final.
      const sentences = sentencesOf(socket.frames);
      expect(sentences.map((s, i) => isTakeOf(s.audio, texts[i] ?? '', HINDI))).toEqual([true, true]);
      expect(finals(socket.frames)).toBe(1);
      expect(socket.frames.at(-1)).toEqual({ type: 'event', data: { event_type: 'final' } });
    },
  );

  it.each([
    { codec: 'wav', type: 'audio/wav' },
    { codec: 'flac', type: 'audio/flac' },
    { codec: 'opus', type: 'audio/ogg' },
    { codec: 'linear16', type: 'audio/pcm' },
  ])('speaks $codec on /ws/v2 message for message as the vendor sends it', async ({ codec, type }) => {
    const { key, vendorKey } = await newOrg();
    // a_model_2's default rate (22050 Hz) is no opus rate.
    const config = {
      target_language_code: 'en-IN',
      speaker: 'vanshira',
      output_audio_codec: codec,
      speech_sample_rate: 24000,
    };
    const text = unique(`Spoken in ${codec}`);
    const socket = await connect(key, WS_V2);
    socket.send({ type: 'config', data: config });
    socket.send({ type: 'text', data: { text } });
    socket.send({ type: 'flush' });
    await socket.next(isFinal);
    socket.close();
    const [sentence, ...rest] = sentencesOf(socket.frames);
    expect(rest).toEqual([]);
    expect(sentence?.type).toBe(type);
    expect(isTakeOf(sentence?.audio ?? Buffer.alloc(0), text, config, 'a_model_2')).toBe(true);
    expect(await sim.callCount('vendor_a', { key: vendorKey, endpoint: 'stream' })).toBe(1);
  });

  it('keeps each config for the sentences after it, in order, and skips runs with no letter or digit', async () => {
    const { key, vendorKey } = await newOrg();
    const hindi = { ...HINDI, output_audio_codec: 'wav', speech_sample_rate: 16000 };
    const english = {
      target_language_code: 'en-IN',
      speaker: 'aarila',
      output_audio_codec: 'linear16',
      speech_sample_rate: 8000,
    };
    const texts = [
      unique('First in Hindi settings'),
      unique('Then in English settings'),
      unique('Hindi once more'),
    ];
    const socket = await connect(key);
    socket.send({ type: 'config', data: hindi });
    socket.send({ type: 'text', data: { text: `${texts[0]} ... ` } });
    socket.send({ type: 'config', data: english });
    socket.send({ type: 'text', data: { text: texts[1] } });
    socket.send({ type: 'config', data: hindi });
    socket.send({ type: 'text', data: { text: `${texts[2]} !!` } });
    socket.send({ type: 'flush' });
    await socket.next(isFinal);
    socket.close();
    const sentences = sentencesOf(socket.frames);
    expect(sentences.map((s) => s.type)).toEqual(['audio/wav', 'audio/pcm', 'audio/wav']);
    expect(isTakeOf(sentences[0]?.audio ?? Buffer.alloc(0), texts[0] ?? '', hindi)).toBe(true);
    expect(isTakeOf(sentences[1]?.audio ?? Buffer.alloc(0), texts[1] ?? '', english)).toBe(true);
    expect(isTakeOf(sentences[2]?.audio ?? Buffer.alloc(0), texts[2] ?? '', hindi)).toBe(true);
    expect(socket.frames.some(isError)).toBe(false);
    expect(await calls(vendorKey)).toBe(3);
  });

  it('answers a config the vendor refuses and text before any config with its error, and stays open', async () => {
    const { key, vendorKey } = await newOrg();
    const socket = await connect(key);
    socket.send({ type: 'text', data: { text: 'Too early.' } });
    expect(await socket.next(() => true)).toEqual({
      type: 'error',
      data: { message: 'Send a config message before text', code: 'invalid_request_error' },
    });
    socket.send({ type: 'config', data: { target_language_code: 'hi-IN', speaker: 'Nobody' } });
    expect(await socket.next(() => true)).toEqual({
      type: 'error',
      data: {
        message: "Speaker 'Nobody' is not compatible with model a_model_1",
        code: 'invalid_request_error',
      },
    });
    socket.send({ type: 'config', data: { speaker: 'aarila' } });
    expect(await socket.next(() => true)).toEqual({
      type: 'error',
      data: { message: 'target_language_code: Field required', code: 'unprocessable_entity_error' },
    });
    socket.send({ type: 'sing' });
    expect(await socket.next(() => true)).toEqual({
      type: 'error',
      data: { message: 'Unknown message type sing', code: 'invalid_request_error' },
    });
    socket.send('not json');
    expect(await socket.next(() => true)).toEqual({
      type: 'error',
      data: { message: 'Messages must be JSON', code: 'invalid_request_error' },
    });
    socket.send({ type: 'config', data: HINDI });
    socket.send({ type: 'text', data: { text: unique('Now it speaks') } });
    socket.send({ type: 'flush' });
    await socket.next(isFinal);
    socket.close();
    expect(sentencesOf(socket.frames)).toHaveLength(1);
    expect(await calls(vendorKey)).toBe(1);
  });

  it("passes an unknown dict_id's error, its audio and the final on; said again it is a new take", async () => {
    const { key, vendorKey } = await newOrg();
    const config = { ...HINDI, dict_id: 'unknown-dict' };
    const text = unique('Spoken without the dictionary');
    const say = async () => {
      const socket = await connect(key);
      socket.send({ type: 'config', data: config });
      socket.send({ type: 'text', data: { text } });
      socket.send({ type: 'flush' });
      await socket.next(isFinal);
      socket.close();
      return socket.frames;
    };
    const before = await calls(vendorKey);
    const first = await say();
    const second = await say();
    for (const frames of [first, second]) {
      expect(frames.map((f) => f['type']).filter((t, i, all) => t !== all[i - 1])).toEqual([
        'audio',
        'error',
        'event',
      ]);
      const [sentence] = sentencesOf(frames);
      expect(frames.find(isError)).toEqual({
        type: 'error',
        data: {
          message: 'Pronunciation dictionary not found',
          code: 'not_found_error',
          request_id: sentence?.requestId,
        },
      });
      expect(isTakeOf(sentence?.audio ?? Buffer.alloc(0), text, config)).toBe(true);
    }
    expect(sentencesOf(second)[0]?.audio.equals(sentencesOf(first)[0]?.audio ?? Buffer.alloc(0))).toBe(false);
    expect(await calls(vendorKey)).toBe(before + 2);
  });

  it('passes a vendor failure mid-stream on as an error, and speaks the sentences after it', async () => {
    const { key, vendorKey } = await newOrg();
    const texts = [unique('This one fails at the vendor'), unique('This one is spoken')];
    const fault = await sim.injectFault({
      vendor: 'vendor_a',
      kind: 'error',
      key: vendorKey,
      status: 503,
      message: 'busy',
    });
    const socket = await connect(key);
    socket.send({ type: 'config', data: HINDI });
    socket.send({ type: 'text', data: { text: texts[0] } });
    socket.send({ type: 'flush' });
    await socket.next(isFinal);
    await sim.removeFault(fault.id);
    socket.send({ type: 'text', data: { text: texts[1] } });
    socket.send({ type: 'flush' });
    await socket.until((frames) => finals(frames) === 2);
    socket.close();
    expect(socket.frames.map((f) => f['type']).filter((t, i, all) => t !== all[i - 1])).toEqual([
      'error',
      'event',
      'audio',
      'event',
    ]);
    expect(socket.frames.find(isError)).toEqual({
      type: 'error',
      data: {
        message: expect.stringContaining('busy'),
        code: 'rate_limit_exceeded_error',
        request_id: expect.stringMatching(REQUEST_ID),
      },
    });
    const sentences = sentencesOf(socket.frames);
    expect(sentences).toHaveLength(1);
    expect(isTakeOf(sentences[0]?.audio ?? Buffer.alloc(0), texts[1] ?? '', HINDI)).toBe(true);
  });

  it("closes a socket its client left quiet with the vendor's idle error and 1008 (the stack's idle cap)", async () => {
    const { key } = await newOrg();
    const socket = await connect(key);
    socket.send({ type: 'config', data: HINDI });
    const end = await socket.closed;
    expect([end.code, end.reason, end.by]).toEqual([1008, 'idle timeout', 'server']);
    expect(socket.frames).toEqual([
      {
        type: 'error',
        data: { message: expect.stringMatching(/without messages/), code: 'idle_timeout_error' },
      },
    ]);
  });

  it('keeps a socket its client pings open past the idle cap, and closes it once the pings stop', async () => {
    const { key } = await newOrg();
    const socket = await connect(key);
    let closed = false;
    void socket.closed.then(() => (closed = true));
    socket.send({ type: 'config', data: HINDI });
    // The stack caps idle at 10 s: five pings 3 s apart keep the socket open for 15 s.
    for (let ping = 0; ping < 5; ping += 1) {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      expect(closed).toBe(false);
      socket.send({ type: 'ping' });
    }
    const end = await socket.closed;
    expect([end.code, end.by]).toEqual([1008, 'server']);
    expect(socket.frames.map((f) => f['data']['code'])).toEqual(['idle_timeout_error']);
  }, 40_000);

  it("refuses a socket without its model, or with the other socket's, with an error and 1008", async () => {
    const { key } = await newOrg();
    const missing = await kit.connect(WS, key);
    expect((await missing.closed).code).toBe(1008);
    expect(missing.frames).toEqual([
      {
        type: 'error',
        data: { message: 'model query parameter is required', code: 'invalid_request_error' },
      },
    ]);
    const other = await connect(key, WS, { model: 'a_model_2' });
    expect((await other.closed).code).toBe(1008);
    expect(other.frames).toEqual([
      {
        type: 'error',
        data: {
          message: 'model a_model_2 is not served on this socket; use /text-to-speech/ws/v2',
          code: 'invalid_request_error',
        },
      },
    ]);
  });

  it('takes the key offered only as the api-subscription-key.<key> subprotocol and echoes it; the key is in no log line', async () => {
    const { key, vendorKey } = await newOrg();
    const protocol = `api-subscription-key.${key}`;
    const query = { model: 'a_model_1', send_completion_event: 'true' };
    const socket = await kit.connect(WS, null, { query, protocols: [protocol] });
    expect(socket.protocol).toBe(protocol);
    socket.send({ type: 'config', data: HINDI });
    socket.send({ type: 'text', data: { text: unique('Keyed by subprotocol') } });
    socket.send({ type: 'flush' });
    await socket.next(isFinal);
    socket.close();
    expect(sentencesOf(socket.frames)).toHaveLength(1);
    expect(await calls(vendorKey)).toBe(1);
    const logged = readdirSync(stack.logDir).filter((file) =>
      readFileSync(join(stack.logDir, file), 'utf8').includes(key),
    );
    expect(logged).toEqual([]);
  });

  it("takes the subprotocol key over wss:// on the gateway's own TLS, echoes it, and shares the cache with ws://", async () => {
    const { key, vendorKey } = await newOrg();
    const protocol = `api-subscription-key.${key}`;
    const query = { model: 'a_model_1', send_completion_event: 'true' };
    const text = unique('Over TLS by subprotocol');
    expect(stack.gatewayTlsUrl.startsWith('https://')).toBe(true);
    const secure = await kit.connect(WS, null, { query, protocols: [protocol], tls: true });
    expect(secure.protocol).toBe(protocol);
    secure.send({ type: 'config', data: HINDI });
    secure.send({ type: 'text', data: { text } });
    secure.send({ type: 'flush' });
    await secure.next(isFinal);
    secure.close();
    const [spoken] = sentencesOf(secure.frames);
    expect(isTakeOf(spoken?.audio ?? Buffer.alloc(0), text, HINDI)).toBe(true);

    const clear = await connect(key);
    clear.send({ type: 'config', data: HINDI });
    clear.send({ type: 'text', data: { text } });
    clear.send({ type: 'flush' });
    await clear.next(isFinal);
    clear.close();
    expect(sentencesOf(clear.frames)[0]?.audio.equals(spoken?.audio ?? Buffer.alloc(0))).toBe(true);
    expect(await calls(vendorKey)).toBe(1);
  });

  it('shares sentences with /v1/stream for equal settings', async () => {
    const { key, vendorKey, client } = await newOrg();
    const settings: StreamSettings = {
      model: 'vendor_a/a_model_1',
      voice: 'aarila',
      language: 'hi-IN',
      response_format: 'wav',
      sample_rate: 16000,
    };
    const saidOnMirror = unique('Said on the mirror first');
    const mirrored = await connect(key);
    mirrored.send({
      type: 'config',
      data: { ...HINDI, output_audio_codec: 'wav', speech_sample_rate: 16000 },
    });
    mirrored.send({ type: 'text', data: { text: saidOnMirror } });
    mirrored.send({ type: 'flush' });
    await mirrored.next(isFinal);
    mirrored.close();
    const before = await calls(vendorKey);

    const heard = await sayOnStream(client, settings, `${saidOnMirror} `);
    expect(heard.map((h) => [h.text, h.cached])).toEqual([[saidOnMirror, true]]);
    expect(heard[0]?.audio.equals(sentencesOf(mirrored.frames)[0]?.audio ?? Buffer.alloc(0))).toBe(true);
    expect(await calls(vendorKey)).toBe(before);
  });

  it("refuses a missing, wrong or vendor-keyless key and a disabled org at the handshake with the vendor's 403, out of credit with 402", async () => {
    const refusal = (headers: Record<string, string>, protocols: string[] = []) =>
      kit.refusal(WS, null, { query: { model: 'a_model_1' }, headers, protocols });
    const keyed = (key: string) => ({ 'api-subscription-key': key });
    const forbidden = (message: string) => ({
      status: 403,
      body: { error: { message, code: 'invalid_api_key_error', request_id: null } },
    });
    expect(await refusal({})).toEqual(
      forbidden('No API key was sent. Send your router API key (rtr_...) where this API expects its key.'),
    );
    const unknown = forbidden('Invalid API key. The router API key is unknown or has been revoked.');
    expect(await refusal(keyed('rtr_not-a-key'))).toEqual(unknown);
    expect(await refusal({}, ['api-subscription-key.rtr_not-a-key'])).toEqual(unknown);
    expect(await refusal(keyed(keylessOrg().key))).toEqual({
      status: 403,
      body: {
        error: {
          message: expect.stringContaining('No vendor_a key is stored'),
          code: 'invalid_api_key_error',
          request_id: null,
        },
      },
    });

    const disabled = await newOrg();
    await disableOrg(disabled.orgId, async () => (await refusal(keyed(disabled.key))).status === 403);
    expect(await refusal(keyed(disabled.key))).toEqual(
      forbidden('Invalid API key. The organisation of this router API key is disabled.'),
    );

    const broke = await newOrg();
    await setCredit(broke.orgId, 'out', async () => (await refusal(keyed(broke.key))).status === 402);
    expect(await refusal(keyed(broke.key))).toEqual({
      status: 402,
      body: {
        error: {
          message: 'The organisation is out of credit; new requests are refused until credit is added.',
          code: 'insufficient_credits',
          request_id: null,
        },
      },
    });
  });
});
