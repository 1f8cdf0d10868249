import type { SynthSettings } from '@router/contracts';
import { invalidRequest, type VendorGProblem } from './vendor-g.errors';
import {
  VENDOR_G_DEFAULT_FORMAT,
  VENDOR_G_KNOWN_FORMATS,
  VENDOR_G_NATIVE_RATE,
  VENDOR_G_RATES,
  vendorGAudioFormat,
  vendorGCodec,
  type VendorGCodec,
  vendorGIsRaw,
  vendorGSampleEncoding,
} from './vendor-g.formats';

/*
 * vendor_g's generation parameters (`POST /tts` and a socket stream's config message), both directions:
 * `vendorGBody` builds a `/tts` body from the router's settings (the adapter); `parseVendorGSettings` and
 * `parseVendorGRest` validate them as the vendor does, refusing with its error body (the simulator, mirror).
 */

/** The TTS host's request/response endpoint: the raw audio streams in the body as it is made. */
export const VENDOR_G_TTS_PATH = '/tts';
export const VENDOR_G_TEXT_LIMIT = 5000;
export const VENDOR_G_DEFAULT_MODEL = 'g_model_3';
export const VENDOR_G_DEFAULT_LANGUAGE = 'en';
export const VENDOR_G_SPEED = { min: 0.7, max: 1.3 } as const;

/**
 * The body of one piece. The rate is always sent: the vendor requires it for the raw formats. Options the
 * catalogue lacks (a mirror client's `bitrate`) go as the client sent them.
 */
export function vendorGBody(settings: SynthSettings, text: string): Record<string, unknown> {
  const audioFormat = vendorGAudioFormat(settings.format);
  const { reduce_silence: reduceSilence, ...others } = settings.options;
  const fields: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(others)) if (value !== null) fields[name] = value;
  return {
    ...fields,
    text,
    model: settings.model,
    language: settings.language,
    voice: settings.voice,
    audio_format: audioFormat,
    sample_rate: settings.sampleRate,
    speed: settings.speed ?? 1.0,
    // Left out (null), the vendor's own default applies: the request stays as the client wrote it.
    ...(typeof reduceSilence === 'boolean' ? { reduce_silence: reduceSilence } : {}),
  };
}

/** What a server knows of its project: its models, their languages, and which voice each may speak with. */
export interface VendorGProject {
  readonly models: readonly string[];
  languagesOf(model: string): readonly string[];
  /** Why `voice` cannot speak with `model`, or null when it can. */
  voiceProblem(voice: string, model: string): string | null;
}

/** The generation parameters shared by `POST /tts` and a socket stream's config message. */
export interface VendorGSettings {
  readonly model: string;
  readonly language: string;
  readonly voice: string;
  readonly audioFormat: string;
  readonly spec: {
    readonly codec: VendorGCodec;
    readonly sampleRate: number;
    readonly bitrateKbps?: number;
    /** Raw PCM written otherwise than 16-bit little-endian. */
    readonly samples?: 'f32le' | 's16be';
  };
  readonly speed: number;
  readonly reduceSilence: boolean;
  readonly returnTimestamps: boolean;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; problem: VendorGProblem };

function bad<T>(message: string, field?: string): Parsed<T> {
  return { ok: false, problem: invalidRequest(message, field) };
}

