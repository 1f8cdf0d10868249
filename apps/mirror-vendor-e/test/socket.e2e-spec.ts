import { randomUUID } from 'node:crypto';
import {
  eventually,
  type JsonFrame,
  mirrorE2e,
  type ReceivedFrame,
  type RepliesMiss,
  repliesInTurn,
  STALLS,
  type TestSocket,
  wordsOf,
} from '@router/testing';
import { type AudioSpec, createTake } from '@router/vendor-sim';

const kit = mirrorE2e('vendor_e');
const { sim, newOrg, unique, calls, expectRepliesInTurn, keylessOrg, setCredit } = kit;
const V1_MODEL = 'e_model_1-orla-en';
const V2_MODEL = 'e_model_3-orla-en';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The sockets' default audio: raw linear16 at 24000 Hz, 48 bytes a millisecond. */
const PCM: AudioSpec = { codec: 'pcm', sampleRate: 24000 };
const BYTES_PER_MS = 48;

const chars = (text: string): number => [...text].length;
const typed =
  (type: string, fields: Record<string, unknown> = {}) =>
  (f: JsonFrame): boolean =>
    f['type'] === type && Object.entries(fields).every(([k, v]) => f[k] === v);

/** A vendor_e socket through the gateway, keyed as its clients key it: `Authorization: Token`. */
const connect = (path: string, key: string, query: Record<string, string>) =>
  kit.connect(path, key, { query });
const connectV1 = (key: string, query: Record<string, string> = {}) => connect('/v1/speak', key, query);
/** `/v2/speak` requires a model. */
const connectV2 = (key: string, query: Record<string, string> = {}) =>
  connect('/v2/speak', key, { model: V2_MODEL, ...query });

/** The binary audio received, in order. */
const audioOf = (socket: TestSocket): Buffer => Buffer.concat(socket.binaries);

/**
 * The simulator's takes of `texts` (each its latest call of that length; a text with its speed where it is not
 * 1), as the vendor encodes them.
 */
async function takesOf(
  vendorKey: string,
  texts: ReadonlyArray<string | readonly [string, number]>,
  spec: AudioSpec = PCM,
): Promise<Buffer> {
  const made = await sim.calls('vendor_e', { key: vendorKey });
  return Buffer.concat(
    texts.map((said) => {
      const [text, speed] = typeof said === 'string' ? [said, 1] : said;
      const call = made.filter((c) => c.chars === chars(text)).at(-1);
      return createTake(text, spec, { takeId: call?.takeId, speed }).bytes;
    }),
  );
}

/** A sentence the vendor refuses, said on `socket`: an `Error` with the vendor's words, then the close with 1011. */
async function expectVendorFailure(socket: TestSocket, vendorKey: string): Promise<void> {
  const id = randomUUID().slice(0, 8);
  const fault = await kit.injectFault(vendorKey, {
    kind: 'error',
    status: 400,
    message: 'engine refused',
    textIncludes: id,
    times: 'always',
  });
  socket.send({ type: 'Speak', text: `Refused by the vendor ${id}.` });
  socket.send({ type: 'Flush' });
  const end = await socket.closed;
  await sim.removeFault(fault.id).catch(() => undefined);
  expect(end).toMatchObject({ code: 1011, by: 'server' });
  expect(socket.frames.at(-1)).toEqual({
    type: 'Error',
    code: 'NET-0000',
    description: expect.stringContaining('engine refused'),
  });
}

/** The frames in order, audio written `audio` (runs of binary frames as one). */
function flow(socket: TestSocket): string[] {
  const kinds: string[] = [];
  for (const frame of socket.received) {
    const kind = frame.binary ? 'audio' : String((JSON.parse(frame.text) as JsonFrame)['type']);
    if (kind !== 'audio' || kinds.at(-1) !== 'audio') kinds.push(kind);
  }
  return kinds;
}

/** A frame's kind: `audio` for a binary frame, else its `type`. */
const kindOf = (frame: ReceivedFrame): string =>
  frame.binary ? 'audio' : String((JSON.parse(frame.text) as JsonFrame)['type']);

