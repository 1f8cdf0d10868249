import { resolveSettings } from '@router/vendors-core';
import { vendorG } from '../vendor-g.definition';
import { vendorGSynthSettings } from './vendor-g.settings';

const settingsOf = (fields: Record<string, unknown>) => {
  const result = vendorGSynthSettings({ stream_id: 's1', ...fields });
  if (!result.ok) throw new Error(`refused: ${result.problem.message}`);
  return result.settings;
};

const problemOf = (fields: Record<string, unknown>) => {
  const result = vendorGSynthSettings({ stream_id: 's1', ...fields });
  if (result.ok) throw new Error('accepted');
  return result.problem;
};

describe('vendor_g stream settings', () => {
  it("are a /v1/stream client's SynthSettings for equal settings", () => {
    const native = resolveSettings(
      vendorG,
      { model: 'g_model_3', voice: 'Maren', language: 'de', format: 'pcm', sampleRate: 16000, options: {} },
      'stream',
    );
    const config = {
      model: 'g_model_3',
      language: 'de',
      voice: 'Maren',
      audio_format: 'pcm_s16le',
      sample_rate: 16000,
    };
    expect(settingsOf(config)).toEqual(native);
    // The vendor's own defaults spelled out change nothing: speed 1.0, reduce_silence false.
    expect(settingsOf({ ...config, speed: 1.0, reduce_silence: false })).toEqual(native);
    const silent = resolveSettings(
      vendorG,
      {
        model: 'g_model_1',
        voice: 'Maren',
        language: 'en',
        format: 'mulaw',
        sampleRate: 8000,
        speed: 0.8,
        options: { reduce_silence: true },
      },
      'stream',
    );
    expect(
      settingsOf({
        model: 'g_model_1',
        language: 'en',
        voice: 'Maren',
        audio_format: 'pcm_mulaw',
        sample_rate: 8000,
        speed: 0.8,
        reduce_silence: true,
      }),
    ).toEqual(silent);
  });

  it("fill the vendor's defaults: left out and spelled out are one", () => {
    expect(settingsOf({ voice: 'Maren' })).toEqual(
      settingsOf({
        voice: 'Maren',
        model: 'g_model_3',
        language: 'en',
        audio_format: 'wav',
        sample_rate: 24000,
        speed: 1.0,
        reduce_silence: false,
        return_timestamps: false,
      }),
    );
    expect(settingsOf({ voice: 'Maren', model: null, language: null })).toEqual(
      settingsOf({ voice: 'Maren' }),
    );
    expect(settingsOf({ voice: 'Maren' })).toMatchObject({ format: 'wav', sampleRate: 24000, speed: 1 });
  });

  it.each([
    { audio_format: 'opus', sample_rate: 48000, format: 'opus', rate: 48000 },
    { audio_format: 'aac', sample_rate: undefined, format: 'aac', rate: 24000 },
    { audio_format: 'flac', sample_rate: 16000, format: 'flac', rate: 16000 },
    { audio_format: 'pcm_f32le', sample_rate: 22050, format: 'pcm_f32le', rate: 22050 },
    { audio_format: 'pcm_s16be', sample_rate: 8000, format: 'pcm_s16be', rate: 8000 },
    { audio_format: 'wav', sample_rate: 22050, format: 'wav', rate: 22050 },
  ])(
    'keep $audio_format (rate $rate), a format or rate the catalogue lacks, under its own name and rate',
    ({ audio_format, sample_rate, format, rate }) => {
      const settings = settingsOf({ voice: 'Maren', audio_format, sample_rate });
      expect(settings).toMatchObject({ vendor: 'vendor_g', model: 'g_model_3', format, sampleRate: rate });
    },
  );

  it('send bitrate and fields the router does not know on as options; timestamps and reference ids not', () => {
    const settings = settingsOf({
      voice: 'Maren',
      audio_format: 'mp3',
      bitrate: 64000,
      style_hint: 'calm',
      return_timestamps: true,
      client_reference_id: 'call-17',
    });
    expect(settings.options).toEqual({ bitrate: 64000, style_hint: 'calm' });
  });

  it.each([
    { fields: { audio_format: 'pcm_s16le' }, field: 'sample_rate' },
    { fields: { speed: 1.5 }, field: 'speed' },
    { fields: { model: 'g_model_beta' }, field: 'model' },
    { fields: { language: 'xx' }, field: 'language' },
    { fields: { audio_format: 'speex' }, field: 'audio_format' },
    { fields: { reduce_silence: 'yes' }, field: 'reduce_silence' },
    { fields: { voice: undefined }, field: 'voice' },
  ])('refuse what the vendor refuses in its words ($field)', ({ fields, field }) => {
    const problem = problemOf({ voice: 'Maren', ...fields });
    expect(problem).toMatchObject({ status: 400, errorType: 'invalid_request' });
    expect(problem.validationErrors?.[0]?.field).toBe(field);
  });
});
