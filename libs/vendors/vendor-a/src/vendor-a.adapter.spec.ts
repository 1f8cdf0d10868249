import type { SynthSettings } from '@router/contracts';
import { VendorAAdapter } from './vendor-a.adapter';
import { vendorAErrorMessage } from './wire/vendor-a.errors';
import { vendorARequest } from './wire/vendor-a.requests';

const base: SynthSettings = {
  vendor: 'vendor_a',
  model: 'a_model_1',
  voice: 'aarila',
  language: 'hi-IN',
  speed: 1.0,
  sampleRate: 24000,
  format: 'pcm',
  options: { temperature: 0.6 },
};

describe('vendorARequest', () => {
  it('streams up to 24000 Hz and names raw PCM linear16', () => {
    const { path, body } = vendorARequest(base, 'Namaste');
    expect(path).toBe('/text-to-speech/stream');
    expect(body).toEqual({
      text: 'Namaste',
      target_language_code: 'hi-IN',
      speaker: 'aarila',
      model: 'a_model_1',
      pace: 1.0,
      speech_sample_rate: 24000,
      output_audio_codec: 'linear16',
      temperature: 0.6,
    });
  });

  it('uses the one-shot endpoint above 24000 Hz and sends bitrate as output_audio_bitrate', () => {
    const { path, body } = vendorARequest(
      { ...base, format: 'mp3', sampleRate: 32000, options: { bitrate: '128k' } },
      'x',
    );
    expect(path).toBe('/text-to-speech');
    expect(body).toMatchObject({ output_audio_codec: 'mp3', output_audio_bitrate: '128k' });
    expect(body).not.toHaveProperty('bitrate');
  });

  it('leaves out options that are null', () => {
    expect(vendorARequest({ ...base, options: { dict_id: null } }, 'x').body).not.toHaveProperty('dict_id');
  });

  it('refuses a format the vendor has no codec for', () => {
    expect(() => vendorARequest({ ...base, format: 'ogg' }, 'x')).toThrow(
      expect.objectContaining({ code: 'bad_request' }),
    );
  });
});

describe('vendorAErrorMessage', () => {
  it('reads error.message, then detail, then the raw body', () => {
    expect(
      vendorAErrorMessage('{"error":{"message":"speaker not valid","code":"invalid_request_error"}}'),
    ).toBe('speaker not valid');
    expect(vendorAErrorMessage('{"detail":"Not Found"}')).toBe('Not Found');
    expect(vendorAErrorMessage('upstream connect error')).toBe('upstream connect error');
  });
});

describe('VendorAAdapter', () => {
  it('ends with the reason of a signal aborted before the call, without calling the vendor', async () => {
    const adapter = new VendorAAdapter({ baseUrl: 'http://127.0.0.1:9/vendor_a' });
    const abort = new AbortController();
    const reason = new Error('gone');
    abort.abort(reason);
    const events = adapter.synthesize({ apiKey: 'k', settings: base, text: 'x', signal: abort.signal });
    await expect(events[Symbol.asyncIterator]().next()).rejects.toBe(reason);
    await adapter.close();
  });

  it('names the content type of the native format', () => {
    const adapter = new VendorAAdapter({ baseUrl: 'http://127.0.0.1:9/vendor_a/' });
    expect(adapter.contentType({ ...base, format: 'aac' })).toBe('audio/aac');
    expect(adapter.contentType({ ...base, format: 'pcm' })).toBe('audio/pcm');
    return adapter.close();
  });
});

describe('VendorAAdapter.listVoices', () => {
  const adapter = new VendorAAdapter({ baseUrl: 'http://127.0.0.1:9/vendor_a' });
  afterAll(() => adapter.close());
  const request = (model?: string) => ({
    apiKey: 'k',
    signal: new AbortController().signal,
    ...(model ? { model } : {}),
  });

  it("lists the catalogue's 37 speakers with gender and the personas with their recording language", async () => {
    const all = await adapter.listVoices(request());
    const speakers = await adapter.listVoices(request('a_model_1'));
    const personas = await adapter.listVoices(request('a_model_2'));
    expect(speakers).toHaveLength(37);
    expect(all).toHaveLength(37 + personas.length);
    expect(speakers.every((v) => v.gender !== null && v.languages.length === 11)).toBe(true);
    expect(personas.every((v) => v.languages.length === 1 && v.models.join() === 'a_model_2')).toBe(true);
    expect(
      all.every((v) => v.category === 'builtin' && v.provider_data === null && v.preview_url === null),
    ).toBe(true);
  });
});
