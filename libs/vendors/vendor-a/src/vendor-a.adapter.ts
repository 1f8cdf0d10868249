import { RouterError, type SynthSettings } from '@router/contracts';
import {
  FORMAT_CONTENT_TYPES,
  vendorFailure,
  vendorUnreachable,
  type AdapterFactory,
  type AdapterOptions,
  type SynthesisCall,
  type SynthesisEvent,
  type VendorAdapter,
  type VendorId,
} from '@router/vendors-core';
import { Agent, request, type Dispatcher } from 'undici';

const VENDOR: VendorId = 'vendor_a';

/** The vendor's own codec names (`linear16` is its raw 16-bit PCM). */
const CODECS: Readonly<Record<string, string>> = {
  pcm: 'linear16',
  wav: 'wav',
  mp3: 'mp3',
  aac: 'aac',
  mulaw: 'mulaw',
  alaw: 'alaw',
};

/** Above this rate the vendor serves audio only from its one-shot REST endpoint (spec: Native speech). */
const STREAMING_MAX_RATE = 24000;

/** Option name → the vendor's body field, where they differ. */
const OPTION_FIELDS: Readonly<Record<string, string>> = { bitrate: 'output_audio_bitrate' };

export interface VendorARequest {
  /** `/text-to-speech/stream` (chunked audio as it is made) or `/text-to-speech` (one JSON answer). */
  readonly path: '/text-to-speech/stream' | '/text-to-speech';
  readonly body: Record<string, unknown>;
}

/**
 * The vendor request for one piece. The streaming endpoint gives the first audio earliest; rates above 24000 Hz
 * exist only on the one-shot endpoint, so those takes arrive whole.
 */
export function vendorARequest(settings: SynthSettings, text: string): VendorARequest {
  const codec = CODECS[settings.format];
  if (!codec) throw RouterError.badRequest(`${VENDOR} cannot produce ${settings.format} audio`);
  const body: Record<string, unknown> = {
    text,
    target_language_code: settings.language,
    speaker: settings.voice,
    model: settings.model,
    pace: settings.speed ?? 1.0,
    speech_sample_rate: settings.sampleRate,
    output_audio_codec: codec,
  };
  for (const [name, value] of Object.entries(settings.options)) {
    if (value !== null && value !== undefined) body[OPTION_FIELDS[name] ?? name] = value;
  }
  const path = settings.sampleRate > STREAMING_MAX_RATE ? '/text-to-speech' : '/text-to-speech/stream';
  return { path, body };
}

/** The vendor's refusal text: `{error: {message}}`, else the framework's `{detail}`, else the body as sent. */
export function vendorAErrorMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown }; detail?: unknown };
    if (typeof parsed.error?.message === 'string') return parsed.error.message;
    if (typeof parsed.detail === 'string') return parsed.detail;
  } catch {
    // Not JSON: the body itself is the vendor's message.
  }
  return body.slice(0, 1000);
}

/**
 * vendor_a over HTTP with keep-alive: `POST /text-to-speech/stream` passes the audio through chunk by chunk as
 * it arrives; `POST /text-to-speech` (only for 32000 to 48000 Hz) yields the decoded `audios` once complete.
 * The org's key goes in `api-subscription-key`.
 */
export class VendorAAdapter implements VendorAdapter {
  readonly vendor = VENDOR;
  private readonly baseUrl: string;
  private readonly dispatcher: Agent;

  constructor(options: AdapterOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.dispatcher = new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 120_000 });
  }

  contentType(settings: SynthSettings): string {
    return FORMAT_CONTENT_TYPES[settings.format] ?? 'application/octet-stream';
  }

  async *synthesize(call: SynthesisCall): AsyncGenerator<SynthesisEvent> {
    const { path, body } = vendorARequest(call.settings, call.text);
    const response = await this.post(path, body, call);
    try {
      if (path === '/text-to-speech') {
        yield { kind: 'audio', data: await this.oneShotAudio(response, call.signal) };
        return;
      }
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        if (chunk.length > 0) yield { kind: 'audio', data: chunk };
      }
    } catch (error) {
      throw upstreamFailure(error, call.signal);
    } finally {
      // Left early (a consumer that stopped, an error): drop the connection rather than drain a take nobody wants.
      if (!response.body.readableEnded) response.body.destroy();
    }
  }

  /** Closes the pooled connections. */
  close(): Promise<void> {
    return this.dispatcher.close();
  }

  private async post(path: string, body: unknown, call: SynthesisCall): Promise<Dispatcher.ResponseData> {
    if (call.signal.aborted) throw call.signal.reason;
    let response: Dispatcher.ResponseData;
    try {
      response = await request(`${this.baseUrl}${path}`, {
        method: 'POST',
        dispatcher: this.dispatcher,
        signal: call.signal,
        headers: { 'content-type': 'application/json', 'api-subscription-key': call.apiKey },
        body: JSON.stringify(body),
      });
    } catch (error) {
      throw upstreamFailure(error, call.signal);
    }
    if (response.statusCode < 400) return response;
    let text: string;
    try {
      text = await response.body.text();
    } catch (error) {
      throw upstreamFailure(error, call.signal);
    }
    throw vendorFailure(VENDOR, response.statusCode, vendorAErrorMessage(text));
  }

  private async oneShotAudio(response: Dispatcher.ResponseData, signal: AbortSignal): Promise<Buffer> {
    const text = await response.body.text();
    if (signal.aborted) throw signal.reason;
    let audios: unknown;
    try {
      audios = (JSON.parse(text) as { audios?: unknown }).audios;
    } catch {
      audios = undefined;
    }
    if (!Array.isArray(audios) || audios.length === 0 || !audios.every((a) => typeof a === 'string')) {
      throw new RouterError('provider_unavailable', `${VENDOR} answered without audio`);
    }
    return Buffer.concat(audios.map((a) => Buffer.from(a, 'base64')));
  }
}

/** An aborted call ends with its signal's reason; anything else that is not already a router error is a lost connection. */
function upstreamFailure(error: unknown, signal: AbortSignal): unknown {
  if (signal.aborted) return signal.reason;
  if (error instanceof RouterError) return error;
  return vendorUnreachable(VENDOR, error);
}

export const createVendorAAdapter: AdapterFactory = (options) => new VendorAAdapter(options);
