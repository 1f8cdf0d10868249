import type { SynthSettings } from '@router/contracts';
import { vendorFErrorMessage } from './wire/vendor-f.errors';
import { vendorFBody } from './wire/vendor-f.requests';

const base: SynthSettings = {
  vendor: 'vendor_f',
  model: 'f_model_1',
  voice: 'coral',
  language: 'de',
  speed: 0.9,
  sampleRate: 44100,
  format: 'mp3',
  options: { bit_rate: 64000, optimize_streaming_latency: 1, text_normalization: true },
};

describe('vendorFBody', () => {
  it('maps the settings onto the vendor fields, with the mp3 bit rate in output_format', () => {
    expect(vendorFBody(base, 'Guten Tag.')).toEqual({
      text: 'Guten Tag.',
      voice_id: 'coral',
      language: 'de',
      output_format: { codec: 'mp3', sample_rate: 44100, bit_rate: 64000 },
      speed: 0.9,
      optimize_streaming_latency: 1,
      text_normalization: true,
    });
  });

  it('lets the vendor detect the language, and leaves unset options and non-mp3 bit rates out', () => {
    const body = vendorFBody(
      {
        ...base,
        language: null,
        speed: null,
        format: 'pcm',
        sampleRate: 16000,
        options: { bit_rate: 128000, optimize_streaming_latency: null, text_normalization: null },
      },
      'x',
    );
    expect(body).toEqual({
      text: 'x',
      voice_id: 'coral',
      language: 'auto',
      output_format: { codec: 'pcm', sample_rate: 16000 },
      speed: 1.0,
    });
  });

  it('refuses a format the vendor lacks', () => {
    expect(() => vendorFBody({ ...base, format: 'aac' }, 'x')).toThrow(
      expect.objectContaining({ code: 'bad_request' }),
    );
  });
});

describe('vendorFErrorMessage', () => {
  it('reads the gateway error, then a message, then the raw body', () => {
    expect(vendorFErrorMessage('{"code":"Unauthorized","error":"incorrect API key provided"}')).toBe(
      'incorrect API key provided',
    );
    expect(vendorFErrorMessage('{"message":"invalid voice"}')).toBe('invalid voice');
    expect(vendorFErrorMessage('<html>502</html>')).toBe('<html>502</html>');
  });
});
