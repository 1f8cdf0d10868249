import type { SynthSettings } from '@router/contracts';
import { producibleFormat, readFlag } from '@router/vendors-core';
import type { VendorFProblem } from './vendor-f.errors';
import {
  isVendorFCodec,
  VENDOR_F_CODECS,
  VENDOR_F_DEFAULT_MP3_BIT_RATE,
  VENDOR_F_MP3_BIT_RATES,
  VENDOR_F_RATES,
  type VendorFCodec,
} from './vendor-f.formats';

/*
 * vendor_f's synthesis settings, both directions: `vendorFBody` builds a `POST /v1/tts` body from the
 * router's settings (the adapter); `parseVendorFSettings` validates a REST body's or a socket query's
 * settings as the vendor does, refusing with its gateway's shape (the simulator, the mirror).
 */

export const VENDOR_F_TTS_PATH = '/v1/tts';
// prettier-ignore
export const VENDOR_F_LANGUAGES = [
  'en', 'zh', 'fr', 'de', 'hi', 'id', 'it', 'ja', 'ko', 'pt-BR', 'pt-PT', 'ru', 'es-MX', 'es-ES', 'tr',
  'vi', 'bn', 'ar-EG', 'ar-SA', 'ar-AE',
];
export const VENDOR_F_TEXT_LIMIT = 15_000;
/** The voice every call without `voice_id` gets. */
export const VENDOR_F_DEFAULT_VOICE = 'aster';

/** A voice id as the vendor reads it: in any case (its built-in names are lower-case, and so are the keys). */
export function vendorFVoiceId(id: string): string {
  return id.toLowerCase();
}

/**
 * What the vendor takes for a setting left out (or null), said once: the parser applies them, the mirror's
 * keying fills them and its socket reads them as left out.
 */
export const VENDOR_F_DEFAULTS = {
  voice: VENDOR_F_DEFAULT_VOICE,
  /** The vendor detects the language. */
  language: 'auto',
  codec: 'mp3',
  sampleRate: 24000,
  speed: 1.0,
  optimizeStreamingLatency: 0,
  textNormalization: false,
} as const;

/** Options sent as body fields of the same name when set (null leaves the vendor's default). */
const PASSED_OPTIONS = ['optimize_streaming_latency', 'text_normalization'] as const;

/**
 * The body of one piece. The vendor has one engine, so the model is not sent; a language left out is sent
 * as `auto`, so the vendor detects it.
 */
