import {
  HttpVendorAdapter,
  parseJsonObject,
  readSseTake,
  streamingWavHeader,
  vendorFailure,
  vendorMalformed,
  type AdapterFactory,
  type AdapterOptions,
  type SynthesisCall,
  type SynthesisEvent,
  type UpstreamBody,
  type VendorId,
} from '@router/vendors-core';
import { vendorJErrorMessage } from './wire/vendor-j.errors';
import { VENDOR_J_KEY } from './wire/vendor-j.key';
import { VENDOR_J_SAMPLE_RATE } from './wire/vendor-j.formats';
import { vendorJBody, vendorJStreamPath } from './wire/vendor-j.requests';
import { readVendorJResponse } from './wire/vendor-j.responses';

const VENDOR: VendorId = 'vendor_j';

/**
 * vendor_j over its SSE streaming call with keep-alive: each event's audio parts are yielded as they arrive
 * (behind one open-sized WAV header when `wav` is asked for), and the take is complete once an event says
 * `finishReason` STOP. An error event carries the vendor's code and message.
 */
export class VendorJAdapter extends HttpVendorAdapter {
  constructor(options: AdapterOptions) {
    super(VENDOR, options, vendorJErrorMessage, VENDOR_J_KEY);
  }

  async *synthesize(call: SynthesisCall): AsyncGenerator<SynthesisEvent> {
    const body = vendorJBody(call.settings, call.text);
    const path = vendorJStreamPath(call.settings.model);
    const headers = { accept: 'text/event-stream' };
    const wav = call.settings.format === 'wav';
    yield* this.exchange({ path, body, apiKey: call.apiKey, headers, signal: call.signal }, (answer) =>
      streamAudio(answer, wav),
    );
  }
}

function streamAudio(body: UpstreamBody, wav: boolean): AsyncGenerator<SynthesisEvent> {
  let headerSent = !wav;
  return readSseTake(
    VENDOR,
    body,
    ({ data }) => {
      const reading = readVendorJResponse(parseJsonObject<Record<string, unknown>>(VENDOR, data, 'an event'));
      if (reading.kind === 'error') throw vendorFailure(VENDOR, reading.code ?? 502, reading.message);
      if (reading.kind === 'malformed') throw vendorMalformed(VENDOR, reading.what);
      const events: SynthesisEvent[] = [];
      for (const audio of reading.audio) {
        if (!headerSent) {
          headerSent = true;
          events.push({ kind: 'audio', data: streamingWavHeader(VENDOR_J_SAMPLE_RATE) });
        }
        events.push({ kind: 'audio', data: audio });
      }
      const reason = reading.finishReason;
      if (reason === undefined) return { events };
      if (reason !== 'STOP') {
        throw vendorFailure(
          VENDOR,
          400,
          `${VENDOR} stopped the take without finishing it (${JSON.stringify(reason)})`,
        );
      }
      return { events, complete: true };
    },
    'finishReason STOP',
  );
}

export const createVendorJAdapter: AdapterFactory = (options) => new VendorJAdapter(options);
