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
  type Voice,
  type VoiceListRequest,
} from '@router/vendors-core';
import { vendorBErrorMessage } from './wire/vendor-b.errors';
import { VENDOR_B_KEY } from './wire/vendor-b.key';
import { VENDOR_B_STREAM_PATH, vendorBBody } from './wire/vendor-b.requests';
import { readVendorBStreamEvent } from './wire/vendor-b.stream';
import { VENDOR_B_VOICES_PATH, vendorBVoices } from './wire/vendor-b.voices';

const VENDOR: VendorId = 'vendor_b';

/**
 * vendor_b over its SSE endpoint with keep-alive: each `chunk` event's audio is yielded as it arrives; a take is
 * complete only at `done`, so a stream that ends without it (a cut) throws. An `error` event after the first
 * audio carries the vendor's status and message.
 */
export class VendorBAdapter extends HttpVendorAdapter {
  constructor(options: AdapterOptions) {
    super(VENDOR, options, vendorBErrorMessage, VENDOR_B_KEY);
  }

  async *synthesize(call: SynthesisCall): AsyncGenerator<SynthesisEvent> {
    const body = vendorBBody(call.settings, call.text);
    const headers = { accept: 'text/event-stream' };
    yield* this.exchange(
      { path: VENDOR_B_STREAM_PATH, body, apiKey: call.apiKey, headers, signal: call.signal },
      streamAudio,
    );
  }

  async listVoices(request: VoiceListRequest): Promise<Voice[]> {
    const body = await this.getJson<{ voices?: unknown }>(
      VENDOR_B_VOICES_PATH,
      request.apiKey,
      request.signal,
    );
    return vendorBVoices(body, request.model);
  }
}

function streamAudio(body: UpstreamBody): AsyncGenerator<SynthesisEvent> {
  return readSseTake(
    VENDOR,
    body,
    ({ event, data }) => {
      const reading = readVendorBStreamEvent(
        event,
        parseJsonObject<Record<string, unknown>>(VENDOR, data, 'an event'),
      );
      switch (reading.kind) {
        case 'audio':
          return { events: reading.audio.length > 0 ? [{ kind: 'audio', data: reading.audio }] : [] };
        case 'error':
          throw vendorFailure(VENDOR, reading.status ?? 502, reading.message);
        case 'malformed':
          throw vendorMalformed(VENDOR, reading.what);
        case 'other':
          return { complete: reading.done };
      }
    },
    'its done event',
  );
}

export const createVendorBAdapter: AdapterFactory = (options) => new VendorBAdapter(options);
