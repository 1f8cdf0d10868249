import {
  HttpVendorAdapter,
  audioPassThrough,
  type AdapterOptions,
  type VoiceListRequest,
} from '@router/vendors-core';
import { vendorFErrorMessage } from './wire/vendor-f.errors';
import { VENDOR_F_KEY } from './wire/vendor-f.key';
import { VENDOR_F_TTS_PATH, vendorFBody } from './wire/vendor-f.requests';
import { VENDOR_F_VOICES_PATH, vendorFVoices } from './wire/vendor-f.voices';

/**
 * vendor_f over HTTP with keep-alive: `POST /v1/tts` streams the raw audio in chunks as it is made, passed
 * through as it arrives (its socket gives no earlier audio for a whole sentence).
 */
export class VendorFAdapter extends HttpVendorAdapter {
  constructor(options: AdapterOptions) {
    super(options, {
      vendor: 'vendor_f',
      keyPlacements: VENDOR_F_KEY,
      refusalText: vendorFErrorMessage,
      speech: ({ settings, text }) => ({
        path: VENDOR_F_TTS_PATH,
        body: vendorFBody(settings, text),
        read: audioPassThrough,
      }),
    });
  }

  async listVoices(request: VoiceListRequest) {
    return vendorFVoices(
      await this.getJson<{ voices?: unknown }>(VENDOR_F_VOICES_PATH, request),
      request.model,
    );
  }
}

export const createVendorFAdapter = (options: AdapterOptions) => new VendorFAdapter(options);
