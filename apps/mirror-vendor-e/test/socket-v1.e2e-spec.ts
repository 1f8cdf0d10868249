import { randomUUID } from 'node:crypto';
import {
  adminCli,
  createOrgWithKey,
  createOrgWithVendorKey,
  eventually,
  type JsonFrame,
  mirrorSocketUrl,
  openSocket,
  readE2eStack,
  sayOnStream,
  TestSocket,
} from '@router/testing';
import { type AudioSpec, createTake, SimControl } from '@router/vendor-sim';

const stack = readE2eStack();
const sim = new SimControl(stack.simUrl);
const PATH = '/v1/speak';
const MODEL = 'e_model_1-orla-en';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The socket's default audio: raw linear16 at 24000 Hz. */
const PCM: AudioSpec = { codec: 'pcm', sampleRate: 24000 };

const newOrg = () => createOrgWithVendorKey(stack, 'vendor_e', `mirror-e-ws1-${randomUUID().slice(0, 8)}`);
const unique = (words: string) => `${words} ${randomUUID().slice(0, 8)}.`;
const calls = (vendorKey: string): Promise<number> => sim.callCount('vendor_e', { key: vendorKey });
const typed =
  (type: string, fields: Record<string, unknown> = {}) =>
  (f: JsonFrame): boolean =>
    f['type'] === type && Object.entries(fields).every(([k, v]) => f[k] === v);

/** vendor_e's `/v1/speak` socket through the gateway, keyed as its clients key it: `Authorization: Token`. */
function connect(key: string, query: Record<string, string> = {}): Promise<TestSocket> {
  return openSocket(mirrorSocketUrl(stack.gatewayUrl, 'vendor_e', PATH, query), {
    headers: { authorization: `Token ${key}` },
  });
}

/** The binary audio received, in order. */
const audioOf = (socket: TestSocket): Buffer => Buffer.concat(socket.binaries);

