import {
  HttpVendorAdapter,
  audioPassThrough,
  type AdapterFactory,
  type AdapterOptions,
  type SynthesisCall,
  type SynthesisEvent,
  type VendorId,
  type Voice,
  type VoiceListRequest,
} from '@router/vendors-core';
import { vendorFErrorMessage } from './wire/vendor-f.errors';
import { VENDOR_F_KEY } from './wire/vendor-f.key';
import { VENDOR_F_TTS_PATH, vendorFBody } from './wire/vendor-f.requests';
import { VENDOR_F_VOICES_PATH, vendorFVoices } from './wire/vendor-f.voices';

const VENDOR: VendorId = 'vendor_f';

/**
 * vendor_f over HTTP with keep-alive: `POST /v1/tts` streams the raw audio in chunks as it is made, passed
 * through as it arrives (its socket gives no earlier audio for a whole sentence).
 */
export class VendorFAdapter extends HttpVendorAdapter {
  constructor(options: AdapterOptions) {
    super(VENDOR, options, vendorFErrorMessage, VENDOR_F_KEY);
  }

  async *synthesize(call: SynthesisCall): AsyncGenerator<SynthesisEvent> {
    const body = vendorFBody(call.settings, call.text);
    yield* this.exchange(
      { path: VENDOR_F_TTS_PATH, body, apiKey: call.apiKey, headers: {}, signal: call.signal },
      audioPassThrough,
    );
  }

  async listVoices(request: VoiceListRequest): Promise<Voice[]> {
    const body = await this.getJson<{ voices?: unknown }>(
      VENDOR_F_VOICES_PATH,
      request.apiKey,
      request.signal,
    );
    return vendorFVoices(body, request.model);
  }
}

export const createVendorFAdapter: AdapterFactory = (options) => new VendorFAdapter(options);
