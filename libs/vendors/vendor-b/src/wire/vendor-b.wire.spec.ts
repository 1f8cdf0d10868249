import type { SynthSettings } from '@router/contracts';
import { vendorBAuthRefusal, vendorBErrorBody, vendorBErrorMessage } from './vendor-b.errors';
import { VENDOR_B_CODECS } from './vendor-b.formats';
import { parseVendorBRequest, vendorBBody, type VendorBVoiceFacts } from './vendor-b.requests';
import {
  readVendorBStreamEvent,
  VENDOR_B_DONE_EVENT,
  vendorBChunkEvent,
  vendorBErrorEvent,
} from './vendor-b.stream';
import { vendorBVoiceList, vendorBVoices, type VendorBVoice } from './vendor-b.voices';

const settings: SynthSettings = {
  vendor: 'vendor_b',
  model: 'b_model_1',
  voice: 'b_voice_hi_f1',
  language: 'hi',
  speed: 1.2,
  sampleRate: 16000,
  format: 'pcm',
  options: {},
};
const voice: VendorBVoiceFacts = { model: 'b_model_1', language: 'hi', languages: ['hi'] };
const json = (value: unknown): Record<string, unknown> =>
  JSON.parse(JSON.stringify(value)) as Record<string, unknown>;

describe('vendor_b wire', () => {
  it.each(VENDOR_B_CODECS)('the %s body the adapter builds parses back to its settings', (format) => {
    expect(parseVendorBRequest(json(vendorBBody({ ...settings, format }, 'Namaste')), () => voice)).toEqual({
      ok: true,
      request: {
        text: 'Namaste',
        voiceId: 'b_voice_hi_f1',
        model: 'b_model_1',
        language: 'hi',
        spec: { codec: format, sampleRate: 16000 },
        speed: 1.2,
      },
    });
  });

  it("refuses a language the server's voice does not speak, and the adapter reads the refusal", () => {
    const parsed = parseVendorBRequest(vendorBBody({ ...settings, language: 'ta' }, 'x'), () => voice);
    expect(parsed).toEqual({
      ok: false,
      problem: {
        status: 400,
        code: 'unsupported_language',
        message: "voice_id 'b_voice_hi_f1' does not speak ta",
      },
    });
    if (parsed.ok) return;
    expect(vendorBErrorMessage(JSON.stringify(vendorBErrorBody(parsed.problem)))).toBe(
      parsed.problem.message,
    );
    expect(vendorBErrorMessage(JSON.stringify(vendorBAuthRefusal('invalid').body))).toBe(
      'Invalid authentication credentials',
    );
  });

  it('reads back the SSE events a server writes', () => {
    const audio = Buffer.from([4, 5, 6]);
    expect(readVendorBStreamEvent('chunk', json(vendorBChunkEvent(audio, 12.05).data))).toEqual({
      kind: 'audio',
      audio,
    });
    // An unnamed event is known by the type in its data.
    expect(readVendorBStreamEvent('message', json(VENDOR_B_DONE_EVENT.data))).toEqual({
      kind: 'other',
      done: true,
    });
    const error = vendorBErrorEvent({ status: 503, code: 'service_unavailable', message: 'busy' });
    expect(readVendorBStreamEvent(error.event, json(error.data))).toEqual({
      kind: 'error',
      status: 503,
      message: 'busy',
    });
    expect(error.data['title']).toBe('Service Unavailable');
  });

  it('reads back the voice list a server writes', () => {
    const listed: VendorBVoice = {
      voice_id: 'b_voice_hi_f1',
      name: 'Ilvara',
      language: 'hi',
      languages: ['hi'],
      gender: 'female',
      model: 'b_model_1',
    };
    expect(vendorBVoices(json(vendorBVoiceList([listed])))).toMatchObject([
      { id: 'b_voice_hi_f1', name: 'Ilvara', models: ['b_model_1'], languages: ['hi'], gender: 'female' },
    ]);
  });
});
