import {
  HttpVendorAdapter,
  audioPassThrough,
  type AdapterOptions,
  type VoiceListRequest,
} from '@router/vendors-core';
import { vendorEErrorMessage } from './wire/vendor-e.errors';
import { VENDOR_E_KEY } from './wire/vendor-e.key';
import { vendorERequest } from './wire/vendor-e.requests';
import { vendorEModelLists, vendorEVoices } from './wire/vendor-e.voices';

/**
 * vendor_e over HTTP with keep-alive: `POST /v1/speak` passes the first generation's chunked audio through as
 * it arrives; `POST /v2/speak` (`e_model_3`) answers its take in one body, passed through the same way.
 */
export class VendorEAdapter extends HttpVendorAdapter {
  readonly voiceListIsPublic = true;

  constructor(options: AdapterOptions) {
    super(options, {
      vendor: 'vendor_e',
      keyPlacements: VENDOR_E_KEY,
      refusalText: vendorEErrorMessage,
      speech: ({ settings, text }) => ({ ...vendorERequest(settings, text), read: audioPassThrough }),
    });
  }

  /**
   * The voices from the vendor's public model lists. No key is sent: the lists need none, so a wrong stored
   * key still lists voices (spec: Voices); it is refused when speaking.
   */
  async listVoices({ model, signal }: VoiceListRequest) {
    const lists = await Promise.all(
      vendorEModelLists(model).map((path) =>
        this.getJson<{ tts?: unknown }>(path, { apiKey: undefined, signal }),
      ),
    );
    return vendorEVoices(lists, model);
  }
}

export const createVendorEAdapter = (options: AdapterOptions) => new VendorEAdapter(options);
