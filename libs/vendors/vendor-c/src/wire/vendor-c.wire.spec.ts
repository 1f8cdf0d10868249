import type { SynthSettings } from '@router/contracts';
import { msAlignment, readSecondsAlignment, secondsAlignment, type CharTiming } from './vendor-c.alignment';
import {
  authProblem,
  checkFailureReply,
  closeCodeFor,
  problemBody,
  socketError,
  statusProblem,
  vendorCErrorMessage,
  voiceNotFound,
} from './vendor-c.errors';
import {
  DEFAULT_OUTPUT_FORMAT,
  outputFormat,
  startsWithId3,
  VENDOR_C_OUTPUT_FORMATS,
  vendorCOutputFormat,
} from './vendor-c.formats';
import { parseDialogueRequest, parseOutputQuery, parseTtsRequest } from './vendor-c.requests';
import { dialogueVoiceSegments, timestampedBody, timestampedLine } from './vendor-c.responses';
import {
  audioFrame,
  finalFrame,
  parseSocketQuery,
  parseStreamInputMessage,
  readStreamInputFrame,
} from './vendor-c.socket';

const CHARS: CharTiming[] = [
  { char: 'H', startMs: 0, endMs: 90 },
  { char: 'i', startMs: 90, endMs: 210 },
  { char: '.', startMs: 210, endMs: 260 },
];

const noVoiceProblem = (): undefined => undefined;

describe('output formats, both ways', () => {
  const settings = (token: string): SynthSettings => {
    const audio = outputFormat(token);
    if (!audio) throw new Error(token);
    return {
      vendor: 'vendor_c',
      model: 'c_model_3',
      voice: 'v',
      language: null,
      speed: null,
      format: audio.codec,
      sampleRate: audio.sampleRate,
      options: audio.bitrateKbps === undefined ? {} : { bitrate: `${audio.bitrateKbps}k` },
    };
  };

  it.each([...VENDOR_C_OUTPUT_FORMATS.keys()])('%s → settings → the same token', (token) => {
    expect(vendorCOutputFormat(settings(token))).toBe(token);
  });

  it("a bitrate left out is the catalogue's default (opus's, 128k, dropped from canonical settings)", () => {
    expect(vendorCOutputFormat({ ...settings('opus_48000_64'), options: {} })).toBe('opus_48000_128');
    expect(vendorCOutputFormat({ ...settings('mp3_24000_48'), options: {} })).toBe('mp3_24000_48');
    expect(vendorCOutputFormat({ ...settings('mp3_44100_32'), options: {} })).toBe('mp3_44100_128');
  });

  it('a format or rate the vendor does not make is refused', () => {
    for (const unmade of [
      { ...settings('mp3_44100_32'), sampleRate: 16000, options: {} },
      { ...settings('pcm_8000'), format: 'aac' },
      { ...settings('ulaw_8000'), sampleRate: 16000 },
    ]) {
      expect(() => vendorCOutputFormat(unmade)).toThrow(expect.objectContaining({ code: 'bad_request' }));
    }
  });

  it('the default is mp3 at 44100 Hz and 128 kbps, and unknown tokens mean nothing', () => {
    expect(outputFormat(DEFAULT_OUTPUT_FORMAT)).toEqual({
      codec: 'mp3',
      sampleRate: 44100,
      bitrateKbps: 128,
    });
    expect(outputFormat('mp3_44100_100')).toBeUndefined();
  });

  it('only MP3 starts a stream with an ID3 tag, and only at the start', () => {
    const mp3 = outputFormat('mp3_44100_128');
    const pcm = outputFormat('pcm_24000');
    if (!mp3 || !pcm) throw new Error('missing formats');
    expect([startsWithId3(mp3, true), startsWithId3(mp3, false), startsWithId3(pcm, true)]).toEqual([
      true,
      false,
      false,
    ]);
  });

  it('an unknown output_format is a 422 naming the query field', () => {
    const parsed = parseOutputQuery(new URLSearchParams({ output_format: 'flac_44100' }));
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.issues[0]).toMatchObject({
      loc: ['query', 'output_format'],
      type: 'type_error.enum',
    });
  });
});

