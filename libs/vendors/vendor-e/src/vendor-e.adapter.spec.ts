import type { SynthSettings } from '@router/contracts';
import { vendorEErrorMessage } from './wire/vendor-e.errors';
import { vendorERequest } from './wire/vendor-e.requests';

const base: SynthSettings = {
  vendor: 'vendor_e',
  model: 'e_model_2',
  voice: 'marisol-es',
  language: null,
  speed: 1.1,
  sampleRate: 16000,
  format: 'pcm',
  options: { mip_opt_out: false },
};

function query(path: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(path.split('?')[1]));
}

describe('vendorERequest', () => {
  it('names the voice model, and asks for raw linear16 at the rate for pcm', () => {
    const request = vendorERequest(base, 'Hola.');
    expect(request.path.startsWith('/v1/speak?')).toBe(true);
    expect(query(request.path)).toEqual({
      model: 'e_model_2-marisol-es',
      encoding: 'linear16',
      container: 'none',
      sample_rate: '16000',
      speed: '1.1',
      mip_opt_out: 'false',
    });
    expect(request.body).toEqual({ text: 'Hola.' });
  });

  it('asks for WAV as linear16 in a wav container, and G.711 raw', () => {
    expect(query(vendorERequest({ ...base, format: 'wav' }, 'x').path)).toMatchObject({
      encoding: 'linear16',
      container: 'wav',
    });
    expect(query(vendorERequest({ ...base, format: 'alaw', sampleRate: 8000 }, 'x').path)).toMatchObject({
      encoding: 'alaw',
      container: 'none',
      sample_rate: '8000',
    });
  });

  it('sends mp3 with its rate and bit rate and no container', () => {
    const q = query(vendorERequest({ ...base, format: 'mp3', options: { bit_rate: 32000 } }, 'x').path);
    expect(q).toEqual({
      model: 'e_model_2-marisol-es',
      encoding: 'mp3',
      sample_rate: '16000',
      speed: '1.1',
      bit_rate: '32000',
    });
  });

  it("sends an option the catalogue lacks (a mirror client's expressivity) as sent, never over a setting", () => {
    const options = { mip_opt_out: false, expressivity: -1, model: 'another', bit_rate: 32000 };
    const q = query(vendorERequest({ ...base, model: 'e_model_3', voice: 'wren-en', options }, 'x').path);
    expect(q).toMatchObject({ model: 'e_model_3-wren-en', expressivity: '-1' });
    expect(q).not.toHaveProperty('bit_rate');
  });

  it('sends the second-generation model to /v2/speak', () => {
    const request = vendorERequest({ ...base, model: 'e_model_3', voice: 'wren-en', speed: null }, 'x');
    expect(request.path.startsWith('/v2/speak?')).toBe(true);
    expect(query(request.path)).toMatchObject({ model: 'e_model_3-wren-en', speed: '1' });
  });

  it('refuses a format the vendor lacks', () => {
    expect(() => vendorERequest({ ...base, format: 'aac' }, 'x')).toThrow(
      expect.objectContaining({ code: 'bad_request' }),
    );
  });
});

describe('vendorEErrorMessage', () => {
  it('reads err_msg, then message, then the raw body', () => {
    expect(
      vendorEErrorMessage('{"err_code":"INVALID_AUTH","err_msg":"Invalid credentials.","request_id":"x"}'),
    ).toBe('Invalid credentials.');
    expect(vendorEErrorMessage('{"category":"x","message":"Bad model","details":"","request_id":"y"}')).toBe(
      'Bad model',
    );
    expect(vendorEErrorMessage('Service Unavailable')).toBe('Service Unavailable');
  });
});
