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
} from '@router/vendors-core';
import { VENDOR_F_VOICES_PATH, vendorFVoices } from './vendor-f.voices';

const VENDOR: VendorId = 'vendor_f';

/** The router's formats are the vendor's codec names (`pcm` is raw s16le). */
const CODECS: ReadonlySet<string> = new Set(['pcm', 'wav', 'mp3', 'mulaw', 'alaw']);

/** Options sent as body fields of the same name when set (null leaves the vendor's default). */
const PASSED_OPTIONS = ['optimize_streaming_latency', 'text_normalization'] as const;

export const VENDOR_F_TTS_PATH = '/v1/tts';

/**
 * The body of one piece. The vendor has one engine, so the model is not sent; a language left out is sent
 * as `auto`, so the vendor detects it.
 */
export function vendorFBody(settings: SynthSettings, text: string): Record<string, unknown> {
  if (!CODECS.has(settings.format))
    throw RouterError.badRequest(`${VENDOR} cannot produce ${settings.format} audio`);
  const output: Record<string, unknown> = { codec: settings.format, sample_rate: settings.sampleRate };
  const bitRate = settings.options['bit_rate'];
  if (settings.format === 'mp3' && typeof bitRate === 'number') output['bit_rate'] = bitRate;
  const body: Record<string, unknown> = {
    text,
    voice_id: settings.voice,
    language: settings.language ?? 'auto',
    output_format: output,
    speed: settings.speed ?? 1.0,
  };
  for (const name of PASSED_OPTIONS) {
    const value = settings.options[name];
    if (value !== null && value !== undefined) body[name] = value;
  }
  return body;
}

/** The vendor gateway's refusal text: `{code, error}`, else `{message}`, else the body. */
export function vendorFErrorMessage(body: string): string {
  return readRefusal(body, (json) => stringAt(json, 'error') ?? stringAt(json, 'message'));
}

/**
 * vendor_f over HTTP with keep-alive: `POST /v1/tts` streams the raw audio in chunks as it is made, passed
 * through as it arrives (its socket gives no earlier audio for a whole sentence). The org's key goes in
 * `Authorization: Bearer`.
 */
export class VendorFAdapter extends HttpVendorAdapter {
  constructor(options: AdapterOptions) {
    super(VENDOR, options, vendorFErrorMessage);
  }

  async *synthesize(call: SynthesisCall): AsyncGenerator<SynthesisEvent> {
    const body = vendorFBody(call.settings, call.text);
    const headers = { authorization: `Bearer ${call.apiKey}` };
    yield* this.exchange({ path: VENDOR_F_TTS_PATH, body, headers, signal: call.signal }, audioPassThrough);
  }

  async listVoices(request: VoiceListRequest): Promise<Voice[]> {
    const headers = { authorization: `Bearer ${request.apiKey}` };
    const body = await this.getJson<{ voices?: unknown }>(VENDOR_F_VOICES_PATH, headers, request.signal);
    return vendorFVoices(body, request.model);
  }
}

export const createVendorFAdapter: AdapterFactory = (options) => new VendorFAdapter(options);