describe('refusals: what a server sends, a client reads', () => {
  it('a problem body carries the code as detail.status and the message', () => {
    const body = problemBody(voiceNotFound('v9'));
    expect(body).toMatchObject({
      detail: {
        status: 'voice_not_found',
        code: 'voice_not_found',
        type: 'validation_error',
        param: 'voice_id',
      },
    });
    expect(vendorCErrorMessage(JSON.stringify(body))).toBe('A voice for the voice_id v9 was not found.');
  });

  it('schema issues are a 422 list the client reads as loc: msg', () => {
    const parsed = parseTtsRequest({ model_id: 3 }, 'v', noVoiceProblem);
    if (parsed.ok) throw new Error('accepted');
    const reply = checkFailureReply(parsed);
    expect(reply.status).toBe(422);
    expect(vendorCErrorMessage(JSON.stringify(reply.body))).toBe(
      'body.text: field required; body.model_id: str type expected',
    );
  });

  it('a missing key is 401, a wrong one 400', () => {
    expect(authProblem('missing')).toMatchObject({ status: 401, code: 'needs_authorization' });
    expect(authProblem('invalid')).toMatchObject({ status: 400, code: 'invalid_api_key' });
  });

  it('each failing status has its code and type', () => {
    expect(statusProblem(429, { message: 'busy' })).toEqual({
      status: 429,
      code: 'too_many_concurrent_requests',
      type: 'rate_limit_error',
      message: 'busy',
    });
    expect(statusProblem(502, { code: 'own', message: 'x' })).toMatchObject({
      code: 'own',
      type: 'server_error',
    });
  });

  it('socket errors name the close code that follows: 1011 for server errors, else 1008', () => {
    expect(socketError({ status: 500, code: 'boom', message: 'm' }, 'c1')).toEqual({
      message: 'm',
      error: 'boom',
      code: 1011,
      context_id: 'c1',
    });
    expect(closeCodeFor(400)).toBe(1008);
    const frame = readStreamInputFrame(socketError(authProblem('invalid')));
    expect(frame).toEqual({
      kind: 'error',
      error: 'invalid_api_key',
      message: 'Invalid API key',
      closeCode: 1008,
      contextId: undefined,
    });
  });
});

describe('request checks in the vendor order', () => {
  it('model before voice before language before length', () => {
    const voiceGone = (id: string) => voiceNotFound(id);
    expect(parseTtsRequest({ text: 'Hi', model_id: 'nope' }, 'v', voiceGone)).toMatchObject({
      problem: { code: 'model_not_found' },
    });
    expect(parseTtsRequest({ text: 'Hi', language_code: 'xx' }, 'v', voiceGone)).toMatchObject({
      problem: { code: 'voice_not_found' },
    });
    expect(parseTtsRequest({ text: 'Hi', language_code: 'xx' }, 'v', noVoiceProblem)).toMatchObject({
      problem: { code: 'unsupported_language' },
    });
    expect(
      parseTtsRequest({ text: 'a'.repeat(5001), model_id: 'c_model_1' }, 'v', noVoiceProblem),
    ).toMatchObject({ problem: { code: 'max_character_limit_exceeded' } });
  });

  it('dialogue takes dialogue models only and stability only in its settings', () => {
    const inputs = [{ text: 'Hi', voice_id: 'v' }];
    expect(parseDialogueRequest({ inputs, model_id: 'c_model_3' }, noVoiceProblem)).toMatchObject({
      problem: { code: 'invalid_model' },
    });
    expect(parseDialogueRequest({ inputs, settings: { speed: 1 } }, noVoiceProblem)).toMatchObject({
      issues: [{ loc: ['body', 'settings', 'speed'], type: 'value_error.extra' }],
    });
  });
});

