import type { SynthSettings } from '@router/contracts';
import { VendorDAdapter } from './vendor-d.adapter';
import { vendorDErrorMessage } from './wire/vendor-d.errors';
import { vendorDBody } from './wire/vendor-d.requests';

const base: SynthSettings = {
  vendor: 'vendor_d',
  model: 'd_model_3',
  voice: 'brook',
  language: null,
  speed: 1.25,
  sampleRate: 24000,
  format: 'wav',
  options: { instructions: 'Cheerful.' },
};

describe('vendorDBody', () => {
  it('maps the settings onto the vendor fields, streaming raw audio', () => {
    expect(vendorDBody(base, 'Hello there.')).toEqual({
      model: 'd_model_3',
      voice: 'brook',
      input: 'Hello there.',
      response_format: 'wav',
      speed: 1.25,
      stream_format: 'audio',
      instructions: 'Cheerful.',
    });
  });

  it('sends no instructions to the older models, nor a null one', () => {
    expect(vendorDBody({ ...base, model: 'd_model_1' }, 'x')).not.toHaveProperty('instructions');
    expect(vendorDBody({ ...base, options: { instructions: null } }, 'x')).not.toHaveProperty('instructions');
  });

  it('fills the default speed', () => {
    expect(vendorDBody({ ...base, speed: null }, 'x')['speed']).toBe(1.0);
  });

  it.each([
    ['a format it lacks', { format: 'mulaw' }],
    ['a rate other than 24000', { sampleRate: 16000 }],
  ])('refuses %s', (_label, patch) => {
    expect(() => vendorDBody({ ...base, ...patch }, 'x')).toThrow(
      expect.objectContaining({ code: 'bad_request' }),
    );
  });
});

describe('vendorDErrorMessage', () => {
  it('reads error.message, else passes the body through', () => {
    expect(
      vendorDErrorMessage(
        '{"error":{"message":"Incorrect API key provided.","type":"invalid_request_error"}}',
      ),
    ).toBe('Incorrect API key provided.');
    expect(vendorDErrorMessage('upstream connect error')).toBe('upstream connect error');
  });
});

describe('VendorDAdapter.listVoices', () => {
  it('lists the 13 catalogue voices for every model, builtin, without gender or languages', async () => {
    const adapter = new VendorDAdapter({ baseUrl: 'http://127.0.0.1:9/vendor_d' });
    const voices = await adapter.listVoices({ apiKey: 'k', signal: new AbortController().signal });
    expect(voices).toHaveLength(13);
    expect(voices[0]).toEqual({
      id: 'brook',
      name: 'Brook',
      provider: 'vendor_d',
      models: ['d_model_1', 'd_model_2', 'd_model_3', 'd_model_4'],
      languages: [],
      gender: null,
      accent: null,
      age: null,
      description: null,
      preview_url: null,
      category: 'builtin',
      provider_data: null,
    });
    await adapter.close();
  });
});
