import { msAlignment } from './vendor-c.alignment';
import { socketError } from './vendor-c.errors';
import {
  dialogueFinalFrame,
  parseDialogueSocketMessage,
  readDialogueFrame,
  turnFinalFrame,
} from './vendor-c.dialogue-socket';
import { audioFrame, parseSocketQuery } from './vendor-c.socket';

describe('text-to-dialogue/multi-stream-input', () => {
  it('reads a message of lines with the key, the voices and the settings', () => {
    const parsed = parseDialogueSocketMessage({
      inputs: [
        { text: 'Hello.', voice_id: 'v1' },
        { text: 'Hi!', voice_id: 'v2', new_turn: true },
      ],
      voices: ['v1', 'v2'],
      voice_settings: { stability: 0.5 },
      context_id: 'scene',
      flush: true,
      vendor_c_api_key: 'key',
    });
    expect(parsed).toEqual({
      ok: true,
      value: {
        inputs: [
          { text: 'Hello.', voiceId: 'v1', newTurn: false },
          { text: 'Hi!', voiceId: 'v2', newTurn: true },
        ],
        flush: true,
        keepAlive: false,
        closeSocket: false,
        closeContext: false,
        contextId: 'scene',
        voices: ['v1', 'v2'],
        voiceSettings: { stability: 0.5 },
        key: 'key',
      },
    });
  });

  it('a message without lines keeps the default context alive or closes the socket', () => {
    expect(parseDialogueSocketMessage({ keep_alive: true })).toMatchObject({
      ok: true,
      value: { inputs: [], keepAlive: true, contextId: 'default' },
    });
    expect(parseDialogueSocketMessage({ close_socket: true })).toMatchObject({
      ok: true,
      value: { closeSocket: true },
    });
  });

  it('refuses a line without a voice and voice settings beyond stability, naming each field', () => {
    expect(
      parseDialogueSocketMessage({ inputs: [{ text: 'Hi' }], voice_settings: { stability: 0.5, speed: 1 } }),
    ).toEqual({
      ok: false,
      problem: {
        status: 422,
        code: 'invalid_request',
        type: 'validation_error',
        message: 'inputs.0.voice_id: field required; voice_settings.speed: extra fields not permitted',
      },
    });
  });

  it('takes dialogue models only, c_model_8 unless asked', () => {
    expect(parseSocketQuery(new URLSearchParams(), 'dialogue')).toMatchObject({
      ok: true,
      value: { model: 'c_model_8' },
    });
    expect(parseSocketQuery(new URLSearchParams({ model_id: 'c_model_3' }), 'dialogue')).toEqual({
      ok: false,
      message: 'Model c_model_3 cannot be used for dialogue.',
    });
  });

  it('frames read back: audio, the end of a turn, then snake_case is_final', () => {
    const alignment = msAlignment([{ char: 'H', startMs: 0, endMs: 80 }], 0);
    expect(readDialogueFrame(audioFrame(Buffer.from('a'), alignment, 'scene'))).toEqual({
      kind: 'audio',
      audio: Buffer.from('a'),
      alignment,
      contextId: 'scene',
    });
    expect(turnFinalFrame('scene')).toEqual({
      is_final_audio_for_turn: true,
      contextId: 'scene',
      context_id: 'scene',
    });
    expect(readDialogueFrame(turnFinalFrame('scene'))).toEqual({ kind: 'turn-final', contextId: 'scene' });
    expect(dialogueFinalFrame()).toEqual({ is_final: true });
    expect(readDialogueFrame(dialogueFinalFrame('scene'))).toEqual({ kind: 'final', contextId: 'scene' });
    expect(readDialogueFrame(socketError({ status: 400, code: 'voice_not_found', message: 'm' }))).toEqual({
      kind: 'error',
      error: 'voice_not_found',
      message: 'm',
      closeCode: 1008,
      contextId: undefined,
    });
  });
});
