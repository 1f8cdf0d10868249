import type { SynthSettings } from '@router/contracts';
import { defaultLanguageOf, producibleFormat } from '@router/vendors-core';
import { vendorH } from '../vendor-h.definition';
import type { VendorHProblem } from './vendor-h.errors';
import { isVendorHFormat, VENDOR_H_FORMATS, VENDOR_H_RATES, type VendorHFormat } from './vendor-h.formats';

/*
 * vendor_h's synthesis body (`POST /waves/v1/tts`, `/waves/v1/tts/live` and each socket message), both
 * directions: `vendorHBody` builds it from the router's settings (the adapter); `parseVendorHRequest`
 * validates it as the vendor does, refusing with its `{error}` (the simulator, the mirror).
 */

export const VENDOR_H_MODELS = ['h_model_1', 'h_model_2'] as const;
export const VENDOR_H_TEXT_LIMIT = 5000;
const CORRELATION_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The one-shot endpoint: the whole clip in one body, in the asked `output_format`. */
export const VENDOR_H_SPEECH_PATH = '/waves/v1/tts';
/** The SSE endpoint: base64 audio events while the vendor makes the take, then `{"done": true}`. */
export const VENDOR_H_STREAM_PATH = '/waves/v1/tts/live';

/**
 * What the vendor takes for a field left out (or null), for its parser and its mirror's keying alike: its base
 * model, and the language, rate, speed and format the router's catalogue gives it (spec: vendor_h's language is
 * optional and defaults to `en`, its speed to 1.0; the vendor's notes say the same of the rest). `output_format`
 * left out is `wav` on a request that accepts `audio/wav` (`vendorHDefaultFormat`).
 */
export const VENDOR_H_DEFAULTS = Object.freeze({
  model: 'h_model_1',
  language: defaultLanguageOf(vendorH) ?? 'en',
  sampleRate: 24000,
  speed: vendorH.speedDefault ?? 1.0,
  format: 'pcm',
  wordTimestamps: false,
} as const);

/** The format of a request that leaves `output_format` out: WAV where it accepts `audio/wav`, else PCM. */
export function vendorHDefaultFormat(accept: string | undefined): VendorHFormat {
  return (accept ?? '').includes('audio/wav') ? 'wav' : VENDOR_H_DEFAULTS.format;
}

/** The languages of each model, from the router's catalogue (the same codes the vendor takes). */
export function vendorHLanguages(model: string): readonly string[] {
  return vendorH.catalogue.models.find((m) => m.id === model)?.languages ?? [];
}

/**
 * The body of one piece (the same fields as the one-shot `/waves/v1/tts`). The vendor has no catalogue options,
 * so any option in the settings came from a mirror client's own request (its `pronunciation_dicts`, a field the
 * router does not know): it goes in the body under its own name, as that client sent it.
 */
export function vendorHBody(settings: SynthSettings, text: string): Record<string, unknown> {
  return {
    text,
    voice_id: settings.voice,
    model: settings.model,
    language: settings.language ?? VENDOR_H_DEFAULTS.language,
    sample_rate: settings.sampleRate,
    speed: settings.speed ?? VENDOR_H_DEFAULTS.speed,
    output_format: producibleFormat('vendor_h', settings.format, isVendorHFormat),
    ...settings.options,
  };
}

export interface VendorHRequest {
  readonly text: string;
  readonly voiceId: string;
  readonly model: string;
  readonly language: string;
  readonly spec: { readonly codec: VendorHFormat; readonly sampleRate: number };
  readonly speed: number;
  /** No letter or digit: the vendor answers without audio. */
  readonly silent: boolean;
  /** Word timings (honoured on the socket only). */
  readonly wordTimestamps: boolean;
  /** Echoed as `X-External-Session-Id` / `X-External-Request-Id`. */
  readonly echo: Readonly<Record<string, string>>;
}

export interface VendorHParseOptions {
  /** The request's `Accept` header (`audio/wav` asks for WAV when `output_format` is left out); none on the socket. */
  readonly accept?: string;
  /** Socket messages may carry empty text (a bare flush or close). */
  readonly allowEmptyText?: boolean;
  /** Whether the account knows a voice id (stock or cloned): the server's own state. */
  readonly isVoice: (voiceId: string) => boolean;
}

type Parsed = { ok: true; request: VendorHRequest } | { ok: false; problem: VendorHProblem };

function bad(message: string): { ok: false; problem: VendorHProblem } {
  return { ok: false, problem: { status: 400, message } };
}

/** Validates a synthesis body the way the vendor does. */
export function parseVendorHRequest(body: unknown, options: VendorHParseOptions): Parsed {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return bad('Request body must be a JSON object');
  }
  const fields = body as Record<string, unknown>;
  const text = fields['text'];
  if (typeof text !== 'string' || (text === '' && options.allowEmptyText !== true)) {
    return bad('text is required');
  }
  if (text.length > VENDOR_H_TEXT_LIMIT) return bad(`text must be at most ${VENDOR_H_TEXT_LIMIT} characters`);
  const voiceId = fields['voice_id'];
  if (typeof voiceId !== 'string' || voiceId === '') return bad('voice_id is required');
  if (!options.isVoice(voiceId)) return bad(`voice_id '${voiceId}' not found`);
  const model = fields['model'] ?? VENDOR_H_DEFAULTS.model;
  if (typeof model !== 'string' || !(VENDOR_H_MODELS as readonly string[]).includes(model)) {
    return bad(`model must be one of ${VENDOR_H_MODELS.join(', ')}`);
  }
  const language = fields['language'] ?? VENDOR_H_DEFAULTS.language;
  if (typeof language !== 'string') return bad('language must be a string');
  if (language !== 'auto' && !vendorHLanguages(model).includes(language)) {
    return bad(`language '${language}' is not supported by ${model}`);
  }
  const format = fields['output_format'] ?? vendorHDefaultFormat(options.accept);
  if (!isVendorHFormat(format)) return bad(`output_format must be one of ${VENDOR_H_FORMATS.join(', ')}`);
  const rate = fields['sample_rate'] ?? VENDOR_H_DEFAULTS.sampleRate;
  if (typeof rate !== 'number' || !VENDOR_H_RATES.includes(rate)) {
    return bad(`sample_rate must be one of ${VENDOR_H_RATES.join(', ')}`);
  }
  const speed = fields['speed'] ?? VENDOR_H_DEFAULTS.speed;
  if (typeof speed !== 'number' || !(speed >= 0.5 && speed <= 2.0)) {
    return bad('speed must be between 0.5 and 2.0');
  }
  const dicts = fields['pronunciation_dicts'];
  if (dicts !== undefined && !(Array.isArray(dicts) && dicts.every((d) => typeof d === 'string'))) {
    return bad('pronunciation_dicts must be an array of strings');
  }
  const wordTimestamps = fields['word_timestamps'] ?? VENDOR_H_DEFAULTS.wordTimestamps;
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
      spec: { codec: format, sampleRate: rate },
      speed,
      silent: !hasVendorHSpeech(text),
      wordTimestamps,
      echo,
    },
  };
}

/** Text with no letter or digit gets no audio from the vendor. */
export function hasVendorHSpeech(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}
