import {
  HttpVendorAdapter,
  jsonSseTake,
  streamEventStep,
  type AdapterOptions,
  type VoiceListRequest,
} from '@router/vendors-core';
import { vendorBErrorMessage } from './wire/vendor-b.errors';
import { VENDOR_B_KEY } from './wire/vendor-b.key';
import { VENDOR_B_STREAM_PATH, vendorBBody } from './wire/vendor-b.requests';
import { readVendorBStreamEvent } from './wire/vendor-b.stream';
import { VENDOR_B_VOICES_PATH, vendorBVoices } from './wire/vendor-b.voices';

/**
 * vendor_b over its SSE endpoint with keep-alive: each `chunk` event's audio is yielded as it arrives; a take is
 * complete only at `done`, so a stream that ends without it (a cut) throws. An `error` event after the first
 * audio carries the vendor's status and message.
 */
export class VendorBAdapter extends HttpVendorAdapter {
  constructor(options: AdapterOptions) {
    super(options, {
      vendor: 'vendor_b',
      keyPlacements: VENDOR_B_KEY,
      refusalText: vendorBErrorMessage,
      speech: ({ settings, text }) => ({
        path: VENDOR_B_STREAM_PATH,
        body: vendorBBody(settings, text),
        headers: { accept: 'text/event-stream' },
        read: streamAudio,
      }),
    });
  }

  async listVoices(request: VoiceListRequest) {
    return vendorBVoices(
      await this.getJson<{ voices?: unknown }>(VENDOR_B_VOICES_PATH, request),
      request.model,
    );
  }
}

const streamAudio = jsonSseTake('vendor_b', 'its done event', (event, data) => {
  const reading = readVendorBStreamEvent(event, data);
  return reading.kind === 'other' ? { complete: reading.done } : streamEventStep('vendor_b', reading);
});

export const createVendorBAdapter = (options: AdapterOptions) => new VendorBAdapter(options);
