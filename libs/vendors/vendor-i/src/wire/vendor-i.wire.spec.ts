import type { SynthSettings } from '@router/contracts';
import { vendorIErrorMessage, vendorIErrorReply, type VendorIProblem } from './vendor-i.errors';
import {
  readVendorIEvent,
  vendorIChunkEvent,
  vendorIDoneEvent,
  vendorIErrorEvent,
  vendorITimestampsEvent,
} from './vendor-i.events';
import { readVendorIOutputFormat, vendorIOutputFormat } from './vendor-i.formats';
import { parseVendorIRequest, VENDOR_I_API_VERSION, vendorIRequest } from './vendor-i.requests';

const settings: SynthSettings = {
  vendor: 'vendor_i',
  model: 'i_model_2',
  voice: 'voice-1',
  language: 'fr',
  speed: 1.2,
  sampleRate: 24000,
  format: 'pcm',
  options: { volume: 1.5 },
};
const anyVoice = (): boolean => true;
const roundTrip = (event: Record<string, unknown>): Record<string, unknown> =>
  JSON.parse(JSON.stringify(event)) as Record<string, unknown>;

describe('vendor_i wire', () => {
  it.each(['pcm', 'mulaw', 'alaw', 'wav', 'mp3'])(
    'the %s request the adapter builds parses back',
    (format) => {
      const { path, body, timestamps } = vendorIRequest({ ...settings, format }, 'Bonjour');
      const parsed = parseVendorIRequest(roundTrip(body), path === '/tts/sse', anyVoice);
      expect(parsed).toEqual({
        ok: true,
        request: {
          text: 'Bonjour',
          model: 'i_model_2',
          voiceId: 'voice-1',
          language: 'fr',
          spec: { codec: format, sampleRate: 24000, ...(format === 'mp3' ? { bitrateKbps: 128 } : {}) },
          speed: 1.2,
          timestamps,
          contextId: undefined,
        },
      });
    },
  );

  it('reads an output format back into the encoding it was built from, and refuses a container a stream lacks', () => {
    expect(readVendorIOutputFormat(vendorIOutputFormat('mulaw', 8000), true)).toEqual({
      codec: 'mulaw',
      sampleRate: 8000,
    });
    expect(readVendorIOutputFormat(vendorIOutputFormat('wav', 8000), true)).toMatchObject({
      status: 400,
      errorCode: 'invalid_output_format',
      message: 'streaming endpoints accept only the raw container',
    });
  });

  it('a voice the server does not know is its 404', () => {
    const { body } = vendorIRequest(settings, 'x');
    expect(parseVendorIRequest(body, true, () => false)).toMatchObject({
      ok: false,
      problem: { status: 404, errorCode: 'voice_not_found', message: 'Voice voice-1 was not found' },
    });
  });

  it('writes refusals as JSON or text by version, and the adapter reads the message from either', () => {
    const problem: VendorIProblem = {
      status: 429,
      title: 'Too Many Requests',
      message: 'slow',
      errorCode: 'x',
    };
    const json = vendorIErrorReply(problem, VENDOR_I_API_VERSION, 'r1');
    expect(json).toMatchObject({
      kind: 'json',
      body: { status_code: 429, message: 'slow', request_id: 'r1' },
    });
    expect(vendorIErrorMessage(JSON.stringify(json.body))).toBe('slow');
    const text = vendorIErrorReply(problem, '2025-01-01', 'r1');
    expect(text).toEqual({ kind: 'text', body: 'Too Many Requests: slow' });
    expect(vendorIErrorMessage(text.body as string)).toBe('Too Many Requests: slow');
  });

  it('reads back the stream events a server writes', () => {
    const audio = Buffer.from([9, 8, 7]);
    expect(readVendorIEvent('chunk', roundTrip(vendorIChunkEvent(audio, 1.5, { context_id: 'c' })))).toEqual({
      kind: 'audio',
      audio,
    });
    const words = [{ word: 'Bonjour', startMs: 0, endMs: 400 }];
    expect(readVendorIEvent(undefined, roundTrip(vendorITimestampsEvent(words, 1000)))).toEqual({
      kind: 'timestamps',
      wordTimestamps: { words: ['Bonjour'], start: [1], end: [1.4] },
    });
    const problem: VendorIProblem = {
      status: 503,
      title: 'Service Unavailable',
      message: 'busy',
      errorCode: 'x',
    };
    expect(readVendorIEvent('error', roundTrip(vendorIErrorEvent(problem, 'r1')))).toEqual({
      kind: 'error',
      status: 503,
      message: 'busy',
      code: 'x',
    });
    expect(readVendorIEvent('done', roundTrip(vendorIDoneEvent()))).toEqual({ kind: 'done' });
  });
});
