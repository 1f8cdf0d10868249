import {
  HttpVendorAdapter,
  audioPassThrough,
  jsonSseTake,
  streamEventStep,
  formatContentType,
  type AdapterOptions,
} from '@router/vendors-core';
import { VENDOR_I_VERSION_HEADER } from './wire/vendor-i.access';
import { vendorIErrorCode, vendorIErrorMessage } from './wire/vendor-i.errors';
import { VENDOR_I_KEY } from './wire/vendor-i.key';
import { readVendorIEvent } from './wire/vendor-i.events';
import { VENDOR_I_API_VERSION, VENDOR_I_SSE_PATH, vendorIRequest } from './wire/vendor-i.requests';
import { WordTrack } from './vendor-i.word-track';

export { WordTrack } from './vendor-i.word-track';

/**
 * vendor_i over keep-alive HTTP: raw formats from its SSE endpoint (each `chunk` yielded as it arrives, word
 * timings yielded once the take is complete at `done`), wav and mp3 from the one-shot endpoint, passed through
 * as the body arrives. Every call names the pinned API version.
 */
export class VendorIAdapter extends HttpVendorAdapter {
  constructor(options: AdapterOptions) {
    super(options, {
      vendor: 'vendor_i',
      keyPlacements: VENDOR_I_KEY,
      refusalText: vendorIErrorMessage,
      refusalCode: vendorIErrorCode,
      speech: ({ settings, text }) => {
        const { path, body, timestamps } = vendorIRequest(settings, text);
        const streaming = path === VENDOR_I_SSE_PATH;
        const headers = {
          [VENDOR_I_VERSION_HEADER]: VENDOR_I_API_VERSION,
          accept: streaming ? 'text/event-stream' : formatContentType(settings),
        };
        const read = streaming ? streamAudio(timestamps ? new WordTrack(text) : undefined) : audioPassThrough;
        return { path, body, headers, read };
      },
    });
  }
}

function streamAudio(track: WordTrack | undefined) {
  return jsonSseTake('vendor_i', 'its done event', (event, data) => {
    const reading = readVendorIEvent(event, data);
    switch (reading.kind) {
      case 'timestamps':
        track?.add(reading.wordTimestamps);
        return {};
      case 'other':
        return {};
      case 'done': {
        // The timings come whole once the take is complete.
        const words = track?.words() ?? [];
        return { complete: true, events: words.length > 0 ? [{ kind: 'words', words }] : [] };
      }
      default:
        return streamEventStep('vendor_i', reading);
    }
  });
}

export const createVendorIAdapter = (options: AdapterOptions) => new VendorIAdapter(options);
