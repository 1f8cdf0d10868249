import type { SynthSettings } from '@router/contracts';
import { vendorCErrorMessage } from './wire/vendor-c.errors';
import { vendorCOutputFormat } from './wire/vendor-c.formats';
import { vendorCRequest } from './wire/vendor-c.settings';

const base: SynthSettings = {
  vendor: 'vendor_c',
  model: 'c_model_3',
  voice: 'voice/1',
  language: null,
  speed: null,
  sampleRate: 44100,
  format: 'mp3',
  options: {
    apply_text_normalization: 'auto',
    enable_ssml_parsing: false,
    enable_logging: true,
    bitrate: '128k',
    sync_alignment: true,
  },
};

describe('vendorCOutputFormat', () => {
  it.each([
    [{ format: 'mp3', sampleRate: 44100, options: { bitrate: '192k' } }, 'mp3_44100_192'],
    [{ format: 'mp3', sampleRate: 24000, options: {} }, 'mp3_24000_48'],
    [{ format: 'mp3', sampleRate: 22050, options: { bitrate: '32k' } }, 'mp3_22050_32'],
    [{ format: 'pcm', sampleRate: 32000, options: {} }, 'pcm_32000'],
    [{ format: 'wav', sampleRate: 8000, options: {} }, 'wav_8000'],
    [{ format: 'mulaw', sampleRate: 8000, options: {} }, 'ulaw_8000'],
    [{ format: 'alaw', sampleRate: 8000, options: {} }, 'alaw_8000'],
  ])('%j → %s', (settings, token) => {
    expect(vendorCOutputFormat({ ...base, ...settings })).toBe(token);
  });

  it('refuses a format the vendor does not make', () => {
    expect(() => vendorCOutputFormat({ ...base, format: 'aac' })).toThrow(
      expect.objectContaining({ code: 'bad_request' }),
    );
  });
});

describe('vendorCRequest', () => {
  it('asks the timestamped stream, leaves out the unset language and keeps endpoint options out of the body', () => {
    const { path, body, timestamps } = vendorCRequest(base, 'Hi.');
    expect(timestamps).toBe(true);
    expect(path).toBe(
      '/v1/text-to-speech/voice%2F1/stream/with-timestamps?output_format=mp3_44100_128&enable_logging=true',
    );
    expect(body).toEqual({ text: 'Hi.', model_id: 'c_model_3', apply_text_normalization: 'auto' });
  });

  it('streams raw audio without sync_alignment', () => {
    const { path, timestamps } = vendorCRequest(
      { ...base, options: { ...base.options, sync_alignment: false } },
      'Hi.',
    );
    expect(timestamps).toBe(false);
    expect(path.startsWith('/v1/text-to-speech/voice%2F1/stream?')).toBe(true);
  });
});

describe('vendorCErrorMessage', () => {
  it('reads detail.message, a schema error list, a plain detail, else the body', () => {
    expect(vendorCErrorMessage('{"detail":{"status":"invalid_api_key","message":"Invalid API key"}}')).toBe(
      'Invalid API key',
    );
    expect(
      vendorCErrorMessage(
        '{"detail":[{"loc":["body","text"],"msg":"field required","type":"value_error.missing"}]}',
      ),
    ).toBe('body.text: field required');
    expect(vendorCErrorMessage('{"detail":"Not Found"}')).toBe('Not Found');
    expect(vendorCErrorMessage('<html>502</html>')).toBe('<html>502</html>');
  });
});
