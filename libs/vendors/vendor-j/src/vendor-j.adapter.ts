import {
  HttpVendorAdapter,
  jsonSseTake,
  streamingWavHeader,
  vendorFailure,
  vendorMalformed,
  type AdapterOptions,
  type SynthesisEvent,
} from '@router/vendors-core';
import { vendorJErrorMessage } from './wire/vendor-j.errors';
import { VENDOR_J_KEY } from './wire/vendor-j.key';
import { VENDOR_J_SAMPLE_RATE } from './wire/vendor-j.formats';
import { vendorJBody, vendorJStreamPath } from './wire/vendor-j.requests';
import { readVendorJResponse } from './wire/vendor-j.responses';

const VENDOR = 'vendor_j';

/**
 * vendor_j over its SSE streaming call with keep-alive: each event's audio parts are yielded as they arrive
 * (behind one open-sized WAV header when `wav` is asked for), and the take is complete once an event says
 * `finishReason` STOP. An error event carries the vendor's code and message.
 */
export class VendorJAdapter extends HttpVendorAdapter {
  constructor(options: AdapterOptions) {
    super(options, {
      vendor: VENDOR,
      keyPlacements: VENDOR_J_KEY,
      refusalText: vendorJErrorMessage,
      speech: ({ settings, text }) => ({
        path: vendorJStreamPath(settings.model),
        body: vendorJBody(settings, text),
        headers: { accept: 'text/event-stream' },
        read: streamAudio(settings.format === 'wav'),
      }),
    });
  }
}

function streamAudio(wav: boolean) {
  let headerSent = !wav;
  return jsonSseTake(VENDOR, 'finishReason STOP', (_event, data) => {
    const reading = readVendorJResponse(data);
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
  });
}

export const createVendorJAdapter = (options: AdapterOptions) => new VendorJAdapter(options);
