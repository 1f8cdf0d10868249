import type { AudioSpec, SimCodec } from '../kit/audio/audio-spec';
import type { VendorFProblem } from './vendor-f.errors';
import { findVendorFVoice, VENDOR_F_DEFAULT_VOICE } from './vendor-f.voices';

const CODECS: readonly SimCodec[] = ['mp3', 'wav', 'pcm', 'mulaw', 'alaw'];
const RATES = [8000, 16000, 22050, 24000, 44100, 48000];
const MP3_BIT_RATES = [32000, 64000, 96000, 128000, 192000];
// prettier-ignore
export const VENDOR_F_LANGUAGES = [
  'en', 'zh', 'fr', 'de', 'hi', 'id', 'it', 'ja', 'ko', 'pt-BR', 'pt-PT', 'ru', 'es-MX', 'es-ES', 'tr',
  'vi', 'bn', 'ar-EG', 'ar-SA', 'ar-AE',
];
export const VENDOR_F_TEXT_LIMIT = 15_000;

/** The synthesis settings of one REST call or one socket (where they are fixed for the connection). */
export interface VendorFSettings {
  readonly voiceId: string;
  /** A code of `VENDOR_F_LANGUAGES`, or `auto` (the vendor detects it). */
  readonly language: string;
  readonly spec: AudioSpec;
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

/** Validates the settings as the vendor does; `key` decides which custom voices exist. */
export function parseVendorFSettings(raw: RawVendorFSettings, key: string): Parsed {
  const voiceId = raw.voice ?? VENDOR_F_DEFAULT_VOICE;
  if (typeof voiceId !== 'string' || voiceId === '') return bad('voice_id must be a non-empty string');
  const voice = findVendorFVoice(key, voiceId);
  if (!voice) return bad(`invalid voice: ${voiceId}`);
  const language = raw.language ?? 'auto';
  if (typeof language !== 'string' || (language !== 'auto' && !VENDOR_F_LANGUAGES.includes(language))) {
    return bad(`unsupported language: ${String(JSON.stringify(language))}`);
  }
  const codec = raw.codec ?? 'mp3';
  if (typeof codec !== 'string' || !(CODECS as readonly string[]).includes(codec)) {
    return bad(`codec must be one of ${CODECS.join(', ')}`);
  }
  const rate = raw.sampleRate ?? 24000;
  if (typeof rate !== 'number' || !RATES.includes(rate)) {
    return bad(`sample_rate must be one of ${RATES.join(', ')}`);
  }
  let bitrateKbps: number | undefined;
  if (raw.bitRate !== undefined) {
    if (codec !== 'mp3') return bad('bit_rate is only supported for mp3');
    if (typeof raw.bitRate !== 'number' || !MP3_BIT_RATES.includes(raw.bitRate)) {
      return bad(`bit_rate must be one of ${MP3_BIT_RATES.join(', ')}`);
    }
    bitrateKbps = raw.bitRate / 1000;
  } else if (codec === 'mp3') bitrateKbps = 128;
  const speed = raw.speed ?? 1.0;
  if (typeof speed !== 'number' || !(speed >= 0.7 && speed <= 1.5))
    return bad('speed must be between 0.7 and 1.5');
  const latency = raw.optimizeStreamingLatency ?? 0;
  if (typeof latency !== 'number' || ![0, 1, 2].includes(latency)) {
    return bad('optimize_streaming_latency must be 0, 1 or 2');
  }
  const normalization = raw.textNormalization ?? false;
  if (typeof normalization !== 'boolean') return bad('text_normalization must be a boolean');
  return {
    ok: true,
    settings: {
      voiceId: voice.voice_id,
      language,
      spec: {
        codec: codec as SimCodec,
        sampleRate: rate,
        ...(bitrateKbps !== undefined ? { bitrateKbps } : {}),
      },
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
 * A socket's query as settings: numbers parsed, `text_normalization` only as lowercase `true`/`false`
 * (anything else is passed on as a string, which the checks refuse).
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
    textNormalization:
      normalization === null
        ? undefined
        : normalization === 'true'
          ? true
          : normalization === 'false'
            ? false
            : normalization,
  };
}
