import type { SynthSettings } from '@router/contracts';
import { VENDOR_H_AUTH_PROBLEM, vendorHErrorBody, vendorHErrorMessage } from './vendor-h.errors';
import { VENDOR_H_FORMATS } from './vendor-h.formats';
import { parseVendorHRequest, vendorHBody } from './vendor-h.requests';
import { readVendorHSocketTimeout, vendorHChunkFrame, vendorHCompleteBackoffMs } from './vendor-h.socket';
import {
  readVendorHStreamEvent,
  VENDOR_H_DONE_EVENT,
  vendorHAudioEvent,
  vendorHErrorEvent,
} from './vendor-h.stream';

const settings: SynthSettings = {
  vendor: 'vendor_h',
  model: 'h_model_2',
  voice: 'h2_voice_f1',
  language: 'hi',
  speed: 1.5,
  sampleRate: 8000,
  format: 'wav',
  options: {},
};
const anyVoice = { isVoice: () => true };

describe('vendor_h wire', () => {
  it.each(VENDOR_H_FORMATS)('the %s body the adapter builds parses back to its settings', (format) => {
    const body = vendorHBody({ ...settings, format }, 'Namaste');
    expect(parseVendorHRequest(JSON.parse(JSON.stringify(body)), anyVoice)).toEqual({
      ok: true,
      request: {
        text: 'Namaste',
        voiceId: 'h2_voice_f1',
        model: 'h_model_2',
        language: 'hi',
        spec: { codec: format, sampleRate: 8000 },
        speed: 1.5,
        silent: false,
        wordTimestamps: false,
        echo: {},
      },
    });
  });

  it("sends a mirror client's own fields (its options) in the body under their names, over the defaults", () => {
    const options = { pronunciation_dicts: ['d1'], language: 'auto', future: 1 };
    expect(vendorHBody({ ...settings, options }, 'Namaste')).toEqual({
      text: 'Namaste',
      voice_id: 'h2_voice_f1',
      model: 'h_model_2',
      language: 'auto',
      sample_rate: 8000,
      speed: 1.5,
      output_format: 'wav',
      pronunciation_dicts: ['d1'],
      future: 1,
    });
  });

  it('refuses what the vendor refuses, in its {error} shape, and the adapter reads the message back', () => {
    const body = { ...vendorHBody(settings, 'x'), sample_rate: 22050 };
    const parsed = parseVendorHRequest(body, anyVoice);
    expect(parsed).toEqual({
      ok: false,
      problem: { status: 400, message: 'sample_rate must be one of 8000, 16000, 24000, 44100' },
    });
    expect(parseVendorHRequest(body, { ...anyVoice, isVoice: () => false })).toMatchObject({
      ok: false,
      problem: { message: "voice_id 'h2_voice_f1' not found" },
    });
    const written = JSON.stringify(vendorHErrorBody(VENDOR_H_AUTH_PROBLEM));
    expect(written).toBe('{"error":"unauthorized"}');
    expect(vendorHErrorMessage(written)).toBe('unauthorized');
  });

  it('reads back the SSE events a server writes', () => {
    const audio = Buffer.from([0, 1, 2, 3]);
    const roundTrip = (e: { event?: string; data: Record<string, unknown> }) =>
      readVendorHStreamEvent(e.event, JSON.parse(JSON.stringify(e.data)) as Record<string, unknown>);
    expect(roundTrip(vendorHAudioEvent('r1', audio))).toEqual({ kind: 'audio', audio });
    expect(roundTrip(VENDOR_H_DONE_EVENT)).toEqual({ kind: 'done' });
    expect(roundTrip(vendorHErrorEvent('r1', { status: 429, message: 'slow down' }))).toEqual({
      kind: 'error',
      status: 429,
      message: 'slow down',
    });
    expect(readVendorHStreamEvent(undefined, { status: 'chunk', data: { audio: 'AAE=' } })).toEqual({
      kind: 'audio',
      audio: Buffer.from([0, 1]),
    });
    expect(readVendorHStreamEvent(undefined, { status: 'chunk' })).toEqual({ kind: 'malformed' });
  });

  it('frames socket audio with the turn ids, and bounds the handshake timeout and the complete backoff', () => {
    const ids = { requestId: 'req_1', correlation: { external_request_id: 'x1' }, contextId: 'c1' };
    expect(vendorHChunkFrame(ids, Buffer.from([1]))).toEqual({
      status: 'chunk',
      data: { audio: 'AQ==' },
      request_id: 'req_1',
      external_request_id: 'x1',
      context_id: 'c1',
    });
    expect(readVendorHSocketTimeout('30')).toEqual({ ok: true, seconds: 30 });
    expect(readVendorHSocketTimeout('181')).toMatchObject({ ok: false, status: 400 });
    expect(vendorHCompleteBackoffMs(50_000)).toBe(10_000);
    expect(vendorHCompleteBackoffMs(undefined)).toBe(4000);
  });
});
