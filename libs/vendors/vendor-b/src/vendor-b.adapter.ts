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
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown }; message?: unknown };
    if (typeof parsed.error?.message === 'string') return parsed.error.message;
    if (typeof parsed.message === 'string') return parsed.message;
  } catch {
    // Not JSON: the body itself is the vendor's message.
  }
  return body.slice(0, 1000);
}

export interface SseEvent {
  readonly event: string;
  readonly data: string;
}

/** Server-sent events from a text stream (any chunking; `\n` or `\r\n` line ends). */
export async function* parseSse(text: AsyncIterable<string>): AsyncGenerator<SseEvent> {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  for await (const part of text) {
    buffer += part;
    let end: number;
    while ((end = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, end).replace(/\r$/, '');
      buffer = buffer.slice(end + 1);
      if (line === '') {
        if (data.length > 0) yield { event: event || 'message', data: data.join('\n') };
        event = '';
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
  }
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
export class VendorBAdapter implements VendorAdapter {
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
    const body = vendorBBody(call.settings, call.text);
    const response = await this.post(VENDOR_B_STREAM_PATH, body, call);
    let done = false;
    try {
      response.body.setEncoding('utf8');
      for await (const { event, data } of parseSse(response.body as AsyncIterable<string>)) {
        // Read on to the end of the body after `done`, so the connection goes back to the pool.
        if (done) continue;
        const message = parseEvent(data);
        const kind = event === 'message' && typeof message.type === 'string' ? message.type : event;
        if (kind === 'chunk') {
          if (typeof message.data !== 'string') throw malformed('a chunk without audio');
          const audio = Buffer.from(message.data, 'base64');
          if (audio.length > 0) yield { kind: 'audio', data: audio };
        } else if (kind === 'done') {
          done = true;
        } else if (kind === 'error') {
          const status = typeof message.status_code === 'number' ? message.status_code : 502;
          const text = typeof message.message === 'string' ? message.message : message.title;
          throw vendorFailure(VENDOR, status, typeof text === 'string' ? text : '');
        }
      }
    } catch (error) {
      // The vendor completed the take at `done`; a connection lost after it loses nothing.
      if (!done) throw upstreamFailure(error, call.signal);
    } finally {
      // Left early (a consumer that stopped, an error): drop the connection rather than drain a take nobody wants.
      if (!response.body.readableEnded) response.body.destroy();
    }
    if (!done) throw vendorUnreachable(VENDOR, new Error('the event stream ended before its done event'));
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
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          'x-api-key': call.apiKey,
        },
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
    throw vendorFailure(VENDOR, response.statusCode, vendorBErrorMessage(text));
  }
}

function parseEvent(data: string): StreamEvent {
  try {
    const parsed: unknown = JSON.parse(data);
    if (typeof parsed === 'object' && parsed !== null) return parsed;
  } catch {
    // Reported below as a malformed event.
  }
  throw malformed('an event that is not a JSON object');
}

function malformed(what: string): RouterError {
  return new RouterError('provider_unavailable', `${VENDOR} sent ${what}`);
}

/** An aborted call ends with its signal's reason; anything else that is not already a router error is a lost connection. */
function upstreamFailure(error: unknown, signal: AbortSignal): unknown {
  if (signal.aborted) return signal.reason;
  if (error instanceof RouterError) return error;
  return vendorUnreachable(VENDOR, error);
}

export const createVendorBAdapter: AdapterFactory = (options) => new VendorBAdapter(options);
