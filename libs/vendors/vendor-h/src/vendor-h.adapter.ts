import { RouterError, type SynthSettings } from '@router/contracts';
import {
  HttpVendorAdapter,
  parseJsonObject,
  readSseTake,
  readRefusal,
  stringAt,
  vendorFailure,
  vendorMalformed,
  type AdapterFactory,
  type AdapterOptions,
  type SynthesisCall,
  type SynthesisEvent,
  type UpstreamBody,
  type VendorId,
} from '@router/vendors-core';

const VENDOR: VendorId = 'vendor_h';

/** The router's formats are the vendor's `output_format` names: 16-bit PCM, raw or behind a WAV header. */
const FORMATS: ReadonlySet<string> = new Set(['pcm', 'wav']);

/** The SSE endpoint: base64 audio events while the vendor makes the take, then `{"done": true}`. */
export const VENDOR_H_STREAM_PATH = '/waves/v1/tts/live';

/** The body of one piece (the same fields as the one-shot `/waves/v1/tts`). */
export function vendorHBody(settings: SynthSettings, text: string): Record<string, unknown> {
  if (!FORMATS.has(settings.format))
    throw RouterError.badRequest(`${VENDOR} cannot produce ${settings.format} audio`);
  return {
    text,
    voice_id: settings.voice,
    model: settings.model,
    language: settings.language ?? 'en',
    sample_rate: settings.sampleRate,
    speed: settings.speed ?? 1.0,
    output_format: settings.format,
  };
}

/** The vendor's refusal text: `{error: "..."}`, the newer `{error: {message}}`, else the body. */
export function vendorHErrorMessage(body: string): string {
  return readRefusal(body, (json) => stringAt(json, 'error') ?? stringAt(json, 'error', 'message'));
}

interface StreamEvent {
  audio?: unknown;
  done?: unknown;
  status?: unknown;
  error?: unknown;
  data?: unknown;
}

/**
 * vendor_h over its SSE endpoint with keep-alive: each audio event is yielded as it arrives (the simple
 * `{audio}` form or the richer `{status: "chunk", data: {audio}}`); a take is complete only at `done`, so a
 * stream that ends without it (a cut) throws. An error event after the first audio carries the vendor's
 * code and message. The REST endpoints give no word timings. The org's key goes in `Authorization: Bearer`.
 */
export class VendorHAdapter extends HttpVendorAdapter {
  constructor(options: AdapterOptions) {
    super(VENDOR, options, vendorHErrorMessage);
  }

  async *synthesize(call: SynthesisCall): AsyncGenerator<SynthesisEvent> {
    const body = vendorHBody(call.settings, call.text);
    const headers = { accept: 'text/event-stream', authorization: `Bearer ${call.apiKey}` };
    yield* this.exchange({ path: VENDOR_H_STREAM_PATH, body, headers, signal: call.signal }, streamAudio);
  }
}

function audioOf(message: StreamEvent): string | undefined {
  if (typeof message.audio === 'string') return message.audio;
  return stringAt(message.data, 'audio');
}

function streamAudio(body: UpstreamBody): AsyncGenerator<SynthesisEvent> {
  return readSseTake(
    VENDOR,
    body,
    ({ event, data }) => {
      const message = parseJsonObject<StreamEvent>(VENDOR, data, 'an event');
      if (event === 'error' || message.status === 'error' || message.error !== undefined) {
        const code =
          typeof message.error === 'object' ? (message.error as { code?: unknown }).code : undefined;
        const text = stringAt(message, 'error') ?? stringAt(message, 'error', 'message') ?? '';
        throw vendorFailure(VENDOR, typeof code === 'number' ? code : 502, text);
      }
      if (message.done === true) return { complete: true };
      const audio = audioOf(message);
      if (audio === undefined) throw vendorMalformed(VENDOR, 'an event without audio');
      const bytes = Buffer.from(audio, 'base64');
      return { events: bytes.length > 0 ? [{ kind: 'audio', data: bytes }] : [] };
    },
    'its done event',
  );
}

export const createVendorHAdapter: AdapterFactory = (options) => new VendorHAdapter(options);