/** The audio of binary frames, in order. */
const audioIn = (frames: readonly ReceivedFrame[]): Buffer =>
  Buffer.concat(frames.flatMap((f) => (f.binary ? [f.data] : [])));

/** Replies in turn on either socket: each reply's audio the vendor's takes; said again, the same audio. */
const repliesHeard = {
  async miss(first: ReceivedFrame[][], { replies, vendorKey }: RepliesMiss): Promise<void> {
    for (const [i, reply] of first.entries()) {
      expect(audioIn(reply).equals(await takesOf(vendorKey, replies[i] ?? []))).toBe(true);
    }
  },
  hit: (reply: ReceivedFrame[], first: ReceivedFrame[] | undefined): void =>
    expect(audioIn(reply).equals(audioIn(first ?? []))).toBe(true),
};

/**
 * Replies in turn on one socket as the voice-agent plugin sends them: the text word by word (`Speak`, each word
 * with a space), one `Flush`, then every frame up to the one that ends the reply (`Flushed` on v1,
 * `SpeechMetadata` on v2); the next reply reuses the socket. Each reply's frames, in order.
 */
function replyInTurn(
  socket: TestSocket,
  replies: ReadonlyArray<readonly string[]>,
  ends: string,
): Promise<ReceivedFrame[][]> {
  const say = (texts: readonly string[]) => {
    for (const text of wordsOf(texts)) socket.send({ type: 'Speak', text });
    socket.send({ type: 'Flush' });
    return typed(ends);
  };
  return repliesInTurn(socket, replies, say, 'received');
}

/** How long the simulator's take of `text` plays at 24000 Hz, in ms (its length does not depend on the take). */
const playsMs = (text: string): number => createTake(text, PCM).bytes.length / BYTES_PER_MS;

/** One turn said on `socket`: its text, a Flush, and its frames up to its SpeechMetadata. */
async function turn(socket: TestSocket, text: string): Promise<JsonFrame> {
  const seen = socket.frames.filter(typed('SpeechMetadata')).length;
  socket.send({ type: 'Speak', text });
  socket.send({ type: 'Flush' });
  await socket.until((frames) => frames.filter(typed('SpeechMetadata')).length > seen);
  return socket.frames.filter(typed('SpeechMetadata')).at(-1) ?? {};
}

/**
 * A vendor_e client's `/v1/speak` sessions, written from the vendor's notes (../shared/vendors/vendor_e.md) and
 * the spec's differences, through the gateway with only the base URL and the key changed: the opening `Metadata`
 * with the router's ids, binary audio then `Flushed` per flush, `Cleared` per clear, with one rising
 * `sequence_id`; said again, served from the cache with no vendor call, and shared with /v1/stream.
 */
