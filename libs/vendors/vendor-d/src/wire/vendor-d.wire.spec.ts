import type { SynthSettings } from '@router/contracts';
import { vendorDAuthProblem, vendorDErrorBody, vendorDErrorMessage } from './vendor-d.errors';
import { VENDOR_D_ROUTER_FORMATS } from './vendor-d.formats';
import { parseVendorDRequest, vendorDBody } from './vendor-d.requests';
import { vendorDDoneEvent, vendorDErrorEvent } from './vendor-d.stream';

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

  it('an older model gets no instructions, and refuses SSE', () => {
    const body = vendorDBody({ ...settings, model: 'd_model_1' }, 'Hello');
    expect(body).not.toHaveProperty('instructions');
    expect(parseVendorDRequest({ ...body, stream_format: 'sse' })).toEqual({
      ok: false,
      problem: {
        status: 400,
        type: 'invalid_request_error',
        param: 'stream_format',
        code: null,
        message: "stream_format 'sse' is not supported for model 'd_model_1'.",
      },
    });
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
