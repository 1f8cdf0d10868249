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
  catalogueVoiceList,
} from '@router/vendors-core';
import { vendorD } from './vendor-d.definition';
import { vendorDErrorMessage } from './wire/vendor-d.errors';
import { VENDOR_D_KEY } from './wire/vendor-d.key';
import { VENDOR_D_SPEECH_PATH, vendorDBody } from './wire/vendor-d.requests';

const VENDOR: VendorId = 'vendor_d';

/**
 * vendor_d over HTTP with keep-alive: `POST /v1/audio/speech` with `stream_format: audio`, the chunked audio
 * passed through as it arrives (a cut body is a lost connection).
 */
export class VendorDAdapter extends HttpVendorAdapter {
  constructor(options: AdapterOptions) {
    super(VENDOR, options, vendorDErrorMessage, VENDOR_D_KEY);
  }

  async *synthesize(call: SynthesisCall): AsyncGenerator<SynthesisEvent> {
    const body = vendorDBody(call.settings, call.text);
    const headers = { accept: 'application/octet-stream' };
    yield* this.exchange(
      { path: VENDOR_D_SPEECH_PATH, body, apiKey: call.apiKey, headers, signal: call.signal },
      audioPassThrough,
    );
  }

  /**
   * The vendor publishes no voice list: the voices are the router's catalogue (no vendor call; the org's key
   * is only required, as for every vendor).
   */
  listVoices(request: VoiceListRequest): Promise<Voice[]> {
    return Promise.resolve(catalogueVoiceList(vendorD, request.model));
  }
}

export const createVendorDAdapter: AdapterFactory = (options) => new VendorDAdapter(options);