/** Validates generation parameters the way the vendor does. */
export function parseVendorGSettings(
  fields: Readonly<Record<string, unknown>>,
  project: VendorGProject,
): Parsed<VendorGSettings> {
  const model = fields['model'] ?? VENDOR_G_DEFAULT_MODEL;
  if (typeof model !== 'string' || !project.models.includes(model)) {
    return bad(`Unknown model; use one of ${project.models.join(', ')}`, 'model');
  }
  const language = fields['language'] ?? VENDOR_G_DEFAULT_LANGUAGE;
  if (typeof language !== 'string' || !project.languagesOf(model).includes(language)) {
    return bad(`Language is not supported by ${model}`, 'language');
  }
  const voice = fields['voice'];
  if (typeof voice !== 'string' || voice === '') return bad('Missing required field: voice', 'voice');
  const voiceIssue = project.voiceProblem(voice, model);
  if (voiceIssue) return bad(voiceIssue, 'voice');
  const audioFormat = fields['audio_format'] ?? VENDOR_G_DEFAULT_FORMAT;
  if (typeof audioFormat !== 'string' || !VENDOR_G_KNOWN_FORMATS.includes(audioFormat)) {
    return bad(`audio_format must be one of ${VENDOR_G_KNOWN_FORMATS.join(', ')}`, 'audio_format');
  }
  const codec = vendorGCodec(audioFormat);
  if (!codec) return bad(`audio_format ${audioFormat} is not available`, 'audio_format');
  const rate = fields['sample_rate'];
  if (rate === undefined && vendorGIsRaw(audioFormat)) {
    return bad('sample_rate is required for raw pcm formats', 'sample_rate');
  }
  if (rate !== undefined && (typeof rate !== 'number' || !VENDOR_G_RATES.includes(rate))) {
    return bad(`sample_rate must be one of ${VENDOR_G_RATES.join(', ')}`, 'sample_rate');
  }
  const bitrate = fields['bitrate'];
  if (bitrate !== undefined && (typeof bitrate !== 'number' || !Number.isInteger(bitrate) || bitrate <= 0)) {
    return bad('bitrate must be a positive integer (bps)', 'bitrate');
  }
  const speed = fields['speed'] ?? 1.0;
  if (typeof speed !== 'number' || !(speed >= VENDOR_G_SPEED.min && speed <= VENDOR_G_SPEED.max)) {
    return bad(`speed must be between ${VENDOR_G_SPEED.min} and ${VENDOR_G_SPEED.max}`, 'speed');
  }
  const reduceSilence = fields['reduce_silence'] ?? false;
  if (typeof reduceSilence !== 'boolean') return bad('reduce_silence must be a boolean', 'reduce_silence');
  const returnTimestamps = fields['return_timestamps'] ?? false;
  if (typeof returnTimestamps !== 'boolean') {
    return bad('return_timestamps must be a boolean', 'return_timestamps');
  }
  const sampleRate = typeof rate === 'number' ? rate : VENDOR_G_NATIVE_RATE;
  const samples = vendorGSampleEncoding(audioFormat);
  return {
    ok: true,
    value: {
      model,
      language,
      voice,
      audioFormat,
      spec: {
        codec,
        sampleRate,
        ...(typeof bitrate === 'number' ? { bitrateKbps: Math.round(bitrate / 1000) } : {}),
        ...(samples ? { samples } : {}),
      },
      speed,
      reduceSilence,
      returnTimestamps,
    },
  };
}

/** `POST /tts`: the parameters plus `text` (and an optional `client_reference_id`). */
export function parseVendorGRest(
  body: unknown,
  project: VendorGProject,
): Parsed<{ text: string; settings: VendorGSettings }> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return bad('Request body must be a JSON object');
  }
  const fields = body as Record<string, unknown>;
  const text = fields['text'];
  if (typeof text !== 'string' || text.trim() === '') return bad('Missing required field: text', 'text');
  if (text.length > VENDOR_G_TEXT_LIMIT) {
    return bad(`text must be at most ${VENDOR_G_TEXT_LIMIT} characters`, 'text');
  }
  const reference = fields['client_reference_id'];
  if (reference !== undefined && (typeof reference !== 'string' || reference.length > 256)) {
    return bad('client_reference_id must be a string of at most 256 characters', 'client_reference_id');
  }
  const settings = parseVendorGSettings(fields, project);
  if (!settings.ok) return settings;
  return { ok: true, value: { text, settings: settings.value } };
}
