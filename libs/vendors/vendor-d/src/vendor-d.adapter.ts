import { RouterError, type SynthSettings } from '@router/contracts';
import {
  HttpVendorAdapter,
  audioPassThrough,
  readRefusal,
  stringAt,
  type AdapterFactory,
  type AdapterOptions,
  type SynthesisCall,
  type SynthesisEvent,
  type VendorId,
  type Voice,
  type VoiceListRequest,
  catalogueVoiceList,
} from '@router/vendors-core';
import { vendorD } from './vendor-d.definition';

const VENDOR: VendorId = 'vendor_d';

/** The router's formats the vendor makes without re-encoding; its names are the router's. */
const FORMATS: ReadonlySet<string> = new Set(['pcm', 'wav', 'mp3', 'aac']);

/** The vendor makes every format at this rate only. */
const SAMPLE_RATE = 24000;

/** The models that take `instructions` (the older two ignore it, so it is never sent to them). */
const INSTRUCTION_MODELS: ReadonlySet<string> = new Set(['d_model_3', 'd_model_4']);

export const VENDOR_D_SPEECH_PATH = '/v1/audio/speech';

/**
 * The body of one piece. `stream_format: audio` gives chunked raw audio as it is made: the earliest audio,
 * and the one streamed form the older models have (they refuse SSE).
 */
export function vendorDBody(settings: SynthSettings, text: string): Record<string, unknown> {
  if (!FORMATS.has(settings.format))
    throw RouterError.badRequest(`${VENDOR} cannot produce ${settings.format} audio`);
  if (settings.sampleRate !== SAMPLE_RATE)
    throw RouterError.badRequest(`${VENDOR} makes audio at ${SAMPLE_RATE} Hz only`);
  const body: Record<string, unknown> = {
    model: settings.model,
    voice: settings.voice,
    input: text,
    response_format: settings.format,
    speed: settings.speed ?? 1.0,
    stream_format: 'audio',
  };
  const instructions = settings.options['instructions'];
  if (typeof instructions === 'string' && INSTRUCTION_MODELS.has(settings.model)) {
    body['instructions'] = instructions;
  }
  return body;
}

/** The vendor's refusal text: `{error: {message}}`, else the body as sent. */
export function vendorDErrorMessage(body: string): string {
  return readRefusal(body, (json) => stringAt(json, 'error', 'message'));
}

/**
 * vendor_d over HTTP with keep-alive: `POST /v1/audio/speech` with `stream_format: audio`, the chunked audio
 * passed through as it arrives (a cut body is a lost connection). The org's key goes in
 * `Authorization: Bearer`.
 */
export class VendorDAdapter extends HttpVendorAdapter {
  constructor(options: AdapterOptions) {
    super(VENDOR, options, vendorDErrorMessage);
  }

  async *synthesize(call: SynthesisCall): AsyncGenerator<SynthesisEvent> {
    const body = vendorDBody(call.settings, call.text);
    const headers = { authorization: `Bearer ${call.apiKey}`, accept: 'application/octet-stream' };
    yield* this.exchange(
      { path: VENDOR_D_SPEECH_PATH, body, headers, signal: call.signal },
      audioPassThrough,
    );
  }

  /**
   * The vendor publishes no voice list: the voices are the router's catalogue (no vendor call; the org's key
   * is only required, as for every vendor).
   */
  listVoices(request: VoiceListRequest): Promise<Voice[]> {
    return Promise.resolve(catalogueVoiceList(vendorD, request.model));
  }
}

export const createVendorDAdapter: AdapterFactory = (options) => new VendorDAdapter(options);
