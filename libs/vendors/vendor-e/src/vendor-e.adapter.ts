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
import { vendorEErrorMessage } from './wire/vendor-e.errors';
import { VENDOR_E_KEY } from './wire/vendor-e.key';
import { vendorERequest } from './wire/vendor-e.requests';
import { vendorEModelLists, vendorEVoices } from './wire/vendor-e.voices';

const VENDOR: VendorId = 'vendor_e';

/**
 * vendor_e over HTTP with keep-alive: `POST /v1/speak` passes the first generation's chunked audio through as
 * it arrives; `POST /v2/speak` (`e_model_3`) answers its take in one body, passed through the same way.
 */
export class VendorEAdapter extends HttpVendorAdapter {
  constructor(options: AdapterOptions) {
    super(VENDOR, options, vendorEErrorMessage, VENDOR_E_KEY);
  }

  async *synthesize(call: SynthesisCall): AsyncGenerator<SynthesisEvent> {
    const { path, body } = vendorERequest(call.settings, call.text);
    yield* this.exchange(
      { path, body, apiKey: call.apiKey, headers: {}, signal: call.signal },
      audioPassThrough,
    );
  }

  readonly voiceListIsPublic = true;

  /**
   * The voices from the vendor's public model lists. No key is sent: the lists need none, so a wrong stored
   * key still lists voices (spec: Voices); it is refused when speaking.
   */
  async listVoices(request: VoiceListRequest): Promise<Voice[]> {
    const lists = await Promise.all(
      vendorEModelLists(request.model).map((path) =>
        this.getJson<{ tts?: unknown }>(path, undefined, request.signal),
      ),
    );
    return vendorEVoices(lists, request.model);
  }
}

export const createVendorEAdapter: AdapterFactory = (options) => new VendorEAdapter(options);
