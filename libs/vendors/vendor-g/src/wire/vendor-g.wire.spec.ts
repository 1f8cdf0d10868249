import type { SynthSettings } from '@router/contracts';
import {
  invalidRequest,
  VENDOR_G_AUTH_PROBLEM,
  vendorGErrorBody,
  vendorGErrorMessage,
  vendorGErrorTrailers,
  vendorGTrailerFailure,
} from './vendor-g.errors';
import { vendorGAudioFormat, vendorGCodec } from './vendor-g.formats';
import { parseVendorGRest, vendorGBody, type VendorGProject } from './vendor-g.requests';
import { readVendorGClientMessage, vendorGStreamError } from './vendor-g.socket';

const settings: SynthSettings = {
  vendor: 'vendor_g',
  model: 'g_model_3',
  voice: 'Maren',
  language: 'en',
  speed: 1.1,
  sampleRate: 16000,
  format: 'pcm',
  options: { reduce_silence: true },
};
const project: VendorGProject = {
  models: ['g_model_3'],
  languagesOf: () => ['en'],
  voiceProblem: (voice) => (voice === 'Maren' ? null : `Voice '${voice}' not found for model g_model_3`),
};

describe('vendor_g wire', () => {
  it.each(['pcm', 'wav', 'mp3', 'mulaw', 'alaw'])(
    'the %s body the adapter builds parses back to its settings',
    (format) => {
      const body = JSON.parse(JSON.stringify(vendorGBody({ ...settings, format }, 'Hello'))) as unknown;
      expect(parseVendorGRest(body, project)).toEqual({
        ok: true,
        value: {
          text: 'Hello',
          settings: {
            model: 'g_model_3',
            language: 'en',
            voice: 'Maren',
            audioFormat: vendorGAudioFormat(format),
            spec: { codec: format, sampleRate: 16000 },
            speed: 1.1,
            reduceSilence: true,
            returnTimestamps: false,
          },
        },
      });
    },
  );

  it('maps audio_format names both ways, and the router never asks for flac', () => {
    for (const format of ['pcm', 'wav', 'mp3', 'mulaw', 'alaw'])
      expect(vendorGCodec(vendorGAudioFormat(format))).toBe(format);
    expect(vendorGCodec('flac')).toBe('flac');
    expect(() => vendorGAudioFormat('flac')).toThrow(expect.objectContaining({ code: 'bad_request' }));
  });

  it("refuses a voice the server's project does not have, naming the field", () => {
    const body = vendorGBody({ ...settings, voice: 'Nobody' }, 'Hello');
    expect(parseVendorGRest(body, project)).toEqual({
      ok: false,
      problem: invalidRequest("Voice 'Nobody' not found for model g_model_3", 'voice'),
    });
  });

  it('reads back the refusals a server writes, in a body and in trailers', () => {
    expect(vendorGErrorMessage(JSON.stringify(vendorGErrorBody(VENDOR_G_AUTH_PROBLEM, 'r1')))).toBe(
      'Invalid or missing API key',
    );
    const failure = vendorGTrailerFailure(
      vendorGErrorTrailers({ status: 503, errorType: 'x', message: 'busy' }),
    );
    expect(failure).toMatchObject({ message: expect.stringContaining('busy') });
    expect(vendorGTrailerFailure({})).toBeNull();
  });

  it('reads socket client messages as the vendor does', () => {
    expect(readVendorGClientMessage({ keep_alive: true })).toEqual({ kind: 'keep-alive' });
    expect(readVendorGClientMessage({ stream_id: 's1', text: 'Hi', text_end: true })).toEqual({
      kind: 'text',
      streamId: 's1',
      text: 'Hi',
      end: true,
    });
    expect(readVendorGClientMessage({ stream_id: 's1', api_key: 'k1', model: 'm' })).toEqual({
      kind: 'config',
      streamId: 's1',
      apiKey: 'k1',
    });
    expect(readVendorGClientMessage({ stream_id: 's1', api_key: 42 })).toEqual({
      kind: 'config',
      streamId: 's1',
      apiKey: undefined,
    });
    expect(readVendorGClientMessage({ text: 'Hi' })).toEqual({
      kind: 'refused',
      streamId: undefined,
      message: 'Missing required field: stream_id',
    });
    expect(vendorGStreamError('s1', 401, 'Invalid API key')).toEqual({
      stream_id: 's1',
      error_code: 401,
      error_message: 'Invalid API key',
    });
  });
});
