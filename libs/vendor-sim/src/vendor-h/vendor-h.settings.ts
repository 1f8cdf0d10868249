import type { AudioSpec } from '../kit/audio/audio-spec';
import type { VendorHProblem } from './vendor-h.errors';
import { isVendorHVoice, VENDOR_H_MODELS, vendorHLanguages } from './vendor-h.voices';

/** Audio is always 16-bit PCM: raw or behind a WAV header. */
const FORMATS = ['pcm', 'wav'] as const;
const RATES = [8000, 16000, 24000, 44100];
export const VENDOR_H_TEXT_LIMIT = 5000;
const CORRELATION_ID = /^[A-Za-z0-9._-]{1,128}$/;

export interface VendorHRequest {
  readonly text: string;
  readonly voiceId: string;
  readonly model: string;
  readonly language: string;
  readonly spec: AudioSpec;
  readonly speed: number;
  /** No letter or digit: the vendor answers without audio. */
  readonly silent: boolean;
  /** Word timings (honoured on the socket only). */
  readonly wordTimestamps: boolean;
  /** Echoed as `X-External-Session-Id` / `X-External-Request-Id`. */
  readonly echo: Readonly<Record<string, string>>;
}

type Parsed = { ok: true; request: VendorHRequest } | { ok: false; problem: VendorHProblem };

function bad(message: string): { ok: false; problem: VendorHProblem } {
  return { ok: false, problem: { status: 400, message } };
}

/**
 * Validates a synthesis body (both POST endpoints, and each socket message, where text may be empty) the way
 * the vendor does. `acceptWav` is an `Accept: audio/wav` header, which asks for WAV when `output_format` is
 * left out.
 */
export function parseVendorHRequest(body: unknown, acceptWav: boolean, allowEmptyText = false): Parsed {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return bad('Request body must be a JSON object');
  }
  const fields = body as Record<string, unknown>;
  const text = fields['text'];
  if (typeof text !== 'string' || (text === '' && !allowEmptyText)) return bad('text is required');
  if (text.length > VENDOR_H_TEXT_LIMIT) return bad(`text must be at most ${VENDOR_H_TEXT_LIMIT} characters`);
  const voiceId = fields['voice_id'];
  if (typeof voiceId !== 'string' || voiceId === '') return bad('voice_id is required');
  if (!isVendorHVoice(voiceId)) return bad(`voice_id '${voiceId}' not found`);
  const model = fields['model'] ?? 'h_model_1';
  if (typeof model !== 'string' || !(VENDOR_H_MODELS as readonly string[]).includes(model)) {
    return bad(`model must be one of ${VENDOR_H_MODELS.join(', ')}`);
  }
  const language = fields['language'] ?? 'en';
  if (typeof language !== 'string') return bad('language must be a string');
  if (language !== 'auto' && !vendorHLanguages(model).includes(language)) {
    return bad(`language '${language}' is not supported by ${model}`);
  }
  const format = fields['output_format'] ?? (acceptWav ? 'wav' : 'pcm');
  if (typeof format !== 'string' || !(FORMATS as readonly string[]).includes(format)) {
    return bad(`output_format must be one of ${FORMATS.join(', ')}`);
  }
  const rate = fields['sample_rate'] ?? 24000;
  if (typeof rate !== 'number' || !RATES.includes(rate)) {
    return bad(`sample_rate must be one of ${RATES.join(', ')}`);
  }
  const speed = fields['speed'] ?? 1.0;
  if (typeof speed !== 'number' || !(speed >= 0.5 && speed <= 2.0)) {
    return bad('speed must be between 0.5 and 2.0');
  }
  const dicts = fields['pronunciation_dicts'];
  if (dicts !== undefined && !(Array.isArray(dicts) && dicts.every((d) => typeof d === 'string'))) {
    return bad('pronunciation_dicts must be an array of strings');
  }
  const wordTimestamps = fields['word_timestamps'] ?? false;
  if (typeof wordTimestamps !== 'boolean') return bad('word_timestamps must be a boolean');
  const echo: Record<string, string> = {};
  for (const [field, header] of [
    ['session_id', 'x-external-session-id'],
    ['request_id', 'x-external-request-id'],
  ] as const) {
    const value = fields[field];
    if (value === undefined) continue;
    if (typeof value !== 'string' || !CORRELATION_ID.test(value)) {
      return bad(`${field} must be at most 128 characters of [A-Za-z0-9._-]`);
    }
    echo[header] = value;
  }
  return {
    ok: true,
    request: {
      text,
      voiceId,
      model,
      language,
      spec: { codec: format as 'pcm' | 'wav', sampleRate: rate },
      speed,
      silent: !/[\p{L}\p{N}]/u.test(text),
      wordTimestamps,
      echo,
    },
  };
}
