import type { SynthSettings } from '@router/contracts';
import { vendorGErrorMessage } from './wire/vendor-g.errors';
import { vendorGBody } from './wire/vendor-g.requests';

const base: SynthSettings = {
  vendor: 'vendor_g',
  model: 'g_model_3',
  voice: 'Maren',
  language: 'en',
  speed: 0.9,
  sampleRate: 16000,
  format: 'pcm',
  options: {},
};

describe('vendorGBody', () => {
  it('maps the settings onto the vendor fields, pcm as raw s16le with its rate', () => {
    expect(vendorGBody(base, 'Hello')).toEqual({
      text: 'Hello',
      model: 'g_model_3',
      language: 'en',
      voice: 'Maren',
      audio_format: 'pcm_s16le',
      sample_rate: 16000,
      speed: 0.9,
    });
  });

  it.each([
    ['mulaw', 'pcm_mulaw'],
    ['alaw', 'pcm_alaw'],
    ['wav', 'wav'],
    ['mp3', 'mp3'],
  ])('names %s as %s', (format, audioFormat) => {
    expect(vendorGBody({ ...base, format }, 'x')['audio_format']).toBe(audioFormat);
  });

  it('sends reduce_silence only when it is set, and speed 1.0 when left out', () => {
    expect(vendorGBody({ ...base, options: { reduce_silence: null }, speed: null }, 'x')).not.toHaveProperty(
      'reduce_silence',
    );
    expect(vendorGBody({ ...base, speed: null }, 'x')['speed']).toBe(1.0);
    expect(vendorGBody({ ...base, options: { reduce_silence: false } }, 'x')['reduce_silence']).toBe(false);
    expect(vendorGBody({ ...base, options: { reduce_silence: true } }, 'x')['reduce_silence']).toBe(true);
  });

  it('refuses a format the vendor does not have', () => {
    expect(() => vendorGBody({ ...base, format: 'speex' }, 'x')).toThrow(
      expect.objectContaining({ code: 'bad_request' }),
    );
  });

  it('sends the options a mirror client set that the catalogue lacks under their own names, nulls left out', () => {
    const body = vendorGBody({ ...base, format: 'opus', options: { bitrate: 32000, x_unknown: null } }, 'x');
    expect(body).toMatchObject({ audio_format: 'opus', bitrate: 32000 });
    expect(body).not.toHaveProperty('x_unknown');
  });
});

describe('vendorGErrorMessage', () => {
  it('reads {message}, else the raw body', () => {
    expect(
      vendorGErrorMessage('{"status_code":400,"error_type":"invalid_request","message":"Unknown voice"}'),
    ).toBe('Unknown voice');
    expect(vendorGErrorMessage('upstream connect error')).toBe('upstream connect error');
  });
});
