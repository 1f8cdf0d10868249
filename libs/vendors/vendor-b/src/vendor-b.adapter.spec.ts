import type { SynthSettings } from '@router/contracts';
import { vendorBErrorMessage } from './wire/vendor-b.errors';
import { vendorBBody } from './wire/vendor-b.requests';

const base: SynthSettings = {
  vendor: 'vendor_b',
  model: 'b_model_1',
  voice: 'b_voice_hi_f1',
  language: 'hi',
  speed: 1.2,
  sampleRate: 8000,
  format: 'mulaw',
  options: {},
};

describe('vendorBBody', () => {
  it('maps the settings onto the vendor fields', () => {
    expect(vendorBBody(base, 'Namaste')).toEqual({
      text: 'Namaste',
      voice_id: 'b_voice_hi_f1',
      language: 'hi',
      model: 'b_model_1',
      codec: 'mulaw',
      sample_rate: 8000,
      speed: 1.2,
    });
  });

  it('refuses a codec the vendor does not have', () => {
    expect(() => vendorBBody({ ...base, format: 'mp3' }, 'x')).toThrow(
      expect.objectContaining({ code: 'bad_request' }),
    );
  });
});

describe('vendorBErrorMessage', () => {
  it('reads the application error, then the gateway message, then the raw body', () => {
    expect(vendorBErrorMessage('{"error":{"code":"invalid_voice","message":"voice_id not found"}}')).toBe(
      'voice_id not found',
    );
    expect(vendorBErrorMessage('{"message":"Invalid authentication credentials","request_id":"x"}')).toBe(
      'Invalid authentication credentials',
    );
    expect(vendorBErrorMessage('Bad Gateway')).toBe('Bad Gateway');
  });
});