export function vendorFBody(settings: SynthSettings, text: string): Record<string, unknown> {
  const codec = producibleFormat('vendor_f', settings.format, isVendorFCodec);
  const output: Record<string, unknown> = { codec, sample_rate: settings.sampleRate };
  const bitRate = settings.options['bit_rate'];
  if (codec === 'mp3' && typeof bitRate === 'number') output['bit_rate'] = bitRate;
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

/** Checks an utterance's text; a message for the vendor's 400, or null. */
export function vendorFTextProblem(text: unknown): string | null {
  if (typeof text !== 'string' || text.trim() === '') return 'text is required';
  if (text.length > VENDOR_F_TEXT_LIMIT) return `text must be at most ${VENDOR_F_TEXT_LIMIT} characters`;
  return null;
}

/** The synthesis settings of one REST call or one socket (where they are fixed for the connection). */
export interface VendorFSettings {
  readonly voiceId: string;
  /** A code of `VENDOR_F_LANGUAGES`, or `auto` (the vendor detects it). */
  readonly language: string;
  readonly spec: { readonly codec: VendorFCodec; readonly sampleRate: number; readonly bitrateKbps?: number };
  readonly speed: number;
  readonly optimizeStreamingLatency: number;
  readonly textNormalization: boolean;
}

/** The settings as sent, before checks: JSON values from a REST body, strings from a socket's query. */
export interface RawVendorFSettings {
  readonly voice: unknown;
  readonly language: unknown;
  readonly codec: unknown;
  readonly sampleRate: unknown;
  readonly bitRate: unknown;
  readonly speed: unknown;
  readonly optimizeStreamingLatency: unknown;
  readonly textNormalization: unknown;
}

type Parsed = { ok: true; settings: VendorFSettings } | { ok: false; problem: VendorFProblem };

function bad(message: string): Parsed {
  return { ok: false, problem: { status: 400, message } };
}

/**
 * Validates the settings as the vendor does. `findVoice` is the server's voice list for the caller's account
 * (built-in and custom voices); it answers the voice's canonical id.
 */
export function parseVendorFSettings(
  raw: RawVendorFSettings,
  findVoice: (voiceId: string) => { readonly voice_id: string } | undefined,
): Parsed {
  const voiceId = raw.voice ?? VENDOR_F_DEFAULTS.voice;
  if (typeof voiceId !== 'string' || voiceId === '') return bad('voice_id must be a non-empty string');
  const voice = findVoice(voiceId);
  if (!voice) return bad(`invalid voice: ${voiceId}`);
  const language = raw.language ?? VENDOR_F_DEFAULTS.language;
  if (
    typeof language !== 'string' ||
    (language !== VENDOR_F_DEFAULTS.language && !VENDOR_F_LANGUAGES.includes(language))
  ) {
    return bad(`unsupported language: ${String(JSON.stringify(language))}`);
  }
  const codec = raw.codec ?? VENDOR_F_DEFAULTS.codec;
  if (!isVendorFCodec(codec)) return bad(`codec must be one of ${VENDOR_F_CODECS.join(', ')}`);
  const rate = raw.sampleRate ?? VENDOR_F_DEFAULTS.sampleRate;
  if (typeof rate !== 'number' || !VENDOR_F_RATES.includes(rate)) {
    return bad(`sample_rate must be one of ${VENDOR_F_RATES.join(', ')}`);
  }
  let bitrateKbps: number | undefined;
  if (raw.bitRate !== undefined) {
    if (codec !== 'mp3') return bad('bit_rate is only supported for mp3');
    if (typeof raw.bitRate !== 'number' || !VENDOR_F_MP3_BIT_RATES.includes(raw.bitRate)) {
      return bad(`bit_rate must be one of ${VENDOR_F_MP3_BIT_RATES.join(', ')}`);
    }
    bitrateKbps = raw.bitRate / 1000;
  } else if (codec === 'mp3') bitrateKbps = VENDOR_F_DEFAULT_MP3_BIT_RATE / 1000;
  const speed = raw.speed ?? VENDOR_F_DEFAULTS.speed;
  if (typeof speed !== 'number' || !(speed >= 0.7 && speed <= 1.5))
    return bad('speed must be between 0.7 and 1.5');
  const latency = raw.optimizeStreamingLatency ?? VENDOR_F_DEFAULTS.optimizeStreamingLatency;
  if (typeof latency !== 'number' || ![0, 1, 2].includes(latency)) {
    return bad('optimize_streaming_latency must be 0, 1 or 2');
  }
  const normalization = readFlag(raw.textNormalization ?? VENDOR_F_DEFAULTS.textNormalization);
  if (normalization === undefined) return bad('text_normalization must be a boolean');
  return {
    ok: true,
    settings: {
      voiceId: voice.voice_id,
      language,
      spec: { codec, sampleRate: rate, ...(bitrateKbps !== undefined ? { bitrateKbps } : {}) },
      speed,
      optimizeStreamingLatency: latency,
      textNormalization: normalization,
    },
  };
}

/** The REST body's settings: `voice_id`, `language`, `output_format{codec, sample_rate, bit_rate}`, and the rest. */
export function restSettings(body: Record<string, unknown>): RawVendorFSettings | string {
  const format = body['output_format'];
  if (format !== undefined && (typeof format !== 'object' || format === null || Array.isArray(format))) {
    return 'output_format must be an object';
  }
  const output = (format ?? {}) as Record<string, unknown>;
  return {
    voice: body['voice_id'],
    language: body['language'],
    codec: output['codec'],
    sampleRate: output['sample_rate'],
    bitRate: output['bit_rate'],
    speed: body['speed'],
    optimizeStreamingLatency: body['optimize_streaming_latency'],
    textNormalization: body['text_normalization'],
  };
}

/**
 * A socket's query as settings: numbers parsed, `text_normalization` as the spelling of a boolean it is
 * (`readFlag`; anything else is passed on as a string, which the checks refuse).
 */
export function querySettings(query: URLSearchParams): RawVendorFSettings {
  const number = (name: string): unknown => {
    const value = query.get(name);
    if (value === null) return undefined;
    const parsed = Number(value);
    return value.trim() !== '' && Number.isFinite(parsed) ? parsed : value;
  };
  const normalization = query.get('text_normalization');
  return {
    voice: query.get('voice') ?? undefined,
    language: query.get('language') ?? undefined,
    codec: query.get('codec') ?? undefined,
    sampleRate: number('sample_rate'),
    bitRate: number('bit_rate'),
    speed: number('speed'),
    optimizeStreamingLatency: number('optimize_streaming_latency'),
    textNormalization: normalization === null ? undefined : (readFlag(normalization) ?? normalization),
  };
}
