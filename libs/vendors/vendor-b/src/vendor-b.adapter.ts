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
  type Voice,
  type VoiceListRequest,
} from '@router/vendors-core';
import { VENDOR_B_VOICES_PATH, vendorBVoices } from './vendor-b.voices';

const VENDOR: VendorId = 'vendor_b';

/** The router's formats are the vendor's codec names (`pcm` is raw s16le). */
const CODECS: ReadonlySet<string> = new Set(['pcm', 'wav', 'mulaw']);

/** The SSE endpoint: audio as `chunk` events while the vendor makes it, then one `done`. */
export const VENDOR_B_STREAM_PATH = '/v1/text-to-speech/stream';

/** The body of one piece (the same fields as the one-shot endpoint). */
export function vendorBBody(settings: SynthSettings, text: string): Record<string, unknown> {
  if (!CODECS.has(settings.format))
    throw RouterError.badRequest(`${VENDOR} cannot produce ${settings.format} audio`);
  return {
    text,
    voice_id: settings.voice,
    language: settings.language,
    model: settings.model,
    codec: settings.format,
    sample_rate: settings.sampleRate,
    speed: settings.speed ?? 1.0,
  };
}

/** The vendor's refusal text: `{error: {message}}` (application), `{message}` (its gateway), else the body. */
export function vendorBErrorMessage(body: string): string {
  return readRefusal(body, (json) => stringAt(json, 'error', 'message') ?? stringAt(json, 'message'));
}

interface StreamEvent {
  type?: unknown;
  data?: unknown;
  status_code?: unknown;
  message?: unknown;
  title?: unknown;
}

/**
 * vendor_b over its SSE endpoint with keep-alive: each `chunk` event's audio is yielded as it arrives; a take is
 * complete only at `done`, so a stream that ends without it (a cut) throws. An `error` event after the first
 * audio carries the vendor's status and message. The org's key goes in `X-API-Key`.
 */
export class VendorBAdapter extends HttpVendorAdapter {
  constructor(options: AdapterOptions) {
    super(VENDOR, options, vendorBErrorMessage);
  }

  async *synthesize(call: SynthesisCall): AsyncGenerator<SynthesisEvent> {
    const body = vendorBBody(call.settings, call.text);
    const headers = { accept: 'text/event-stream', 'x-api-key': call.apiKey };
    yield* this.exchange({ path: VENDOR_B_STREAM_PATH, body, headers, signal: call.signal }, streamAudio);
  }

  async listVoices(request: VoiceListRequest): Promise<Voice[]> {
    const body = await this.getJson<{ voices?: unknown }>(
      VENDOR_B_VOICES_PATH,
      { 'x-api-key': request.apiKey },
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
      const message = parseJsonObject<StreamEvent>(VENDOR, data, 'an event');
      const kind = event === 'message' && typeof message.type === 'string' ? message.type : event;
      if (kind === 'chunk') {
        if (typeof message.data !== 'string') throw vendorMalformed(VENDOR, 'a chunk without audio');
        const audio = Buffer.from(message.data, 'base64');
        return { events: audio.length > 0 ? [{ kind: 'audio', data: audio }] : [] };
      }
      if (kind === 'error') {
        const status = typeof message.status_code === 'number' ? message.status_code : 502;
        const text = typeof message.message === 'string' ? message.message : message.title;
        throw vendorFailure(VENDOR, status, typeof text === 'string' ? text : '');
      }
      return { complete: kind === 'done' };
    },
    'its done event',
  );
}

export const createVendorBAdapter: AdapterFactory = (options) => new VendorBAdapter(options);
