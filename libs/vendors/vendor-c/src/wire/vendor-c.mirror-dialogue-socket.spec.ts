import { RouterError } from '@router/contracts';
import { handshakeOf, type SocketCommand, type SocketConnection } from '@router/vendors-core';
import { vendorCSocketRoutes } from './vendor-c.mirror-socket';

const DIALOGUE_PATH = '/v1/text-to-dialogue/multi-stream-input';

function openDialogue(query = 'model_id=c_model_8&output_format=pcm_16000'): SocketConnection {
  const route = vendorCSocketRoutes.find((r) => r.path.test(DIALOGUE_PATH));
  if (!route) throw new Error('no dialogue route');
  return route.open(handshakeOf(query));
}

function send(connection: SocketConnection, message: unknown): SocketCommand[] {
  return connection.parse(Buffer.from(JSON.stringify(message)), false);
}

/** Commands with the settings reduced to the voice and voice settings they are for. */
function brief(commands: readonly SocketCommand[]): unknown[] {
  return commands.map((c) =>
    c.kind === 'configure'
      ? {
          kind: c.kind,
          context: c.context,
          voice: c.settings.voice,
          model: c.settings.model,
          voiceSettings: c.settings.options['voice_settings'] ?? null,
        }
      : c,
  );
}

function frames(list: readonly (string | Buffer)[]): unknown[] {
  return list.map((f) => JSON.parse(f.toString()) as unknown);
}