/** The simulator's takes of `texts` (each its latest call of that length), as the vendor encodes them. */
async function takesOf(vendorKey: string, texts: readonly string[], spec: AudioSpec = PCM): Promise<Buffer> {
  const made = await sim.calls('vendor_e', { key: vendorKey });
  return Buffer.concat(
    texts.map((text) => {
      const call = made.filter((c) => c.chars === [...text].length).at(-1);
      return createTake(text, spec, { takeId: call?.takeId }).bytes;
    }),
  );
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
      const socket = await connect(key, { model: MODEL, encoding: 'linear16', sample_rate: '24000' });
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
        model_name: MODEL,
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

  it('answers Clear with Cleared: the sentence playing stops uncached, the rest is dropped, the sequence goes on', async () => {
    const { key, vendorKey } = await newOrg();
    const id = randomUUID().slice(0, 8);
    const held = `Held in the middle ${id}.`;
    const stall = await sim.injectFault({
      vendor: 'vendor_e',
      key: vendorKey,
      kind: 'stall',
      stallMs: null,
      afterBytes: 1000,
      textIncludes: held,
    });
    const socket = await connect(key, { encoding: 'mulaw', sample_rate: '8000' });
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

  it('shares sentences with /v1/stream for equal settings, both ways', async () => {
    const { key, vendorKey, client } = await newOrg();
    const saidOnMirror = unique('Said on the mirror first');
    const saidNatively = unique('Said natively first');

    const mirrored = await connect(key, { encoding: 'linear16', sample_rate: '16000' });
    mirrored.send({ type: 'Speak', text: saidOnMirror });
    mirrored.send({ type: 'Flush' });
    await mirrored.next(typed('Flushed'));
    mirrored.close();
    const before = await calls(vendorKey);

    const heard = await sayOnStream(
      client,
      {
        model: 'vendor_e/e_model_1',
        voice: 'orla-en',
        response_format: 'pcm',
        sample_rate: 16000,
      },
      `${saidOnMirror} ${saidNatively} `,
    );
    expect(heard.map((h) => [h.text, h.cached])).toEqual([
      [saidOnMirror, true],
      [saidNatively, false],
    ]);
    expect(heard[0]?.audio.equals(audioOf(mirrored))).toBe(true);
    expect(await calls(vendorKey)).toBe(before + 1);

    const back = await connect(key, {
      model: MODEL,
      encoding: 'linear16',
      sample_rate: '16000',
      speed: '1.0',
    });
    back.send({ type: 'Speak', text: saidNatively });
    back.send({ type: 'Flush' });
    await back.next(typed('Flushed'));
    back.close();
    expect(audioOf(back).equals(heard[1]?.audio ?? Buffer.alloc(0))).toBe(true);
    expect(await calls(vendorKey)).toBe(before + 1);
  });

  it('takes the key as the browser sub-protocols token, <key>, and has no limit of 20 flushes a minute', async () => {
    const { key } = await newOrg();
    const socket = await openSocket(mirrorSocketUrl(stack.gatewayUrl, 'vendor_e', PATH), {
      protocols: ['token', key],
    });
    await socket.until((frames) => frames.length > 0);
    expect(socket.frames[0]).toMatchObject({ type: 'Metadata', model_name: MODEL });
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
    const socket = await connect(key);
    socket.send({ type: 'Speak', text: `Refused by the vendor ${id}.` });
    socket.send({ type: 'Flush' });
    const end = await socket.closed;
    await sim.removeFault(fault.id).catch(() => undefined);
    expect(end).toMatchObject({ code: 1011, by: 'server' });
    expect(socket.frames.slice(1)).toEqual([
      { type: 'Error', code: 'NET-0000', description: expect.stringContaining('engine refused') },
    ]);
  });

  it("closes a bad message with the vendor's Error and 1008, and an idle socket with NET-0001 and 1011 (the stack caps idle at 10 s)", async () => {
    const { key } = await newOrg();
    const notJson = await connect(key);
    notJson.send('not json');
    expect(await notJson.closed).toMatchObject({ code: 1008, by: 'server' });
    expect(notJson.frames.slice(1)).toEqual([
      { type: 'Error', code: 'DATA-0000', description: 'Messages must be JSON' },
    ]);
    const unknown = await connect(key);
    unknown.send({ type: 'Interrupt' });
    expect(await unknown.closed).toMatchObject({ code: 1008, by: 'server' });
    expect(unknown.frames.slice(1)).toEqual([
      { type: 'Error', code: 'MESSAGE-0000', description: expect.any(String) },
    ]);
    const noText = await connect(key);
    noText.send({ type: 'Speak' });
    expect(await noText.closed).toMatchObject({ code: 1008, by: 'server' });
    expect(noText.frames.slice(1)).toEqual([
      { type: 'Error', code: 'DATA-0000', description: 'Speak needs a string text' },
    ]);

    const idle = await connect(key);
    expect(await idle.closed).toMatchObject({ code: 1011, reason: 'NET-0001', by: 'server' });
    expect(idle.frames.slice(1)).toEqual([
      { type: 'Error', code: 'NET-0001', description: 'No messages received: idle timeout' },
    ]);
  });

  it("refuses a bad key at the handshake with the vendor's 401 INVALID_AUTH, a bad query with its 400, and an org out of credit with 402", async () => {
    /** The handshake's refusal, or status 101 (the socket closed at once) where it was accepted. */
    const refusal = async (headers: Record<string, string>, query: Record<string, string> = {}) => {
      const socket = new TestSocket(mirrorSocketUrl(stack.gatewayUrl, 'vendor_e', PATH, query), { headers });
      const handshake = await socket.handshake;
      if (handshake.kind === 'open') {
        socket.close();
        return { status: 101, body: null };
      }
      return { status: handshake.answer.status, body: JSON.parse(handshake.answer.body.toString('utf8')) };
    };
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
    const keyless = createOrgWithKey(stack.adminUrl, `mirror-e-ws-keyless-${randomUUID().slice(0, 8)}`);
    expect(await refusal(token(keyless.key))).toEqual(invalid);

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

    expect(adminCli(stack.adminUrl, ['org', 'credit', orgId, 'out']).code).toBe(0);
    await eventually('out of credit refused', async () => (await refusal(token(key))).status === 402);
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
