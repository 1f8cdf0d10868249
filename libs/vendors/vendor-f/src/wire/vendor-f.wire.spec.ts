import type { SynthSettings } from '@router/contracts';
import { VENDOR_F_AUTH_PROBLEM, vendorFErrorBody, vendorFErrorMessage } from './vendor-f.errors';
import { VENDOR_F_CODECS } from './vendor-f.formats';
import { parseVendorFSettings, querySettings, restSettings, vendorFBody } from './vendor-f.requests';
import { readVendorFClientMessage, vendorFAudioDelta, vendorFTimestamps } from './vendor-f.socket';
import { vendorFVoiceList, vendorFVoices, type VendorFVoice } from './vendor-f.voices';

const settings: SynthSettings = {
  vendor: 'vendor_f',
  model: 'f_model_1',
  voice: 'birch',
  language: 'fr',
  speed: 1.2,
  sampleRate: 22050,
  format: 'pcm',
  options: { optimize_streaming_latency: 2 },
};
const knownVoice = (id: string): { voice_id: string } => ({ voice_id: id.toLowerCase() });

describe('vendor_f wire', () => {
  it.each(VENDOR_F_CODECS)('the %s body the adapter builds parses back to its settings', (format) => {
    const body = JSON.parse(JSON.stringify(vendorFBody({ ...settings, format }, 'Bonjour'))) as Record<
      string,
      unknown
    >;
    const raw = restSettings(body);
    if (typeof raw === 'string') throw new Error(raw);
    expect(parseVendorFSettings(raw, knownVoice)).toEqual({
      ok: true,
      settings: {
        voiceId: 'birch',
        language: 'fr',
        spec: { codec: format, sampleRate: 22050, ...(format === 'mp3' ? { bitrateKbps: 128 } : {}) },
        speed: 1.2,
        optimizeStreamingLatency: 2,
        textNormalization: false,
      },
    });
  });

  it('reads the same settings from a socket query, and refuses what the vendor refuses', () => {
    const query = new URLSearchParams({
      voice: 'Birch',
      codec: 'mp3',
      sample_rate: '44100',
      bit_rate: '64000',
    });
    expect(parseVendorFSettings(querySettings(query), knownVoice)).toMatchObject({
      ok: true,
      settings: {
        voiceId: 'birch',
        language: 'auto',
        spec: { codec: 'mp3', sampleRate: 44100, bitrateKbps: 64 },
      },
    });
    query.set('codec', 'wav');
    expect(parseVendorFSettings(querySettings(query), knownVoice)).toEqual({
      ok: false,
      problem: { status: 400, message: 'bit_rate is only supported for mp3' },
    });
    expect(parseVendorFSettings(querySettings(new URLSearchParams()), () => undefined)).toEqual({
      ok: false,
      problem: { status: 400, message: 'invalid voice: aster' },
    });
  });

  it('reads back the refusal a server writes', () => {
    const body = vendorFErrorBody(VENDOR_F_AUTH_PROBLEM);
    expect(body).toEqual({ code: 'Unauthorized', error: 'incorrect API key provided' });
    expect(vendorFErrorMessage(JSON.stringify(body))).toBe(VENDOR_F_AUTH_PROBLEM.message);
  });

  it('reads socket client messages, and writes audio with character timings', () => {
    expect(readVendorFClientMessage({ type: 'text.delta', delta: 'Hi' })).toEqual({
      type: 'text.delta',
      delta: 'Hi',
    });
    expect(readVendorFClientMessage({ type: 'text.delta' })).toEqual({
      type: 'refused',
      message: 'text.delta needs a string delta',
    });
    const timestamps = vendorFTimestamps([{ char: 'H', startMs: 0, endMs: 12.34 }]);
    expect(vendorFAudioDelta(Buffer.from([1]), timestamps)).toEqual({
      type: 'audio.delta',
      delta: 'AQ==',
      audio_timestamps: { graph_chars: ['H'], graph_times: [[0, 0.012]] },
    });
  });

  it('reads back the voice list a server writes as router voices', () => {
    const voice: VendorFVoice = {
      voice_id: 'birch',
      name: 'Birch',
      description: 'Calm',
      gender: 'male',
      type: 'builtin',
      created_at: null,
    };
    expect(
      vendorFVoices(JSON.parse(JSON.stringify(vendorFVoiceList([voice]))) as { voices?: unknown }),
    ).toMatchObject([{ id: 'birch', name: 'Birch', models: ['f_model_1'], gender: 'male' }]);
  });
});