describe('vendor_e mirror, WebSocket /v1/speak (e2e)', () => {
  it("opens with the router's Metadata, speaks each flush's sentences as binary audio then Flushed; said again, all from the cache", async () => {
    const { key, vendorKey } = await newOrg();
    const texts = [unique('Hello there, this is the first sentence'), unique('And here is the second one')];
    const before = await calls(vendorKey);

    const say = async (): Promise<TestSocket> => {
      const socket = await connectV1(key, { model: V1_MODEL, encoding: 'linear16', sample_rate: '24000' });
      socket.send({ type: 'Speak', text: `${texts[0]} ${texts[1]?.slice(0, 8)}` });
      socket.send({ type: 'Speak', text: texts[1]?.slice(8) });
      socket.send({ type: 'Flush' });
      await socket.next(typed('Flushed'));
      socket.send({ type: 'Flush' });
      await socket.next(typed('Flushed', { sequence_id: 1 }));
      socket.send({ type: 'Close' });
      expect(await socket.closed).toMatchObject({ code: 1000, by: 'server' });
      return socket;
    };
    const first = await say();
    expect(first.frames).toEqual([
      {
        type: 'Metadata',
        request_id: expect.stringMatching(UUID),
        model_name: V1_MODEL,
        model_version: 'unknown',
        model_uuid: expect.stringMatching(UUID),
      },
      { type: 'Flushed', sequence_id: 0 },
      { type: 'Flushed', sequence_id: 1 },
    ]);
    // Every binary frame comes before the first Flushed.
    expect(first.received.findIndex((f) => !f.binary && f.text.includes('Flushed'))).toBe(
      first.received.length - 2,
    );
    expect(audioOf(first).equals(await takesOf(vendorKey, texts))).toBe(true);
    expect(await calls(vendorKey)).toBe(before + 2);

    const again = await say();
    expect(audioOf(again).equals(audioOf(first))).toBe(true);
    expect(again.frames[0]?.['request_id']).not.toBe(first.frames[0]?.['request_id']);
    expect(await calls(vendorKey)).toBe(before + 2);
  });

  it("serves replies in turn on one socket as the vendor's clients send them, each read up to its Flushed, then a Flush and a Close at once end it", async () => {
    const converse = async (key: string, replies: string[][]): Promise<ReceivedFrame[][]> => {
      const socket = await connectV1(key, { model: V1_MODEL });
      await socket.until((frames) => frames.some(typed('Metadata')));
      const read = await replyInTurn(socket, replies, 'Flushed');
      // The plugin's close of a pooled socket: a Flush and a Close at once, then the server's normal close.
      const after = socket.received.length;
      socket.send({ type: 'Flush' });
      socket.send({ type: 'Close' });
      expect(await socket.closed).toMatchObject({ code: 1000, by: 'server' });
      // Nothing of either reply came after its Flushed: only the last Flush's own.
      expect(socket.received.slice(after).map(kindOf)).toEqual(['Flushed']);
      read.forEach((reply, i) => {
        expect(reply.map(kindOf).filter((k) => k !== 'audio')).toEqual(['Flushed']);
        const last = reply.at(-1);
        expect(last?.binary === false ? JSON.parse(last.text) : last).toEqual({
          type: 'Flushed',
          sequence_id: i,
        });
      });
      return read;
    };

    await expectRepliesInTurn(converse, repliesHeard);
  });

  it('answers Clear with Cleared: the sentence playing stops uncached, the rest is dropped, the sequence goes on', async () => {
    const { key, vendorKey } = await newOrg();
    const id = randomUUID().slice(0, 8);
    const held = `Held in the middle ${id}.`;
    const stall = await kit.injectFault(vendorKey, {
      ...STALLS,
      afterBytes: 1000,
      textIncludes: held,
      // A take tried once more on another worker (none of its audio had come yet) stalls too.
      times: 'always',
    });
    const socket = await connectV1(key, { encoding: 'mulaw', sample_rate: '8000' });
    socket.send({ type: 'Speak', text: `${held} Never said ${id}.` });
    socket.send({ type: 'Flush' });
    await eventually('audio before the stall', async () => audioOf(socket).length >= 1000);
    socket.send({ type: 'Clear' });
    await socket.next(typed('Cleared'));
    await sim.removeFault(stall.id).catch(() => undefined);
    expect(audioOf(socket).length).toBe(1000);
    // A clear with nothing playing is acknowledged too; an empty flush is answered at once.
    socket.send({ type: 'Clear' });
    socket.send({ type: 'Flush' });
    await socket.next(typed('Flushed'));
    expect(socket.frames.slice(1)).toEqual([
      { type: 'Cleared', sequence_id: 1 },
      { type: 'Cleared', sequence_id: 2 },
      { type: 'Flushed', sequence_id: 3 },
    ]);
    // The held sentence was stopped, so nothing of it was stored: said again, the vendor speaks it whole.
    socket.send({ type: 'Speak', text: held });
    socket.send({ type: 'Flush' });
    await socket.next(typed('Flushed', { sequence_id: 4 }));
    socket.close();
    const whole = await takesOf(vendorKey, [held], { codec: 'mulaw', sampleRate: 8000 });
    expect(audioOf(socket).subarray(1000).equals(whole)).toBe(true);
  });

  kit.itSharesWithStream(
    { model: 'vendor_e/e_model_1', voice: 'orla-en', response_format: 'pcm', sample_rate: 16000 },
    async (key, text, turn) => {
      const query = { encoding: 'linear16', sample_rate: '16000' };
      const socket = await connectV1(
        key,
        turn === 'first' ? query : { model: V1_MODEL, ...query, speed: '1.0' },
      );
      socket.send({ type: 'Speak', text });
      socket.send({ type: 'Flush' });
      await socket.next(typed('Flushed'));
      socket.close();
      return audioOf(socket);
    },
  );

  it('takes the key as the browser sub-protocols token, <key>, and has no limit of 20 flushes a minute', async () => {
    const { key } = await newOrg();
    const socket = await kit.connect('/v1/speak', null, { protocols: ['token', key] });
    await socket.until((frames) => frames.length > 0);
    expect(socket.frames[0]).toMatchObject({ type: 'Metadata', model_name: V1_MODEL });
    for (let i = 0; i < 25; i++) socket.send({ type: 'Flush' });
    await socket.until((frames) => frames.filter(typed('Flushed')).length === 25);
    expect(socket.frames.filter(typed('Flushed')).map((f) => f['sequence_id'])).toEqual([
      ...Array(25).keys(),
    ]);
    expect(socket.open).toBe(true);
    socket.close();
  });

  it('sends a vendor failure as an Error, then closes with 1011', async () => {
    const { key, vendorKey } = await newOrg();
    const socket = await connectV1(key);
    await expectVendorFailure(socket, vendorKey);
    expect(socket.frames.map((f) => f['type'])).toEqual(['Metadata', 'Error']);
  });

  it("closes a bad message with the vendor's Error and 1008, and an idle socket with NET-0001 and 1011 (the stack caps idle at 10 s)", async () => {
    const { key } = await newOrg();
    const notJson = await connectV1(key);
    notJson.send('not json');
    expect(await notJson.closed).toMatchObject({ code: 1008, by: 'server' });
    expect(notJson.frames.slice(1)).toEqual([
      { type: 'Error', code: 'DATA-0000', description: 'Messages must be JSON' },
    ]);
    const unknown = await connectV1(key);
    unknown.send({ type: 'Interrupt' });
    expect(await unknown.closed).toMatchObject({ code: 1008, by: 'server' });
    expect(unknown.frames.slice(1)).toEqual([
      { type: 'Error', code: 'MESSAGE-0000', description: expect.any(String) },
    ]);
    const noText = await connectV1(key);
    noText.send({ type: 'Speak' });
    expect(await noText.closed).toMatchObject({ code: 1008, by: 'server' });
    expect(noText.frames.slice(1)).toEqual([
      { type: 'Error', code: 'DATA-0000', description: 'Speak needs a string text' },
    ]);

    const idle = await connectV1(key);
    expect(await idle.closed).toMatchObject({ code: 1011, reason: 'NET-0001', by: 'server' });
    expect(idle.frames.slice(1)).toEqual([
      { type: 'Error', code: 'NET-0001', description: 'No messages received: idle timeout' },
    ]);
  });

  it("refuses a bad key at the handshake with the vendor's 401 INVALID_AUTH, a bad query with its 400, and an org out of credit with 402", async () => {
    /** The handshake's refusal, or status 101 (the socket closed at once) where it was accepted. */
    const refusal = (headers: Record<string, string>, query: Record<string, string> = {}) =>
      kit.refusal('/v1/speak', null, { headers, query });
    const token = (key: string) => ({ authorization: `Token ${key}` });
    const invalid = {
      status: 401,
      body: {
        err_code: 'INVALID_AUTH',
        err_msg: expect.any(String),
        request_id: expect.stringMatching(UUID),
      },
    };
    expect(await refusal({})).toEqual(invalid);
    expect(await refusal(token('rtr_not-a-key'))).toEqual(invalid);
    expect(await refusal(token(keylessOrg().key))).toEqual(invalid);

    const { orgId, key } = await newOrg();
    for (const [query, message] of [
      [{ model: 'e_model_3-orla-en' }, 'Model e_model_3-orla-en is not available on /v1/speak'],
      [{ encoding: 'mp3' }, 'Unsupported encoding: mp3'],
      [{ sample_rate: '44100' }, 'sample_rate must be one of 8000, 16000, 24000, 32000, 48000'],
      [{ speed: '2' }, 'speed must be between 0.7 and 1.5'],
    ] as const) {
      expect(await refusal(token(key), query)).toEqual({
        status: 400,
        body: {
          err_code: 'INVALID_QUERY_PARAMETER',
          err_msg: message,
          request_id: expect.stringMatching(UUID),
        },
      });
    }

    await setCredit(orgId, 'out', async () => (await refusal(token(key))).status === 402);
    expect(await refusal(token(key))).toEqual({
      status: 402,
      body: {
        err_code: 'insufficient_credits',
        err_msg: expect.stringMatching(/credit/i),
        request_id: expect.stringMatching(UUID),
      },
    });
  });
});

