import { randomUUID } from 'node:crypto';
import { type JsonFrame, mirrorE2e, mirrorSocketUrl, openSocket, type SocketEnd } from '@router/testing';
import { createTake, readTakeId } from '@router/vendor-sim';

const { stack, sim, newOrg } = mirrorE2e('vendor_c');
const DIALOGUE = '/v1/text-to-dialogue/multi-stream-input?model_id=c_model_8&output_format=pcm_16000';

/** A server frame as a vendor_c client reads it. */
type Frame = JsonFrame;

async function twoVoices(key: string): Promise<[string, string]> {
  const answer = await fetch(`${stack.gatewayUrl}/vendor_c/v1/voices`, {
    headers: { 'vendor_c-api-key': key },
  });
  const { voices } = (await answer.json()) as { voices: Array<{ voice_id: string }> };
  if (voices.length < 2) throw new Error('the simulator lists fewer than two vendor_c voices');
  return [voices[0].voice_id, voices[1].voice_id];
}

/** Sends the messages on a dialogue socket, then `close_socket`; every frame until the router closes it. */
async function dialogue(
  key: string,
  messages: readonly Record<string, unknown>[],
): Promise<{ frames: Frame[]; close: SocketEnd }> {
  const socket = await openSocket(mirrorSocketUrl(stack.gatewayUrl, 'vendor_c', DIALOGUE), {
    headers: { 'vendor_c-api-key': key },
  });
  for (const message of messages) socket.send(message);
  socket.send({ close_socket: true });
  return { frames: socket.frames, close: await socket.closed };
}

/** What a frame is, for comparing the order of a session's frames. */
function kindOf(frame: Frame): string {
  if (frame['is_final'] === true) return 'final';
  if (frame['is_final_audio_for_turn'] === true) return 'turn-final';
  if (typeof frame['audio'] === 'string') return 'audio';
  if (frame['alignment']) return 'alignment';
  return `unknown ${JSON.stringify(frame)}`;
}

/** The kinds of a session's frames in order, a run of audio frames counted once. */
function orderOf(frames: readonly Frame[]): string[] {
  return frames.map(kindOf).filter((kind, i, all) => kind !== 'audio' || all[i - 1] !== 'audio');
}

/** Each turn's audio: the audio frames between two `is_final_audio_for_turn` frames. */
function turnsOf(frames: readonly Frame[]): Buffer[] {
  const turns: Buffer[][] = [[]];
  for (const frame of frames) {
    if (typeof frame['audio'] === 'string') turns.at(-1)?.push(Buffer.from(frame['audio'], 'base64'));
    if (frame['is_final_audio_for_turn'] === true) turns.push([]);
  }
  return turns.filter((t) => t.length > 0).map((t) => Buffer.concat(t));
}

/**
 * A vendor_c client's dialogue socket, written from the vendor's notes (../shared/vendors/vendor_c.md):
 * lines of two voices, each turn's audio then `is_final_audio_for_turn`, the socket's end `is_final`; said
 * again, every sentence comes from the cache.
 */
describe('vendor_c mirror, text-to-dialogue socket (e2e)', () => {
  it('speaks two voices turn by turn, ends with is_final, and replays the session from the cache', async () => {
    const { key, vendorKey } = await newOrg();
    const [first, second] = await twoVoices(key);
    const id = randomUUID().slice(0, 8);
    const lines = [`Good morning ${id}. `, `Morning to you ${id}. `, 'Shall we begin? '];
    const messages = [
      {
        voice_settings: { stability: 0.5 },
        inputs: [
          { text: lines[0], voice_id: first },
          { text: lines[1], voice_id: second },
        ],
      },
      { inputs: [{ text: lines[2], voice_id: first }] },
    ];
    const before = await sim.calls('vendor_c', { key: vendorKey });

    const said = await dialogue(key, messages);
    expect(said.close.code).toBe(1000);
    // Each turn: its audio, its sentence's alignment, then the turn's end; the socket's end last.
    expect(orderOf(said.frames)).toEqual([
      ...['audio', 'alignment', 'turn-final'],
      ...['audio', 'alignment', 'turn-final'],
      ...['audio', 'alignment', 'turn-final'],
      'final',
    ]);
    expect(said.frames.at(-1)).toEqual({ is_final: true });
    const alignments = said.frames.filter((f) => kindOf(f) === 'alignment');
    expect(alignments.map((f) => f['alignment'].chars.join(''))).toEqual(lines.map((l) => l.trim()));

    // One vendor call per line, on the dialogue endpoint; each turn is one call's take, untouched (look-ahead
    // may call for a line before the one playing ends, so calls are matched by the take id in the audio).
    const calls = (await sim.calls('vendor_c', { key: vendorKey })).slice(before.length);
    expect(calls.map((c) => c.endpoint.startsWith('dialogue'))).toEqual([true, true, true]);
    const turns = turnsOf(said.frames);
    expect(turns).toHaveLength(3);
    turns.forEach((audio, i) => {
      const call = calls.find((c) => c.takeId === readTakeId(audio, 'pcm'));
      const take = createTake(lines[i].trim(), { codec: 'pcm', sampleRate: 16000 }, { takeId: call?.takeId });
      expect(audio.equals(take.bytes)).toBe(true);
    });

    const again = await dialogue(key, messages);
    expect(again.close.code).toBe(1000);
    // The cache may chunk the audio otherwise; the frames come in the same order, the bytes are the same.
    expect(orderOf(again.frames)).toEqual(orderOf(said.frames));
    expect(again.frames.filter((f) => kindOf(f) === 'alignment')).toEqual(alignments);
    expect(Buffer.concat(turnsOf(again.frames)).equals(Buffer.concat(turns))).toBe(true);
    expect(await sim.calls('vendor_c', { key: vendorKey })).toHaveLength(before.length + 3);
  });

  it('refuses a speech model with an error frame and a 1008 close', async () => {
    const { key } = await newOrg();
    const socket = await openSocket(
      mirrorSocketUrl(stack.gatewayUrl, 'vendor_c', '/v1/text-to-dialogue/multi-stream-input', {
        model_id: 'c_model_1',
      }),
      { headers: { 'vendor_c-api-key': key } },
    );
    expect(await socket.closed).toMatchObject({ code: 1008, by: 'server' });
    expect(socket.frames).toEqual([
      { message: 'Model c_model_1 cannot be used for dialogue.', error: 'invalid_request', code: 1008 },
    ]);
  });
});
