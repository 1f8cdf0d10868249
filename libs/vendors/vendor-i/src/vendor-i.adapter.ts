import type { WordTiming } from '@router/contracts';
import {
  HttpVendorAdapter,
  audioPassThrough,
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
import { VENDOR_I_VERSION_HEADER } from './wire/vendor-i.access';
import { vendorIErrorCode, vendorIErrorMessage } from './wire/vendor-i.errors';
import { VENDOR_I_KEY } from './wire/vendor-i.key';
import { readVendorIEvent } from './wire/vendor-i.events';
import { VENDOR_I_API_VERSION, VENDOR_I_SSE_PATH, vendorIRequest } from './wire/vendor-i.requests';

const VENDOR: VendorId = 'vendor_i';

/**
 * Word timings from the vendor's word list: each word is found in the text after the one before it (its
 * UTF-16 offsets), its times turned from seconds into milliseconds. A word the text does not spell (the
 * vendor's normalization) keeps its time and takes the text up to the next whitespace.
 */
export class WordTrack {
  private readonly timings: WordTiming[] = [];
  private cursor = 0;

  constructor(private readonly text: string) {}

  add(stamps: unknown): void {
    if (typeof stamps !== 'object' || stamps === null) return;
    const { words, start, end } = stamps as { words?: unknown; start?: unknown; end?: unknown };
    if (!Array.isArray(words) || !Array.isArray(start) || !Array.isArray(end)) return;
    const count = Math.min(words.length, start.length, end.length);
    for (let i = 0; i < count; i++) {
      const word = String(words[i]);
      if (word.trim() === '') continue;
      const startMs = toMs(start[i]);
      const span = this.locate(word);
      if (!span) continue;
      this.timings.push({ ...span, startMs, endMs: Math.max(startMs, toMs(end[i])) });
    }
  }

  words(): WordTiming[] {
    return this.timings;
  }

  private locate(word: string): { start: number; end: number } | undefined {
    const found = this.text.indexOf(word, this.cursor);
    // The next spelled word, unless the vendor skipped text with letters or digits to reach it.
    if (found !== -1 && !/[\p{L}\p{N}]/u.test(this.text.slice(this.cursor, found))) {
      this.cursor = found + word.length;
      return { start: found, end: found + word.length };
    }
    const from = this.text.slice(this.cursor).search(/\S/u);
    if (from === -1) return undefined;
    const start = this.cursor + from;
    const rest = this.text.slice(start).search(/\s/u);
    const end = rest === -1 ? this.text.length : start + rest;
    this.cursor = end;
    return { start, end };
  }
}

function toMs(seconds: unknown): number {
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0
    ? Math.round(seconds * 1000)
    : 0;
}

/**
 * vendor_i over keep-alive HTTP: raw formats from its SSE endpoint (each `chunk` yielded as it arrives, word
 * timings yielded once the take is complete at `done`), wav and mp3 from the one-shot endpoint, passed through
 * as the body arrives. Every call names the pinned API version.
 */
export class VendorIAdapter extends HttpVendorAdapter {
  constructor(options: AdapterOptions) {
    super(VENDOR, options, vendorIErrorMessage, VENDOR_I_KEY, vendorIErrorCode);
  }

  async *synthesize(call: SynthesisCall): AsyncGenerator<SynthesisEvent> {
    const { path, body, timestamps } = vendorIRequest(call.settings, call.text);
    const streaming = path === VENDOR_I_SSE_PATH;
    const headers = {
      [VENDOR_I_VERSION_HEADER]: VENDOR_I_API_VERSION,
      accept: streaming ? 'text/event-stream' : this.contentType(call.settings),
    };
    const read = streaming
      ? (answer: UpstreamBody) => streamAudio(answer, timestamps ? new WordTrack(call.text) : undefined)
      : audioPassThrough;
    yield* this.exchange({ path, body, apiKey: call.apiKey, headers, signal: call.signal }, read);
  }
}

function streamAudio(body: UpstreamBody, track: WordTrack | undefined): AsyncGenerator<SynthesisEvent> {
  return readSseTake(
    VENDOR,
    body,
    ({ event, data }) => {
      const reading = readVendorIEvent(
        event,
        parseJsonObject<Record<string, unknown>>(VENDOR, data, 'an event'),
      );
      switch (reading.kind) {
        case 'audio':
          return { events: reading.audio.length > 0 ? [{ kind: 'audio', data: reading.audio }] : [] };
        case 'timestamps':
          track?.add(reading.wordTimestamps);
          return {};
        case 'error':
          throw vendorFailure(VENDOR, reading.status ?? 502, reading.message, reading.code);
        case 'malformed':
          throw vendorMalformed(VENDOR, reading.what);
        case 'other':
          return {};
        case 'done': {
          // The timings come whole once the take is complete.
          const words = track?.words() ?? [];
          return { complete: true, events: words.length > 0 ? [{ kind: 'words', words }] : [] };
        }
      }
    },
    'its done event',
  );
}

export const createVendorIAdapter: AdapterFactory = (options) => new VendorIAdapter(options);