/**
 * A vendor_e client's `/v2/speak` sessions, written from the vendor's notes (../shared/vendors/vendor_e.md) and
 * the spec's differences, through the gateway with only the base URL and the key changed: `Connected` with the
 * router's ids; per turn `SpeechStarted`, the audio, `Flushed` and `SpeechMetadata` billing only what the vendor
 * synthesized; `Interrupt` split at sentence boundaries; `Configure` for later sentences; `Close` with the
 * session's totals.
 */
describe('vendor_e mirror, WebSocket /v2/speak (e2e)', () => {
  it("says a turn with the router's ids, billing only the vendor's sentences; said again, all from the cache and billed nothing", async () => {
    const { key, vendorKey } = await newOrg();
    const texts = [unique('Sure, let me check that for you'), unique('It will only take a moment')];
    const spoken = `${texts[0]} ${texts[1]}`;
    const before = await calls(vendorKey);

    const say = async (): Promise<TestSocket> => {
      const socket = await connectV2(key);
      await turn(socket, spoken);
      socket.send({ type: 'Close' });
      expect(await socket.closed).toMatchObject({ code: 1000, by: 'server' });
      return socket;
    };
    const first = await say();
    expect(flow(first)).toEqual([
      'Connected',
      'SpeechStarted',
      'audio',
      'Flushed',
      'SpeechMetadata',
      'SessionMetadata',
    ]);
    const speechId = first.frames[1]?.['speech_id'];
    const audioMs = playsMs(texts[0] ?? '') + playsMs(texts[1] ?? '');
    const billed = chars(texts[0] ?? '') + chars(texts[1] ?? '');
    expect(first.frames).toEqual([
      {
        type: 'Connected',
        request_id: expect.stringMatching(UUID),
        model_name: V2_MODEL,
        model_version: 'unknown',
        model_uuids: [expect.stringMatching(UUID)],
      },
      { type: 'SpeechStarted', speech_id: expect.stringMatching(UUID) },
      { type: 'Flushed', speech_id: speechId },
      {
        type: 'SpeechMetadata',
        speech_id: speechId,
        audio_duration_ms: Math.round(audioMs),
        input_character_count: chars(spoken),
        billable_character_count: billed,
        controls_applied: { pronunciations_applied: 0, pronunciation_warnings: 0 },
      },
      {
        type: 'SessionMetadata',
        total_audio_duration_ms: Math.round(audioMs),
        total_input_character_count: chars(spoken),
        total_billable_character_count: billed,
      },
    ]);
    expect(audioOf(first).equals(await takesOf(vendorKey, [texts[0] ?? '', texts[1] ?? '']))).toBe(true);
    expect(await calls(vendorKey)).toBe(before + 2);

    const again = await say();
    expect(audioOf(again).equals(audioOf(first))).toBe(true);
    expect(again.frames[1]?.['speech_id']).not.toBe(speechId);
    expect(again.frames.at(-2)).toMatchObject({
      input_character_count: chars(spoken),
      billable_character_count: 0,
    });
    expect(again.frames.at(-1)).toMatchObject({ total_billable_character_count: 0 });
    expect(await calls(vendorKey)).toBe(before + 2);

    // A turn of a cached sentence and a new one bills the new one only.
    const fresh = unique('A sentence the vendor has not said');
    const mixed = await connectV2(key);
    expect(await turn(mixed, `${texts[0]} ${fresh}`)).toMatchObject({
      billable_character_count: chars(fresh),
    });
    mixed.close();
    expect(await calls(vendorKey)).toBe(before + 3);
  });

  it.each([
    { label: 'past the start of the second sentence', into: 1, spoken: 2 },
    { label: 'inside the first sentence', into: 0, spoken: 1 },
  ])(
    'answers an Interrupt at a playback_offset $label with SpeechInterrupted, split at sentence boundaries',
    async ({ into, spoken }) => {
      const { key, vendorKey } = await newOrg();
      const id = randomUUID().slice(0, 8);
      const texts = [
        unique('The first sentence of the turn'),
        unique('Then a second one'),
        `Held back ${id}.`,
      ];
      const stall = await kit.injectFault(vendorKey, { ...STALLS, textIncludes: id, times: 'always' });
      const socket = await connectV2(key);
      socket.send({ type: 'Speak', text: texts.join(' ') });
      socket.send({ type: 'Flush' });
      const before = playsMs(texts[0] ?? '') + playsMs(texts[1] ?? '');
      await eventually('two sentences heard', async () => audioOf(socket).length >= before * BYTES_PER_MS);
      // Half way into the sentence `into`.
      const offset =
        into === 0 ? playsMs(texts[0] ?? '') / 2 : playsMs(texts[0] ?? '') + playsMs(texts[1] ?? '') / 2;
      socket.send({ type: 'Interrupt', playback_offset: offset });
      const interrupted = await socket.next(typed('SpeechInterrupted'));
      await sim.removeFault(stall.id).catch(() => undefined);
      expect(interrupted).toEqual({
        type: 'SpeechInterrupted',
        speech_id: socket.frames[1]?.['speech_id'],
        audio_played_ms: Math.round(offset),
        text_spoken: texts.slice(0, spoken).join(' '),
        text_remaining: texts.slice(spoken).join(' '),
      });
      expect(flow(socket)).toEqual(['Connected', 'SpeechStarted', 'audio', 'SpeechInterrupted']);

      // Nothing playing: the vendor's warning. The socket goes on with the next turn.
      socket.send({ type: 'Interrupt' });
      expect(await socket.next(typed('Warning'))).toEqual({
        type: 'Warning',
        code: 'NO_ACTIVE_SPEECH',
        description: 'Nothing to interrupt',
      });
      const next = await turn(socket, unique('The next turn'));
      expect(next['speech_id']).not.toBe(interrupted['speech_id']);
      socket.close();
    },
  );

  it("serves turns in turn on one socket as the vendor's clients send them, each read up to its SpeechMetadata, then a Flush and a Close at once end it", async () => {
    const converse = async (key: string, replies: string[][]): Promise<ReceivedFrame[][]> => {
      const socket = await connectV2(key);
      await socket.until((frames) => frames.some(typed('Connected')));
      const read = await replyInTurn(socket, replies, 'SpeechMetadata');
      // The plugin's close of a pooled socket: a Flush (nothing held: the vendor's warning) and a Close at once.
      const after = socket.received.length;
      socket.send({ type: 'Flush' });
      socket.send({ type: 'Close' });
      expect(await socket.closed).toMatchObject({ code: 1000, by: 'server' });
      // Nothing of either turn came after its SpeechMetadata.
      expect(socket.received.slice(after).map(kindOf)).toEqual(['Warning', 'SessionMetadata']);
      for (const reply of read) {
        const kinds = reply.map(kindOf).filter((k, i, all) => k !== 'audio' || all[i - 1] !== 'audio');
        expect(kinds).toEqual(['SpeechStarted', 'audio', 'Flushed', 'SpeechMetadata']);
        const ids = new Set(reply.flatMap((f) => (f.binary ? [] : [JSON.parse(f.text)['speech_id']])));
        expect(ids.size).toBe(1);
      }
      return read;
    };

    await expectRepliesInTurn(converse, repliesHeard);
  });

  it("reports only the interrupted turn's own rest in SpeechInterrupted, and drops a later turn already sent, as the vendor does", async () => {
    const { key, vendorKey } = await newOrg();
    const id = randomUUID().slice(0, 8);
    const first = [unique('The first turn starts here'), `Still to come ${id}.`];
    const later = unique('A later turn sent before the interrupt');
    const stall = await kit.injectFault(vendorKey, { ...STALLS, textIncludes: id, times: 'always' });
    const socket = await connectV2(key);
    socket.send({ type: 'Speak', text: first.join(' ') });
    socket.send({ type: 'Flush' });
    socket.send({ type: 'Speak', text: later });
    socket.send({ type: 'Flush' });
    const heard = playsMs(first[0] ?? '');
    await eventually('the first sentence heard', async () => audioOf(socket).length >= heard * BYTES_PER_MS);
    socket.send({ type: 'Interrupt', playback_offset: heard / 2 });
    const interrupted = await socket.next(typed('SpeechInterrupted'));
    await sim.removeFault(stall.id).catch(() => undefined);
    expect(interrupted).toEqual({
      type: 'SpeechInterrupted',
      speech_id: socket.frames[1]?.['speech_id'],
      audio_played_ms: Math.round(heard / 2),
      text_spoken: first[0],
      text_remaining: first[1],
    });

    // The later turn went with the interrupt: nothing is left to interrupt, it never starts, and the session's
    // totals count only the turn said after.
    socket.send({ type: 'Interrupt' });
    const answer = await socket.next((f) => typed('Warning')(f) || typed('SpeechInterrupted')(f));
    expect(answer).toEqual({
      type: 'Warning',
      code: 'NO_ACTIVE_SPEECH',
      description: 'Nothing to interrupt',
    });
    const next = unique('The turn after the interrupt');
    await turn(socket, next);
    socket.send({ type: 'Close' });
    expect(await socket.closed).toMatchObject({ code: 1000, by: 'server' });
    expect(flow(socket)).toEqual([
      'Connected',
      'SpeechStarted',
      'audio',
      'SpeechInterrupted',
      'Warning',
      'SpeechStarted',
      'audio',
      'Flushed',
      'SpeechMetadata',
      'SessionMetadata',
    ]);
    expect(socket.frames.at(-1)).toMatchObject({
      type: 'SessionMetadata',
      total_input_character_count: chars(next),
    });
    const said = await takesOf(vendorKey, [next]);
    const audio = audioOf(socket);
    expect(audio.subarray(audio.length - said.length).equals(said)).toBe(true);
  });

  it('applies Configure to later sentences only, acknowledges it, and refuses a speed off its steps without closing', async () => {
    const { key, vendorKey } = await newOrg();
    const texts = [unique('Said at the first speed'), unique('Said a little faster')];
    const socket = await connectV2(key);
    socket.send({ type: 'Speak', text: `${texts[0]} ` });
    socket.send({ type: 'Configure', speed: 1.1 });
    socket.send({ type: 'Speak', text: texts[1] });
    socket.send({ type: 'Flush' });
    await socket.next(typed('SpeechMetadata'));
    socket.send({ type: 'Configure', speed: 1.12 });
    const failure = await socket.next(typed('ConfigureFailure'));
    socket.send({ type: 'Configure', pitch: 2 });
    const unknownField = await socket.next(typed('ConfigureFailure'));
    socket.close();
    expect(socket.frames.find(typed('ConfigureSuccess'))).toEqual({
      type: 'ConfigureSuccess',
      applied: { speed: 1.1 },
    });
    expect(failure).toEqual({
      type: 'ConfigureFailure',
      code: 'INVALID_VALUE',
      field: 'speed',
      value: 1.12,
      description: 'speed must be between 0.85 and 1.15 in steps of 0.05',
    });
    expect(unknownField).toEqual({
      type: 'ConfigureFailure',
      code: 'INVALID_VALUE',
      field: 'pitch',
      value: 2,
      description: 'pitch cannot be configured',
    });
    expect(
      audioOf(socket).equals(
        await takesOf(vendorKey, [
          [texts[0] ?? '', 1],
          [texts[1] ?? '', 1.1],
        ]),
      ),
    ).toBe(true);
  });

  it('warns of a Flush with no text, and sends a vendor failure as an Error, then closes with 1011', async () => {
    const { key, vendorKey } = await newOrg();
    const socket = await connectV2(key);
    socket.send({ type: 'Flush' });
    expect(await socket.next(typed('Warning'))).toEqual({
      type: 'Warning',
      code: 'EMPTY_TURN',
      description: 'Flush with no text',
    });
    await expectVendorFailure(socket, vendorKey);
  });
});
