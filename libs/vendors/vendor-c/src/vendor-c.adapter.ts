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
import { vendorC } from './vendor-c.definition';
import { CharacterTrack, preferredAlignment, wordTimings } from './vendor-c.word-timings';

const VENDOR: VendorId = 'vendor_c';

/** The mp3 bitrate each rate comes at when the `bitrate` option is left out (spec: Options). */
const DEFAULT_MP3_KBPS: Readonly<Record<number, number>> = { 22050: 32, 24000: 48, 44100: 128 };

/** Options that become the endpoint, the query or the word timings instead of a body field of the same name. */
const NOT_IN_BODY: ReadonlySet<string> = new Set([
  'bitrate',
  'sync_alignment',
  'preferred_alignment',
  'enable_logging',
  'enable_ssml_parsing',
]);

/** `output_format`: `<codec>_<rate>[_<kbps>]`. */
export function vendorCOutputFormat(settings: SynthSettings): string {
  const rate = settings.sampleRate;
  switch (settings.format) {
    case 'pcm':
    case 'wav':
    case 'alaw':
      return `${settings.format}_${rate}`;
    case 'mulaw':
      return `ulaw_${rate}`;
    case 'mp3': {
      const bitrate = settings.options['bitrate'];
      const kbps = typeof bitrate === 'string' ? Number.parseInt(bitrate, 10) : DEFAULT_MP3_KBPS[rate];
      if (kbps === undefined || Number.isNaN(kbps)) {
        throw RouterError.badRequest(`${VENDOR} has no mp3 at ${rate} Hz without a bitrate`);
      }
      return `mp3_${rate}_${kbps}`;
    }
    default:
      throw RouterError.badRequest(`${VENDOR} cannot produce ${settings.format} audio`);
  }
}

export interface VendorCRequest {
  /** Path under the vendor base, with its query. */
  readonly path: string;
  readonly body: Record<string, unknown>;
  /** The answer is JSON lines with character alignments (`sync_alignment`), not raw audio. */
  readonly timestamps: boolean;
}

/**
 * The vendor request for one piece: the streaming endpoint (audio as it is made), `/with-timestamps` when
 * word timings are wanted, and text-to-dialogue for the dialogue models (whose voice settings travel as
 * `settings`). Options go where the vendor takes them: `output_format`, `enable_logging` and
 * `enable_ssml_parsing` in the query, the rest in the body under their own names.
 */
export function vendorCRequest(settings: SynthSettings, text: string): VendorCRequest {
  const dialogue = vendorC.modelTraits[settings.model]?.dialogue === true;
  const timestamps = settings.options['sync_alignment'] !== false;
  const query = new URLSearchParams({ output_format: vendorCOutputFormat(settings) });
  const logging = settings.options['enable_logging'];
  if (typeof logging === 'boolean') query.set('enable_logging', String(logging));
  // The REST endpoints know SSML parsing only as the opt-in; the default (off) is left unsaid.
  if (settings.options['enable_ssml_parsing'] === true) query.set('enable_ssml_parsing', 'true');

  const body: Record<string, unknown> = dialogue
    ? { inputs: [{ text, voice_id: settings.voice }], model_id: settings.model }
    : { text, model_id: settings.model };
  if (settings.language !== null) body['language_code'] = settings.language;
  for (const [name, value] of Object.entries(settings.options)) {
    if (NOT_IN_BODY.has(name) || value === null || value === undefined) continue;
    body[dialogue && name === 'voice_settings' ? 'settings' : name] = value;
  }
  const base = dialogue
    ? '/v1/text-to-dialogue/stream'
    : `/v1/text-to-speech/${encodeURIComponent(settings.voice)}/stream`;
  return { path: `${base}${timestamps ? '/with-timestamps' : ''}?${query.toString()}`, body, timestamps };
}

/** The vendor's refusal text: `detail.message`, a schema error's `loc: msg` list, a plain `detail`, else the body. */
export function vendorCErrorMessage(body: string): string {
  try {
    const { detail } = JSON.parse(body) as { detail?: unknown };
    if (typeof detail === 'string') return detail;
    if (Array.isArray(detail)) {
      return detail
        .map((issue: { loc?: unknown; msg?: unknown }) =>
          Array.isArray(issue.loc) ? `${issue.loc.join('.')}: ${String(issue.msg)}` : String(issue.msg),
        )
        .join('; ');
    }
    if (typeof detail === 'object' && detail !== null) {
      const message = (detail as { message?: unknown }).message;
      if (typeof message === 'string') return message;
    }
  } catch {
    // Not JSON: the body itself is the vendor's message.
  }
  return body.slice(0, 1000);
}

/** Complete lines of a text stream (the last one also when it has no line end). */
async function* lines(text: AsyncIterable<string>): AsyncGenerator<string> {
  let buffer = '';
  for await (const part of text) {
    buffer += part;
    let end: number;
    while ((end = buffer.indexOf('\n')) !== -1) {
      yield buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
    }
  }
  if (buffer.trim() !== '') yield buffer;
}

interface TimestampedChunk {
  audio_base64?: unknown;
  alignment?: unknown;
  normalized_alignment?: unknown;
}

/**
 * vendor_c over its streaming REST endpoints with keep-alive. Without `sync_alignment` the audio bytes pass
 * through as they arrive; with it (the default) each JSON line's audio is yielded as it arrives, its character
 * alignments are collected, and once the take is complete the words of the text are yielded with their
 * times. The org's key goes in `vendor_c-api-key`.
 */
export class VendorCAdapter implements VendorAdapter {
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
    const { settings, text } = call;
    const { path, body, timestamps } = vendorCRequest(settings, text);
    const response = await this.post(path, body, call);
    try {
      if (!timestamps) {
        for await (const chunk of response.body as AsyncIterable<Buffer>) {
          if (chunk.length > 0) yield { kind: 'audio', data: chunk };
        }
        return;
      }
      const original = new CharacterTrack();
      const normalized = new CharacterTrack();
      response.body.setEncoding('utf8');
      for await (const line of lines(response.body as AsyncIterable<string>)) {
        if (line.trim() === '') continue;
        const chunk = parseChunk(line);
        if (typeof chunk.audio_base64 === 'string' && chunk.audio_base64 !== '') {
          yield { kind: 'audio', data: Buffer.from(chunk.audio_base64, 'base64') };
        }
        original.add(chunk.alignment);
        normalized.add(chunk.normalized_alignment);
      }
      if (original.length > 0 || normalized.length > 0) {
        const preferred = preferredAlignment(settings.options['preferred_alignment'], settings.language);
        yield {
          kind: 'words',
          words: wordTimings(text, { original, normalized }, preferred, settings.language),
        };
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
        headers: { 'content-type': 'application/json', 'vendor_c-api-key': call.apiKey },
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
    throw vendorFailure(VENDOR, response.statusCode, vendorCErrorMessage(text));
  }
}

function parseChunk(line: string): TimestampedChunk {
  try {
    const parsed: unknown = JSON.parse(line);
    if (typeof parsed === 'object' && parsed !== null) return parsed;
  } catch {
    // Reported below.
  }
  throw new RouterError('provider_unavailable', `${VENDOR} sent a stream line that is not a JSON object`);
}

/** An aborted call ends with its signal's reason; anything else that is not already a router error is a lost connection. */
function upstreamFailure(error: unknown, signal: AbortSignal): unknown {
  if (signal.aborted) return signal.reason;
  if (error instanceof RouterError) return error;
  return vendorUnreachable(VENDOR, error);
}

export const createVendorCAdapter: AdapterFactory = (options) => new VendorCAdapter(options);