describe('vendor_c mirror: text-to-dialogue/multi-stream-input', () => {
  it('is routed without a voice in the path and takes dialogue models only', () => {
    expect(openDialogue().opened()).toEqual([]);
    expect(openDialogue('model_id=c_model_1').opened()).toEqual([
      {
        kind: 'refuse',
        frame: JSON.stringify({
          message: 'Model c_model_1 cannot be used for dialogue.',
          error: 'invalid_request',
          code: 1008,
        }),
        close: { code: 1008, reason: 'invalid_request' },
      },
    ]);
  });

  it("configures each voice before its text; a new voice or new_turn ends the speaker's turn", () => {
    const connection = openDialogue();
    expect(
      brief(
        send(connection, {
          voice_settings: { stability: 0.4 },
          inputs: [
            { text: 'Hello there. ', voice_id: 'v1' },
            { text: 'How are you? ', voice_id: 'v1' },
            { text: 'Fine. ', voice_id: 'v2' },
          ],
        }),
      ),
    ).toEqual([
      {
        kind: 'configure',
        context: 'default',
        voice: 'v1',
        model: 'c_model_8',
        voiceSettings: { stability: 0.4 },
      },
      { kind: 'text', context: 'default', text: 'Hello there. ' },
      { kind: 'text', context: 'default', text: 'How are you? ' },
      { kind: 'flush', context: 'default', tag: 'turn' },
      {
        kind: 'configure',
        context: 'default',
        voice: 'v2',
        model: 'c_model_8',
        voiceSettings: { stability: 0.4 },
      },
      { kind: 'text', context: 'default', text: 'Fine. ' },
    ]);
    // The same voice again, in a turn of its own: a turn end, no new settings.
    expect(
      brief(send(connection, { inputs: [{ text: 'Really. ', voice_id: 'v2', new_turn: true }] })),
    ).toEqual([
      { kind: 'flush', context: 'default', tag: 'turn' },
      { kind: 'text', context: 'default', text: 'Really. ' },
    ]);
  });

  it('takes the voice settings of a later message for the lines after it, and null for stored settings', () => {
    const connection = openDialogue();
    expect(brief(send(connection, { inputs: [{ text: 'One. ', voice_id: 'v1' }] }))[0]).toMatchObject({
      kind: 'configure',
      voiceSettings: null,
    });
    expect(
      brief(
        send(connection, { voice_settings: { stability: 0.9 }, inputs: [{ text: 'Two. ', voice_id: 'v1' }] }),
      ),
    ).toEqual([
      {
        kind: 'configure',
        context: 'default',
        voice: 'v1',
        model: 'c_model_8',
        voiceSettings: { stability: 0.9 },
      },
      { kind: 'text', context: 'default', text: 'Two. ' },
    ]);
  });

  it("takes voice_settings {} as the voices' stored settings, and keeps earlier fields under a later {}", () => {
    const connection = openDialogue();
    const line = (text: string, voiceSettings: unknown) =>
      brief(send(connection, { voice_settings: voiceSettings, inputs: [{ text, voice_id: 'v1' }] }))[0];
    expect(line('One. ', {})).toMatchObject({ kind: 'configure', voiceSettings: null });
    expect(line('Two. ', { stability: 0.9 })).toMatchObject({
      kind: 'configure',
      voiceSettings: { stability: 0.9 },
    });
    expect(line('Three. ', {})).toMatchObject({ kind: 'configure', voiceSettings: { stability: 0.9 } });
  });

  it('flushes on flush and, with auto_mode, after each line; keep_alive and empty lines ask nothing', () => {
    const connection = openDialogue('auto_mode=true');
    expect(send(connection, { flush: true })).toEqual([]);
    expect(brief(send(connection, { inputs: [{ text: 'A line. ', voice_id: 'v1' }], flush: true }))).toEqual([
      expect.objectContaining({ kind: 'configure' }),
      { kind: 'text', context: 'default', text: 'A line. ' },
      { kind: 'flush', context: 'default' },
      { kind: 'flush', context: 'default' },
    ]);
    expect(send(connection, { keep_alive: true })).toEqual([]);
    expect(send(connection, { inputs: [{ text: '', voice_id: 'v2' }] })).toEqual([]);
  });

  it('ends every open turn before closing the socket; close_context drains the context', () => {
    const connection = openDialogue();
    send(connection, { inputs: [{ text: 'Default. ', voice_id: 'v1' }] });
    send(connection, { context_id: 'b', inputs: [{ text: 'In b. ', voice_id: 'v2' }] });
    send(connection, { context_id: 'c', inputs: [{ text: 'In c. ', voice_id: 'v2' }] });
    expect(send(connection, { context_id: 'c', close_context: true })).toEqual([
      { kind: 'drain', context: 'c' },
    ]);
    expect(send(connection, { context_id: 'never', close_context: true })).toEqual([]);
    expect(send(connection, { close_socket: true })).toEqual([
      { kind: 'flush', context: 'default', tag: 'turn' },
      { kind: 'flush', context: 'b', tag: 'turn' },
      { kind: 'close' },
    ]);
  });

  it('refuses a bad message with an error frame and a 1008 close, and a context past the limit on it', () => {
    const connection = openDialogue();
    expect(send(connection, { inputs: [{ text: 'No voice.' }] })).toEqual([
      {
        kind: 'refuse',
        frame: JSON.stringify({
          message: 'inputs.0.voice_id: field required',
          error: 'invalid_request',
          code: 1008,
        }),
        close: { code: 1008, reason: 'invalid_request' },
      },
    ]);
    expect(connection.parse(Buffer.from('not json'), false)).toMatchObject([{ kind: 'refuse' }]);
    for (const id of ['a', 'b', 'c', 'd', 'e']) send(connection, { context_id: id, keep_alive: true });
    expect(send(connection, { context_id: 'f', keep_alive: true })).toEqual([
      {
        kind: 'send',
        frame: JSON.stringify({
          message: 'At most 5 contexts can be open at once',
          error: 'max_active_contexts',
          code: 1008,
          context_id: 'f',
        }),
      },
    ]);
  });

  it("frames: audio, the end of a turn after a turn's flush only, then snake_case is_final", () => {
    const connection = openDialogue();
    const render = connection.context('default');
    expect(frames(render.audio(Buffer.from('ab'), { sentence: 0, first: true, cached: false }))).toEqual([
      { audio: Buffer.from('ab').toString('base64'), normalizedAlignment: null, alignment: null },
    ]);
    expect(render.flushed(undefined)).toEqual([]); // the client's flush
    expect(frames(render.flushed('turn'))).toEqual([{ is_final_audio_for_turn: true }]);
    expect(frames(render.finished({ kind: 'finish' }))).toEqual([{ is_final: true }]);
  });

  it('tags the frames of a context the client named, and keeps the socket open when one fails', () => {
    const connection = openDialogue();
    send(connection, { context_id: 'scene', inputs: [{ text: 'Hi. ', voice_id: 'v1' }] });
    send(connection, { context_id: 'scene', inputs: [{ text: 'Yo. ', voice_id: 'v2' }] });
    const render = connection.context('scene');
    expect(frames(render.flushed('turn'))).toEqual([
      { is_final_audio_for_turn: true, contextId: 'scene', context_id: 'scene' },
    ]);
    expect(frames(render.finished({ kind: 'finish' }))).toEqual([
      { is_final: true, contextId: 'scene', context_id: 'scene' },
    ]);
    // A context closed before any of its commands reached the session keeps its tag.
    send(connection, { context_id: 'quiet', keep_alive: true });
    send(connection, { context_id: 'quiet', close_context: true });
    expect(frames(connection.context('quiet').finished({ kind: 'drain' }))).toEqual([
      { is_final: true, contextId: 'quiet', context_id: 'quiet' },
    ]);
    const failed = render.failed(RouterError.badRequest('no such voice'));
    expect(failed.close).toBeUndefined();
    expect(frames(failed.frames)).toEqual([
      { message: 'no such voice', error: 'invalid_request', code: 1008, context_id: 'scene' },
    ]);
  });
});
