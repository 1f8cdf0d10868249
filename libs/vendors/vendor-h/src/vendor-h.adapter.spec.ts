import type { SynthSettings } from '@router/contracts';
import { vendorHErrorMessage } from './wire/vendor-h.errors';
import { vendorHBody } from './wire/vendor-h.requests';

const base: SynthSettings = {
  vendor: 'vendor_h',
  model: 'h_model_2',
  voice: 'h2_voice_f1',
  language: 'hi',
  speed: 1.5,
  sampleRate: 8000,
  format: 'wav',
  options: {},
};

describe('vendorHBody', () => {
  it('maps the settings onto the vendor fields', () => {
    expect(vendorHBody(base, 'Namaste')).toEqual({
      text: 'Namaste',
      voice_id: 'h2_voice_f1',
      model: 'h_model_2',
      language: 'hi',
      sample_rate: 8000,
      speed: 1.5,
      output_format: 'wav',
    });
  });

  it('fills the vendor defaults for a missing language and speed', () => {
    expect(vendorHBody({ ...base, language: null, speed: null, format: 'pcm' }, 'Hi')).toMatchObject({
      language: 'en',
      speed: 1.0,
      output_format: 'pcm',
    });
  });

  it('refuses a format the vendor does not have', () => {
    expect(() => vendorHBody({ ...base, format: 'mp3' }, 'x')).toThrow(
      expect.objectContaining({ code: 'bad_request' }),
    );
  });
});

describe('vendorHErrorMessage', () => {
  it('reads {error}, then {error: {message}}, then the raw body', () => {
    expect(vendorHErrorMessage('{"error":"voice_id not found"}')).toBe('voice_id not found');
    expect(vendorHErrorMessage('{"status":"error","error":{"message":"bad rate","code":400}}')).toBe(
      'bad rate',
    );
    expect(vendorHErrorMessage('Bad Gateway')).toBe('Bad Gateway');
  });
});
