import type { SynthSettings } from '@router/contracts';
import { WordTrack } from './vendor-i.adapter';
import { vendorIErrorCode, vendorIErrorMessage } from './wire/vendor-i.errors';
import { VENDOR_I_BYTES_PATH, VENDOR_I_SSE_PATH, vendorIRequest } from './wire/vendor-i.requests';

const base: SynthSettings = {
  vendor: 'vendor_i',
  model: 'i_model_2',
  voice: 'voice-uuid',
  language: 'en',
  speed: null,
  sampleRate: 16000,
  format: 'pcm',
  options: { word_timestamps: true },
};

describe('vendorIRequest', () => {
  it('streams raw formats over SSE with timestamps, and only the settings that are set', () => {
    expect(vendorIRequest(base, 'Hello')).toEqual({
      path: VENDOR_I_SSE_PATH,
      timestamps: true,
      body: {
        model_id: 'i_model_2',
        transcript: 'Hello',
        voice: { mode: 'id', id: 'voice-uuid' },
        language: 'en',
        output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 16000 },
        add_timestamps: true,
      },
    });
  });

  it('puts speed, volume and emotion in generation_config and keeps the dictionary id', () => {
    const { body } = vendorIRequest(
      {
        ...base,
        speed: 0.8,
        format: 'mulaw',
        sampleRate: 8000,
        options: { word_timestamps: false, volume: 1.5, emotion: 'calm', pronunciation_dict_id: 'dict-1' },
      },
      'Hi',
    );
    expect(body).toEqual({
      model_id: 'i_model_2',
      transcript: 'Hi',
      voice: { mode: 'id', id: 'voice-uuid' },
      language: 'en',
      output_format: { container: 'raw', encoding: 'pcm_mulaw', sample_rate: 8000 },
      generation_config: { speed: 0.8, volume: 1.5, emotion: 'calm' },
      pronunciation_dict_id: 'dict-1',
    });
  });

  it('asks the one-shot endpoint for wav and mp3, without timestamps', () => {
    expect(vendorIRequest({ ...base, format: 'wav' }, 'x')).toMatchObject({
      path: VENDOR_I_BYTES_PATH,
      timestamps: false,
      body: { output_format: { container: 'wav', encoding: 'pcm_s16le', sample_rate: 16000 } },
    });
    const mp3 = vendorIRequest({ ...base, format: 'mp3', sampleRate: 44100, options: {} }, 'x');
    expect(mp3.path).toBe(VENDOR_I_BYTES_PATH);
    expect(mp3.body['output_format']).toEqual({ container: 'mp3', sample_rate: 44100, bit_rate: 128000 });
    expect(mp3.body).not.toHaveProperty('add_timestamps');
  });

  it('leaves language out when there is none and refuses a format the vendor lacks', () => {
    expect(vendorIRequest({ ...base, language: null }, 'x').body).not.toHaveProperty('language');
    expect(() => vendorIRequest({ ...base, format: 'aac' }, 'x')).toThrow(
      expect.objectContaining({ code: 'bad_request' }),
    );
  });
});

describe('vendorIErrorMessage', () => {
  it('reads the JSON message, else the plain Title: Message body', () => {
    expect(
      vendorIErrorMessage('{"status_code":400,"title":"Invalid voice","message":"Voice x was not found"}'),
    ).toBe('Voice x was not found');
    expect(vendorIErrorMessage('Unauthorized: Invalid API key.')).toBe('Unauthorized: Invalid API key.');
  });

  it('reads the JSON error_code, and none from a plain-text body', () => {
    expect(vendorIErrorCode('{"status_code":404,"error_code":"voice_not_found","message":"x"}')).toBe(
      'voice_not_found',
    );
    expect(vendorIErrorCode('{"status_code":404,"error_code":7}')).toBeUndefined();
    expect(vendorIErrorCode('Unauthorized: Invalid API key.')).toBeUndefined();
  });
});

describe('WordTrack', () => {
  it('finds each word in the text in order, across events, in UTF-16 offsets and milliseconds', () => {
    const text = 'Hi, 🙂 there you, there!';
    const track = new WordTrack(text);
    track.add({ words: ['Hi,', '🙂', 'there'], start: [0, 0.2, 0.45], end: [0.2, 0.4, 0.7] });
    track.add({ words: ['you,', 'there!'], start: [0.7, 0.9], end: [0.9, 1.2] });
    expect(track.words()).toEqual([
      { start: 0, end: 3, startMs: 0, endMs: 200 },
      { start: 4, end: 6, startMs: 200, endMs: 400 },
      { start: 7, end: 12, startMs: 450, endMs: 700 },
      { start: 13, end: 17, startMs: 700, endMs: 900 },
      { start: 18, end: 24, startMs: 900, endMs: 1200 },
    ]);
  });

  it('gives a word the text does not spell the next whitespace-separated run', () => {
    const track = new WordTrack('Pay 12 now');
    track.add({ words: ['Pay', 'twelve', 'now'], start: [0, 0.3, 0.8], end: [0.3, 0.8, 1] });
    expect(track.words().map((w) => [w.start, w.end])).toEqual([
      [0, 3],
      [4, 6],
      [7, 10],
    ]);
  });

  it('ignores malformed timestamps', () => {
    const track = new WordTrack('Hello');
    track.add(null);
    track.add({ words: 'Hello', start: [0], end: [1] });
    expect(track.words()).toEqual([]);
  });
});
