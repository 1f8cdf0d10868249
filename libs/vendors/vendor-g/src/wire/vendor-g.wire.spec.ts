import type { SynthSettings } from '@router/contracts';
import {
  invalidRequest,
  VENDOR_G_AUTH_PROBLEM,
  vendorGErrorBody,
  vendorGErrorMessage,
  vendorGErrorTrailers,
  vendorGTrailerFailure,
} from './vendor-g.errors';
import {
  VENDOR_G_KNOWN_FORMATS,
  vendorGAudioFormat,
  vendorGContentType,
  vendorGRouterFormat,
} from './vendor-g.formats';
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
  it.each([
    { format: 'pcm', audioFormat: 'pcm_s16le', spec: { codec: 'pcm', sampleRate: 16000 } },
    { format: 'wav', audioFormat: 'wav', spec: { codec: 'wav', sampleRate: 16000 } },
    { format: 'mp3', audioFormat: 'mp3', spec: { codec: 'mp3', sampleRate: 16000 } },
    { format: 'mulaw', audioFormat: 'pcm_mulaw', spec: { codec: 'mulaw', sampleRate: 16000 } },
    { format: 'alaw', audioFormat: 'pcm_alaw', spec: { codec: 'alaw', sampleRate: 16000 } },
    // Only a mirror's clients ask for these: the router's catalogue lacks them.
    { format: 'aac', audioFormat: 'aac', spec: { codec: 'aac', sampleRate: 16000 } },
    { format: 'opus', audioFormat: 'opus', spec: { codec: 'opus', sampleRate: 16000 } },
    { format: 'flac', audioFormat: 'flac', spec: { codec: 'flac', sampleRate: 16000 } },
    {
      format: 'pcm_f32le',
      audioFormat: 'pcm_f32le',
      spec: { codec: 'pcm', sampleRate: 16000, samples: 'f32le' },
    },
    {
      format: 'pcm_s16be',
      audioFormat: 'pcm_s16be',
      spec: { codec: 'pcm', sampleRate: 16000, samples: 's16be' },
    },
  ])('the $format body the adapter builds parses back to its settings', ({ format, audioFormat, spec }) => {
    const body = JSON.parse(JSON.stringify(vendorGBody({ ...settings, format }, 'Hello'))) as unknown;
    expect(parseVendorGRest(body, project)).toEqual({
      ok: true,
      value: {
        text: 'Hello',
        settings: {
          model: 'g_model_3',
          language: 'en',
          voice: 'Maren',
          audioFormat,
          spec,
          speed: 1.1,
          reduceSilence: true,
          returnTimestamps: false,
        },
      },
    });
  });

  it('maps every audio_format name to a router format and back, with its Content-Type', () => {
    for (const name of VENDOR_G_KNOWN_FORMATS) {
      expect(vendorGAudioFormat(vendorGRouterFormat(name) ?? '')).toBe(name);
    }
    expect(VENDOR_G_KNOWN_FORMATS).toHaveLength(10);
    expect(vendorGRouterFormat('pcm_s16le')).toBe('pcm');
    expect(vendorGRouterFormat('pcm_mulaw')).toBe('mulaw');
    expect(vendorGContentType('pcm_mulaw')).toBe('audio/pcm');
    expect(vendorGContentType('opus')).toBe('audio/opus');
    expect(() => vendorGAudioFormat('speex')).toThrow(expect.objectContaining({ code: 'bad_request' }));
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
    // A config as the mirror reads it: the gateway has taken its key out.
    expect(readVendorGClientMessage({ stream_id: 's1', model: 'm', voice: 'Maren' })).toEqual({
      kind: 'config',
      streamId: 's1',
      apiKey: undefined,
    });
    expect(readVendorGClientMessage({ stream_id: 's1', cancel: true })).toEqual({
      kind: 'cancel',
      streamId: 's1',
    });
    expect(readVendorGClientMessage({ stream_id: 's1', text_end: true })).toEqual({
      kind: 'text',
      streamId: 's1',
      text: '',
      end: true,
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
