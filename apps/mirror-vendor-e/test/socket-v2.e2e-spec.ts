import { randomUUID } from 'node:crypto';
import {
  createOrgWithVendorKey,
  eventually,
  type JsonFrame,
  mirrorSocketUrl,
  openSocket,
  readE2eStack,
  type TestSocket,
} from '@router/testing';
import { type AudioSpec, createTake, SimControl } from '@router/vendor-sim';

const stack = readE2eStack();
const sim = new SimControl(stack.simUrl);
const PATH = '/v2/speak';
const MODEL = 'e_model_3-orla-en';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PCM: AudioSpec = { codec: 'pcm', sampleRate: 24000 };
/** 16-bit samples at 24000 Hz: 48 bytes a millisecond. */
const BYTES_PER_MS = 48;

const newOrg = () => createOrgWithVendorKey(stack, 'vendor_e', `mirror-e-ws2-${randomUUID().slice(0, 8)}`);
const unique = (words: string) => `${words} ${randomUUID().slice(0, 8)}.`;
const calls = (vendorKey: string): Promise<number> => sim.callCount('vendor_e', { key: vendorKey });
const chars = (text: string): number => [...text].length;
const typed =
  (type: string) =>
  (f: JsonFrame): boolean =>
    f['type'] === type;

function connect(key: string, query: Record<string, string> = {}): Promise<TestSocket> {
  return openSocket(mirrorSocketUrl(stack.gatewayUrl, 'vendor_e', PATH, { model: MODEL, ...query }), {
    headers: { authorization: `Token ${key}` },
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

const audioOf = (socket: TestSocket): Buffer => Buffer.concat(socket.binaries);

/** The simulator's takes of `texts` (each its latest call of that length) at `speed`, as the vendor encodes them. */
async function takesOf(vendorKey: string, texts: ReadonlyArray<readonly [string, number?]>): Promise<Buffer> {
  const made = await sim.calls('vendor_e', { key: vendorKey });
  return Buffer.concat(
    texts.map(([text, speed]) => {
      const call = made.filter((c) => c.chars === chars(text)).at(-1);
      return createTake(text, PCM, { takeId: call?.takeId, speed: speed ?? 1 }).bytes;
    }),
  );
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
      const socket = await connect(key);
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
        model_name: MODEL,
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
    expect(audioOf(first).equals(await takesOf(vendorKey, [[texts[0] ?? ''], [texts[1] ?? '']]))).toBe(true);
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
    const mixed = await connect(key);
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
      const stall = await sim.injectFault({
        vendor: 'vendor_e',
        key: vendorKey,
        kind: 'stall',
        stallMs: null,
        textIncludes: id,
      });
      const socket = await connect(key);
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
      expect(await socket.next(() => true)).toEqual({
        type: 'Warning',
        code: 'NO_ACTIVE_SPEECH',
        description: 'Nothing to interrupt',
      });
      const next = await turn(socket, unique('The next turn'));
      expect(next['speech_id']).not.toBe(interrupted['speech_id']);
      socket.close();
    },
  );

  it('applies Configure to later sentences only, acknowledges it, and refuses a speed off its steps without closing', async () => {
    const { key, vendorKey } = await newOrg();
    const texts = [unique('Said at the first speed'), unique('Said a little faster')];
    const socket = await connect(key);
    socket.send({ type: 'Speak', text: `${texts[0]} ` });
    socket.send({ type: 'Configure', speed: 1.1 });
    socket.send({ type: 'Speak', text: texts[1] });
    socket.send({ type: 'Flush' });
    await socket.next(typed('SpeechMetadata'));
    socket.send({ type: 'Configure', speed: 1.12 });
    const failure = await socket.next(() => true);
    socket.send({ type: 'Configure', pitch: 2 });
    const unknownField = await socket.next(() => true);
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
    const socket = await connect(key);
    socket.send({ type: 'Flush' });
    expect(await socket.next(() => true)).toEqual({
      type: 'Warning',
      code: 'EMPTY_TURN',
      description: 'Flush with no text',
    });
    const id = randomUUID().slice(0, 8);
    const fault = await sim.injectFault({
      vendor: 'vendor_e',
      key: vendorKey,
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
  });
});