describe('alignments and timestamped answers', () => {
  it('a REST alignment reads back as the characters and their times', () => {
    expect(readSecondsAlignment(secondsAlignment(CHARS))).toEqual(CHARS);
  });

  it('a socket alignment is in ms from its frame start, each character at least 1 ms long', () => {
    expect(msAlignment(CHARS, 90)).toEqual({
      chars: ['H', 'i', '.'],
      charStartTimesMs: [0, 0, 120],
      charDurationsMs: [90, 120, 50],
    });
  });

  it('a timestamped line carries the audio and, without characters, null alignments', () => {
    const line = JSON.parse(timestampedLine(Buffer.from('abc'), CHARS)) as Record<string, unknown>;
    expect(Buffer.from(line['audio_base64'] as string, 'base64').toString()).toBe('abc');
    expect(readSecondsAlignment(line['alignment'])).toEqual(CHARS);
    expect(JSON.parse(timestampedLine(Buffer.from('abc'), []))).toMatchObject({ alignment: null });
  });

  it('a dialogue body names which characters each input speaks', () => {
    const segments = dialogueVoiceSegments(
      [
        { text: 'Hi', voiceId: 'a' },
        { text: '.', voiceId: 'b' },
      ],
      CHARS,
    );
    expect(timestampedBody(Buffer.from('x'), CHARS, segments)['voice_segments']).toEqual([
      {
        voice_id: 'a',
        start_time_seconds: 0,
        end_time_seconds: 0.21,
        character_start_index: 0,
        character_end_index: 2,
        dialogue_input_index: 0,
      },
      {
        voice_id: 'b',
        start_time_seconds: 0.21,
        end_time_seconds: 0.26,
        character_start_index: 2,
        character_end_index: 3,
        dialogue_input_index: 1,
      },
    ]);
  });
});

describe('stream-input sockets', () => {
  it('frames read back: audio with camelCase alignment and both context spellings, then isFinal', () => {
    const alignment = msAlignment(CHARS, 0);
    const frame = audioFrame(Buffer.from('pcm'), alignment, 'ctx');
    expect(frame).toMatchObject({ contextId: 'ctx', context_id: 'ctx', normalizedAlignment: alignment });
    expect(readStreamInputFrame(frame)).toEqual({
      kind: 'audio',
      audio: Buffer.from('pcm'),
      alignment,
      contextId: 'ctx',
    });
    expect(finalFrame()).toEqual({ isFinal: true });
    expect(readStreamInputFrame(finalFrame('ctx'))).toEqual({ kind: 'final', contextId: 'ctx' });
  });

  it('reads the key from the first message in either place', () => {
    expect(parseStreamInputMessage({ text: ' ', vendor_c_api_key: 'k1' }).key).toBe('k1');
    expect(parseStreamInputMessage({ text: ' ', authorization: 'Bearer k2' }).key).toBe('k2');
    expect(parseStreamInputMessage({ text: ' ', authorization: 'k3' }).key).toBeUndefined();
  });

  it('reads a context message and refuses bad voice settings where they are applied', () => {
    const message = parseStreamInputMessage({
      text: 'Hello ',
      flush: true,
      generation_config: { chunk_length_schedule: [50, 0, 'x', 80] },
      voice_settings: { stability: 2 },
    });
    expect(message).toMatchObject({
      text: 'Hello ',
      flush: true,
      contextId: 'default',
      chunkSchedule: [50, 80],
      voiceSettings: undefined,
      settingsProblem: {
        status: 422,
        message: 'voice_settings.stability: ensure this value is less than or equal to 1',
      },
    });
    expect(parseStreamInputMessage({ context_id: 'c2', close_context: true })).toMatchObject({
      contextId: 'c2',
      closeContext: true,
      closeSocket: false,
    });
  });

  it('checks the query: defaults, then the first problem words', () => {
    const parsed = parseSocketQuery(new URLSearchParams());
    expect(parsed).toMatchObject({
      ok: true,
      value: {
        model: 'c_model_3',
        inactivitySeconds: 20,
        autoMode: false,
        output: { formatName: 'mp3_44100_128' },
      },
    });
    expect(parseSocketQuery(new URLSearchParams({ inactivity_timeout: '500' }))).toEqual({
      ok: false,
      message: 'query.inactivity_timeout: ensure this value is less than or equal to 180',
    });
    expect(parseSocketQuery(new URLSearchParams({ model_id: 'c_model_1', language_code: 'de' }))).toEqual({
      ok: false,
      message: 'Model c_model_1 does not support the language_code de.',
    });
  });
});
