import type { SynthSettings } from '@router/contracts';
import { vendorA } from '../vendor-a.definition';
import { VENDOR_A_AUTH_PROBLEM, vendorAErrorBody, vendorAErrorMessage } from './vendor-a.errors';
import { vendorACodec, vendorACodecName } from './vendor-a.formats';
import { parseVendorASettings, vendorARequest } from './vendor-a.requests';
import { readVendorAOneShotAudio, vendorAOneShotBody } from './vendor-a.responses';
import { readVendorAClientMessage, vendorAConfigMessage, vendorATextMessage } from './vendor-a.socket';

const base: SynthSettings = {
  vendor: 'vendor_a',
  model: 'a_model_2',
  voice: 'ilmathi',
  language: 'ta-IN',
  speed: 1.25,
  sampleRate: 22050,
  format: 'mp3',
  options: { pitch: 0.2, bitrate: '64k' },
};

describe('vendor_a wire', () => {
  it.each(vendorA.catalogue.formats)(
    'the request the adapter builds for %s parses back to its settings',
    (format) => {
      const settings = { ...base, format };
      const { path, body } = vendorARequest(settings, 'Vanakkam');
      const parsed = parseVendorASettings(body, path === '/text-to-speech' ? 'rest' : 'stream');
      expect(parsed).toMatchObject({
        ok: true,
        settings: {
          model: 'a_model_2',
          speaker: 'ilmathi',
          language: 'ta-IN',
          pace: 1.25,
          spec: { codec: format, sampleRate: 22050 },
        },
      });
      expect(body['text']).toBe('Vanakkam');
    },
  );

  it('a REST-only rate goes to the one-shot endpoint, which accepts it, and the stream endpoint refuses it', () => {
    const { path, body } = vendorARequest({ ...base, sampleRate: 44100 }, 'x');
    expect(path).toBe('/text-to-speech');
    expect(parseVendorASettings(body, 'rest')).toMatchObject({
      ok: true,
      settings: { spec: { bitrateKbps: 128 } },
    });
    expect(parseVendorASettings(body, 'stream')).toEqual({
      ok: false,
      problem: {
        status: 400,
        code: 'invalid_request_error',
        message: 'speech_sample_rate 44100 is only available on the REST endpoint',
      },
    });
  });

  it('maps codec tokens both ways', () => {
    for (const format of vendorA.catalogue.formats) {
      const token = vendorACodecName(format);
      expect(token).toBeDefined();
      expect(vendorACodec(token as string)).toBe(format);
    }
    expect(vendorACodecName('pcm')).toBe('linear16');
    expect(vendorACodec('pcm')).toBeUndefined();
    expect(vendorACodec('opus')).toBe('opus');
    expect(vendorACodecName('opus')).toBe('opus');
    expect(vendorACodecName('flac')).toBe('flac');
    expect(vendorACodecName('ogg')).toBeUndefined();
  });

  it('reads back the refusal message a server writes', () => {
    const body = vendorAErrorBody(VENDOR_A_AUTH_PROBLEM, 'req-1');
    expect(body).toEqual({
      error: { message: VENDOR_A_AUTH_PROBLEM.message, code: 'invalid_api_key_error', request_id: 'req-1' },
    });
    expect(vendorAErrorMessage(JSON.stringify(body))).toBe(VENDOR_A_AUTH_PROBLEM.message);
  });

  it('reads back the one-shot answer a server writes, and nothing from one without audio', () => {
    const audio = Buffer.from([1, 2, 3, 250]);
    expect(readVendorAOneShotAudio(vendorAOneShotBody('req-1', audio))).toEqual(audio);
    expect(readVendorAOneShotAudio('{"audios":[]}')).toBeUndefined();
    expect(readVendorAOneShotAudio('not json')).toBeUndefined();
  });

  it('reads back the socket messages a client writes', () => {
    const text = vendorATextMessage('Namaste');
    expect(readVendorAClientMessage(JSON.parse(JSON.stringify(text)))).toEqual({ ok: true, message: text });
    const config = vendorAConfigMessage({ target_language_code: 'hi-IN' });
    expect(readVendorAClientMessage(JSON.parse(JSON.stringify(config)))).toEqual({
      ok: true,
      message: config,
    });
    expect(readVendorAClientMessage({ type: 'sing' })).toEqual({
      ok: false,
      code: 'invalid_request_error',
      message: 'Unknown message type sing',
    });
  });
});
