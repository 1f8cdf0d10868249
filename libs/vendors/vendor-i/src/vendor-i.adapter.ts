import { RouterError, type SynthSettings, type WordTiming } from '@router/contracts';
import {
  HttpVendorAdapter,
  audioPassThrough,
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

const VENDOR: VendorId = 'vendor_i';

/** The API version the adapter speaks: JSON error bodies (from 2026-03-01) and the current request shape. */
export const VENDOR_I_API_VERSION = '2026-08-14';

/** The streaming endpoint (raw audio only): `chunk` events, `timestamps` with `add_timestamps`, then `done`. */
export const VENDOR_I_SSE_PATH = '/tts/sse';
/** The one-shot endpoint, for the containers the streaming endpoints lack (wav, mp3). */
export const VENDOR_I_BYTES_PATH = '/tts/bytes';

/** The vendor's raw encodings for the router's headerless formats. */
const RAW_ENCODINGS: Readonly<Record<string, string>> = {
  pcm: 'pcm_s16le',
  mulaw: 'pcm_mulaw',
  alaw: 'pcm_alaw',
};

/** The vendor's default mp3 bit rate; the router's catalogue has no option to change it. */
const MP3_BIT_RATE = 128000;

export interface VendorIRequest {
  readonly path: string;
  readonly body: Record<string, unknown>;
  /** Word timestamps were asked for (SSE only). */
  readonly timestamps: boolean;
}

function outputFormat(settings: SynthSettings): Record<string, unknown> {
  const rate = settings.sampleRate;
  const raw = RAW_ENCODINGS[settings.format];
  if (raw !== undefined) return { container: 'raw', encoding: raw, sample_rate: rate };
  if (settings.format === 'wav') return { container: 'wav', encoding: 'pcm_s16le', sample_rate: rate };
  if (settings.format === 'mp3') return { container: 'mp3', sample_rate: rate, bit_rate: MP3_BIT_RATE };
  throw RouterError.badRequest(`${VENDOR} cannot produce ${settings.format} audio`);
}

/**
 * The vendor request for one piece. Raw formats stream over SSE (earliest audio, and the only endpoint with
 * word timestamps); wav and mp3 exist only on the one-shot endpoint, whose body is the vendor's own file.
 * `speed`, `volume` and `emotion` travel in `generation_config`, only when set.
 */
export function vendorIRequest(settings: SynthSettings, text: string): VendorIRequest {
  const format = outputFormat(settings);
  const streaming = format['container'] === 'raw';
  const body: Record<string, unknown> = {
    model_id: settings.model,
    transcript: text,
    voice: { mode: 'id', id: settings.voice },
    output_format: format,
  };
  if (settings.language !== null) body['language'] = settings.language;
  const config: Record<string, unknown> = {};
  if (settings.speed !== null) config['speed'] = settings.speed;
  for (const name of ['volume', 'emotion'] as const) {
    const value = settings.options[name];
    if (value !== null && value !== undefined) config[name] = value;
  }
  if (Object.keys(config).length > 0) body['generation_config'] = config;
  const dict = settings.options['pronunciation_dict_id'];
  if (typeof dict === 'string') body['pronunciation_dict_id'] = dict;
  const timestamps = streaming && settings.options['word_timestamps'] !== false;
  if (timestamps) body['add_timestamps'] = true;
  return { path: streaming ? VENDOR_I_SSE_PATH : VENDOR_I_BYTES_PATH, body, timestamps };
}

/** The vendor's refusal text: `message` of a JSON error, else the plain `Title: Message` body. */
export function vendorIErrorMessage(body: string): string {
  return readRefusal(body, (json) => stringAt(json, 'message') ?? stringAt(json, 'title'));
}

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

interface StreamEvent {
  type?: unknown;
  data?: unknown;
  word_timestamps?: unknown;
  status_code?: unknown;
  message?: unknown;
  title?: unknown;
}

/**
 * vendor_i over keep-alive HTTP: raw formats from its SSE endpoint (each `chunk` yielded as it arrives, word
 * timings yielded once the take is complete at `done`), wav and mp3 from the one-shot endpoint, passed through
 * as the body arrives. The org's key goes in `X-API-Key`, with the pinned `vendor_i-Version`.
 */
export class VendorIAdapter extends HttpVendorAdapter {
  constructor(options: AdapterOptions) {
    super(VENDOR, options, vendorIErrorMessage);
  }

  async *synthesize(call: SynthesisCall): AsyncGenerator<SynthesisEvent> {
    const { path, body, timestamps } = vendorIRequest(call.settings, call.text);
    const streaming = path === VENDOR_I_SSE_PATH;
    const headers = {
      'x-api-key': call.apiKey,
      'vendor_i-version': VENDOR_I_API_VERSION,
      accept: streaming ? 'text/event-stream' : this.contentType(call.settings),
    };
    const read = streaming
      ? (answer: UpstreamBody) => streamAudio(answer, timestamps ? new WordTrack(call.text) : undefined)
      : audioPassThrough;
    yield* this.exchange({ path, body, headers, signal: call.signal }, read);
  }
}

function streamAudio(body: UpstreamBody, track: WordTrack | undefined): AsyncGenerator<SynthesisEvent> {
  return readSseTake(
    VENDOR,
    body,
    ({ event, data }) => {
      const message = parseJsonObject<StreamEvent>(VENDOR, data, 'an event');
      const kind = typeof message.type === 'string' ? message.type : event;
      if (kind === 'chunk') {
        if (typeof message.data !== 'string') throw vendorMalformed(VENDOR, 'a chunk without audio');
        const audio = Buffer.from(message.data, 'base64');
        return { events: audio.length > 0 ? [{ kind: 'audio', data: audio }] : [] };
      }
      if (kind === 'timestamps') {
        track?.add(message.word_timestamps);
        return {};
      }
      if (kind === 'error') {
        const status = typeof message.status_code === 'number' ? message.status_code : 502;
        const text = typeof message.message === 'string' ? message.message : message.title;
        throw vendorFailure(VENDOR, status, typeof text === 'string' ? text : '');
      }
      if (kind !== 'done') return {};
      // The timings come whole once the take is complete.
      const words = track?.words() ?? [];
      return { complete: true, events: words.length > 0 ? [{ kind: 'words', words }] : [] };
    },
    'its done event',
  );
}

export const createVendorIAdapter: AdapterFactory = (options) => new VendorIAdapter(options);
