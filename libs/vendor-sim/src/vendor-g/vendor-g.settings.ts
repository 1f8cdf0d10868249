import type { AudioSpec, SimCodec } from '../kit/audio/audio-spec';
import { invalidRequest, type VendorGProblem } from './vendor-g.errors';
import {
  modelLanguages,
  VENDOR_G_DEFAULT_MODEL,
  VENDOR_G_MODELS,
  VENDOR_G_SPEED,
  voiceProblem,
} from './vendor-g.catalogue';

/**
 * The vendor's `audio_format` names the simulator can make. The vendor also has `pcm_f32le`, `pcm_s16be`,
 * `aac` and `opus`; the simulator refuses those as unavailable (the router offers none of them).
 */
const FORMATS: Readonly<Record<string, SimCodec>> = {
  pcm_s16le: 'pcm',
  pcm_mulaw: 'mulaw',
  pcm_alaw: 'alaw',
  wav: 'wav',
  mp3: 'mp3',
  flac: 'flac',
};
const KNOWN_FORMATS = [...Object.keys(FORMATS), 'pcm_f32le', 'pcm_s16be', 'aac', 'opus'];
const RATES = [8000, 16000, 22050, 24000, 32000, 44100, 48000];
const NATIVE_RATE = 24000;
export const VENDOR_G_TEXT_LIMIT = 5000;

/** The generation parameters shared by `POST /tts` and a socket stream's config message. */
export interface VendorGSettings {
  readonly model: string;
  readonly language: string;
  readonly voice: string;
  readonly audioFormat: string;
  readonly spec: AudioSpec;
  readonly speed: number;
  readonly reduceSilence: boolean;
  readonly returnTimestamps: boolean;
}

/** Every raw `pcm_*` format answers as `audio/pcm`. */
export function vendorGContentType(audioFormat: string, fallback: string): string {
  return audioFormat.startsWith('pcm_') ? 'audio/pcm' : fallback;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; problem: VendorGProblem };

function bad<T>(message: string, field?: string): Parsed<T> {
  return { ok: false, problem: invalidRequest(message, field) };
}

/** Validates generation parameters the way the vendor does. */
export function parseVendorGSettings(fields: Readonly<Record<string, unknown>>): Parsed<VendorGSettings> {
  const model = fields['model'] ?? VENDOR_G_DEFAULT_MODEL;
  if (typeof model !== 'string' || !VENDOR_G_MODELS.includes(model)) {
    return bad(`Unknown model; use one of ${VENDOR_G_MODELS.join(', ')}`, 'model');
  }
  const language = fields['language'] ?? 'en';
  if (typeof language !== 'string' || !modelLanguages(model).includes(language)) {
    return bad(`Language is not supported by ${model}`, 'language');
  }
  const voice = fields['voice'];
  if (typeof voice !== 'string' || voice === '') return bad('Missing required field: voice', 'voice');
  const voiceIssue = voiceProblem(voice, model);
  if (voiceIssue) return bad(voiceIssue, 'voice');
  const audioFormat = fields['audio_format'] ?? 'wav';
  if (typeof audioFormat !== 'string' || !KNOWN_FORMATS.includes(audioFormat)) {
    return bad(`audio_format must be one of ${KNOWN_FORMATS.join(', ')}`, 'audio_format');
  }
  const codec = FORMATS[audioFormat];
  if (!codec) return bad(`audio_format ${audioFormat} is not available`, 'audio_format');
  const rate = fields['sample_rate'];
  if (rate === undefined && audioFormat.startsWith('pcm_')) {
    return bad('sample_rate is required for raw pcm formats', 'sample_rate');
  }
  if (rate !== undefined && (typeof rate !== 'number' || !RATES.includes(rate))) {
    return bad(`sample_rate must be one of ${RATES.join(', ')}`, 'sample_rate');
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
  const sampleRate = typeof rate === 'number' ? rate : NATIVE_RATE;
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
      },
      speed,
      reduceSilence,
      returnTimestamps,
    },
  };
}

/** `POST /tts`: the parameters plus `text` (and an optional `client_reference_id`). */
export function parseVendorGRest(body: unknown): Parsed<{ text: string; settings: VendorGSettings }> {
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
  const settings = parseVendorGSettings(fields);
  if (!settings.ok) return settings;
  return { ok: true, value: { text, settings: settings.value } };
}
