import { HttpVendorAdapter, jsonSseTake, streamEventStep, type AdapterOptions } from '@router/vendors-core';
import { vendorHErrorMessage } from './wire/vendor-h.errors';
import { VENDOR_H_KEY } from './wire/vendor-h.key';
import { VENDOR_H_STREAM_PATH, vendorHBody } from './wire/vendor-h.requests';
import { readVendorHStreamEvent } from './wire/vendor-h.stream';

/**
 * vendor_h over its SSE endpoint with keep-alive: each audio event is yielded as it arrives (the simple
 * `{audio}` form or the richer `{status: "chunk", data: {audio}}`); a take is complete only at `done`, so a
 * stream that ends without it (a cut) throws. An error event after the first audio carries the vendor's
 * code and message. The REST endpoints give no word timings.
 */
export class VendorHAdapter extends HttpVendorAdapter {
  constructor(options: AdapterOptions) {
    super(options, {
      vendor: 'vendor_h',
      keyPlacements: VENDOR_H_KEY,
      refusalText: vendorHErrorMessage,
      speech: ({ settings, text }) => ({
        path: VENDOR_H_STREAM_PATH,
        body: vendorHBody(settings, text),
        headers: { accept: 'text/event-stream' },
        read: streamAudio,
      }),
    });
  }
}

const streamAudio = jsonSseTake('vendor_h', 'its done event', (event, data) => {
  const reading = readVendorHStreamEvent(event, data);
  return reading.kind === 'done' ? { complete: true } : streamEventStep('vendor_h', reading);
});

export const createVendorHAdapter = (options: AdapterOptions) => new VendorHAdapter(options);
