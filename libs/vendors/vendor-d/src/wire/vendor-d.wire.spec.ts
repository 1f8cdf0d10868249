import type { SynthSettings } from '@router/contracts';
import { vendorDAuthProblem, vendorDErrorBody, vendorDErrorMessage } from './vendor-d.errors';
import { VENDOR_D_ROUTER_FORMATS } from './vendor-d.formats';
import {
  parseVendorDRequest,
  VENDOR_D_DEFAULTS,
  vendorDAnswersEvents,
  vendorDBody,
} from './vendor-d.requests';
import {
  VENDOR_D_STREAM_END,
  vendorDDeltaEvent,
  vendorDDoneEvent,
  vendorDErrorEvent,
  vendorDEventKind,
} from './vendor-d.stream';

const settings: SynthSettings = {
  vendor: 'vendor_d',
  model: 'd_model_3',
  voice: 'brook',
  language: null,
  speed: 1.5,
  sampleRate: 24000,
  format: 'mp3',
  options: { instructions: 'Warmly' },
};
const json = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('vendor_d wire', () => {
  it.each([...VENDOR_D_ROUTER_FORMATS])(
    'the %s body the adapter builds parses back to its settings',
    (format) => {
      expect(parseVendorDRequest(json(vendorDBody({ ...settings, format }, 'Hello')))).toEqual({
        ok: true,
        request: {
          model: 'd_model_3',
          input: 'Hello',
          voice: 'brook',
          spec: { codec: format, sampleRate: 24000 },
          speed: 1.5,
          streamFormat: 'audio',
        },
      });
    },
  );

  it('an older model gets no instructions, and answers audio when asked for SSE', () => {
    const body = vendorDBody({ ...settings, model: 'd_model_1' }, 'Hello');
    expect(body).not.toHaveProperty('instructions');
    const parsed = parseVendorDRequest({ ...body, stream_format: 'sse' });
    if (!parsed.ok) throw new Error('expected the request to parse');
    expect(parsed.request.streamFormat).toBe('sse');
    expect(vendorDAnswersEvents(parsed.request)).toBe(false);
    expect(vendorDAnswersEvents({ model: 'd_model_3', streamFormat: 'sse' })).toBe(true);
    expect(vendorDAnswersEvents({ model: 'd_model_3', streamFormat: 'audio' })).toBe(false);
  });

  it('reads a field left out, and only that, as its default', () => {
    const parsed = parseVendorDRequest({ model: 'd_model_3', voice: 'brook', input: 'Hi.' });
    if (!parsed.ok) throw new Error('expected the request to parse');
    expect(parsed.request).toMatchObject({
      spec: { codec: VENDOR_D_DEFAULTS.response_format },
      speed: VENDOR_D_DEFAULTS.speed,
      streamFormat: VENDOR_D_DEFAULTS.stream_format,
    });
    expect(VENDOR_D_DEFAULTS).toEqual({ response_format: 'mp3', speed: 1, stream_format: 'audio' });
  });

  it('reads back the refusals a server writes, with all four fields present', () => {
    const problem = vendorDAuthProblem('invalid');
    const body = vendorDErrorBody(problem);
    expect(body).toEqual({
      error: {
        message: 'Incorrect API key provided.',
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    });
    expect(vendorDErrorMessage(JSON.stringify(body))).toBe(problem.message);
  });

  it('tells the kind of each SSE event a server writes, the sentinel and what it cannot read', () => {
    const kinds = [
      vendorDDeltaEvent(Buffer.from('audio')),
      vendorDDoneEvent('Hello', 500),
      vendorDErrorEvent(vendorDAuthProblem('invalid')),
    ].map((event) => vendorDEventKind(JSON.stringify(event)));
    expect(kinds).toEqual(['delta', 'done', 'error']);
    expect(vendorDEventKind(VENDOR_D_STREAM_END)).toBe('end');
    expect(vendorDEventKind('{"error":{"message":"Failed."}}')).toBe('error');
    expect(vendorDEventKind('{"type":"speech.audio.transcript"}')).toBe('other');
    for (const data of ['not json', '[1]', 'null', '{"type":"speech.audio.delta"']) {
      expect(vendorDEventKind(data)).toBe('unreadable');
    }
  });

  it('writes SSE usage and errors in the vendor shape', () => {
    expect(vendorDDoneEvent('abcdefgh', 1000)).toEqual({
      type: 'speech.audio.done',
      usage: { input_tokens: 2, output_tokens: 50, total_tokens: 52 },
    });
    expect(vendorDErrorEvent(vendorDAuthProblem('missing'))).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error' },
    });
  });
});
