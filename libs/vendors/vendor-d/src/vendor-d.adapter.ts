import {
  HttpVendorAdapter,
  audioPassThrough,
  listCatalogueVoices,
  type AdapterOptions,
  type VoiceListRequest,
} from '@router/vendors-core';
import { vendorD } from './vendor-d.definition';
import { vendorDErrorMessage } from './wire/vendor-d.errors';
import { VENDOR_D_KEY } from './wire/vendor-d.key';
import { VENDOR_D_SPEECH_PATH, vendorDBody } from './wire/vendor-d.requests';

/**
 * vendor_d over HTTP with keep-alive: `POST /v1/audio/speech` with `stream_format: audio`, the chunked audio
 * passed through as it arrives (a cut body is a lost connection). Its voices are the router's catalogue.
 */
export class VendorDAdapter extends HttpVendorAdapter {
  constructor(options: AdapterOptions) {
    super(options, {
      vendor: 'vendor_d',
      keyPlacements: VENDOR_D_KEY,
      refusalText: vendorDErrorMessage,
      speech: ({ settings, text }) => ({
        path: VENDOR_D_SPEECH_PATH,
        body: vendorDBody(settings, text),
        headers: { accept: 'application/octet-stream' },
        read: audioPassThrough,
      }),
    });
  }

  listVoices(request: VoiceListRequest) {
    return listCatalogueVoices(vendorD, request);
  }
}

export const createVendorDAdapter = (options: AdapterOptions) => new VendorDAdapter(options);
