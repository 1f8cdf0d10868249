import {
  HttpVendorAdapter,
  parseJsonObject,
  readSseTake,
  vendorFailure,
  vendorMalformed,
  type AdapterFactory,
  type AdapterOptions,
  type SynthesisCall,
  type SynthesisEvent,
  type UpstreamBody,
  type VendorId,
} from '@router/vendors-core';
import { vendorHErrorMessage } from './wire/vendor-h.errors';
import { VENDOR_H_KEY } from './wire/vendor-h.key';
import { VENDOR_H_STREAM_PATH, vendorHBody } from './wire/vendor-h.requests';
import { readVendorHStreamEvent } from './wire/vendor-h.stream';

const VENDOR: VendorId = 'vendor_h';

/**
 * vendor_h over its SSE endpoint with keep-alive: each audio event is yielded as it arrives (the simple
 * `{audio}` form or the richer `{status: "chunk", data: {audio}}`); a take is complete only at `done`, so a
 * stream that ends without it (a cut) throws. An error event after the first audio carries the vendor's
 * code and message. The REST endpoints give no word timings.
 */
export class VendorHAdapter extends HttpVendorAdapter {
  constructor(options: AdapterOptions) {
    super(VENDOR, options, vendorHErrorMessage, VENDOR_H_KEY);
  }

  async *synthesize(call: SynthesisCall): AsyncGenerator<SynthesisEvent> {
    const body = vendorHBody(call.settings, call.text);
    const headers = { accept: 'text/event-stream' };
    yield* this.exchange(
      { path: VENDOR_H_STREAM_PATH, body, apiKey: call.apiKey, headers, signal: call.signal },
      streamAudio,
    );
  }
}

function streamAudio(body: UpstreamBody): AsyncGenerator<SynthesisEvent> {
  return readSseTake(
    VENDOR,
    body,
    ({ event, data }) => {
      const reading = readVendorHStreamEvent(
        event,
        parseJsonObject<Record<string, unknown>>(VENDOR, data, 'an event'),
      );
      switch (reading.kind) {
        case 'error':
          throw vendorFailure(VENDOR, reading.status ?? 502, reading.message);
        case 'done':
          return { complete: true };
        case 'malformed':
          throw vendorMalformed(VENDOR, 'an event without audio');
        case 'audio':
          return { events: reading.audio.length > 0 ? [{ kind: 'audio', data: reading.audio }] : [] };
      }
    },
    'its done event',
  );
}

export const createVendorHAdapter: AdapterFactory = (options) => new VendorHAdapter(options);
