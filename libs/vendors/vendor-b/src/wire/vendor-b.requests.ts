import type { SynthSettings } from '@router/contracts';
import { producibleFormat } from '@router/vendors-core';
import type { VendorBProblem } from './vendor-b.errors';
import { isVendorBCodec, VENDOR_B_CODECS, VENDOR_B_RATES, type VendorBCodec } from './vendor-b.formats';

/*
 * vendor_b's synthesis body (`POST /v1/text-to-speech` and `/stream`), both directions: `vendorBBody` builds
 * it from the router's settings (the adapter); `parseVendorBRequest` validates it as the vendor does,
 * refusing with its `{error: {code, message}}` (the simulator, the mirror).
 */

export const VENDOR_B_LANGUAGES = [
  'hi',
  'mr',
  'te',
  'kn',
  'bn',
  'as',
  'gu',
  'ne',
  'ml',
  'ta',
  'en-in',
  'en-us',
] as const;
export const VENDOR_B_MODELS = ['b_model_1', 'b_model_2'] as const;
export const VENDOR_B_TEXT_LIMIT = 5000;

/** The one-shot endpoint: the whole clip in one body, in the asked codec. */
export const VENDOR_B_SPEECH_PATH = '/v1/text-to-speech';
/** The SSE endpoint: audio as `chunk` events while the vendor makes it, then one `done`. */
export const VENDOR_B_STREAM_PATH = '/v1/text-to-speech/stream';

/**
 * What the vendor takes for a field left out (or null) that has one default whatever the voice: the keying of
 * its mirror fills the same ones. `model` and `language` default to the voice's own.
 */
export const VENDOR_B_DEFAULTS = Object.freeze({ codec: 'pcm', sampleRate: 24000, speed: 1.0 } as const);

/** The body of one piece (the same fields as the one-shot endpoint). */
export function vendorBBody(settings: SynthSettings, text: string): Record<string, unknown> {
  return {
    text,
    voice_id: settings.voice,
    language: settings.language,
    model: settings.model,
    codec: producibleFormat('vendor_b', settings.format, isVendorBCodec),
    sample_rate: settings.sampleRate,
    speed: settings.speed ?? 1.0,
  };
}

export interface VendorBRequest {
  readonly text: string;
  readonly voiceId: string;
  readonly model: string;
  readonly language: string;
  readonly spec: { readonly codec: VendorBCodec; readonly sampleRate: number };
  readonly speed: number;
}

/** What a server knows of one of the account's voices. */
export interface VendorBVoiceFacts {
  readonly model: string;
  readonly language: string;
  readonly languages: readonly string[];
}

function bad(code: string, message: string): { ok: false; problem: VendorBProblem } {
  return { ok: false, problem: { status: 400, code, message } };
}

/**
 * Validates a synthesis body (both POST endpoints) the way the vendor does. `findVoice` is the server's
 * own voice list: a voice's model and languages decide the defaults and what it may be asked for.
 */
export function parseVendorBRequest(
  body: unknown,
  findVoice: (voiceId: string) => VendorBVoiceFacts | undefined,
): { ok: true; request: VendorBRequest } | { ok: false; problem: VendorBProblem } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return bad('invalid_request', 'Request body must be a JSON object');
  }
  const fields = body as Record<string, unknown>;
  const text = fields['text'];
  if (typeof text !== 'string' || text.trim() === '') return bad('invalid_text', 'text is required');
  if (text.length > VENDOR_B_TEXT_LIMIT) {
    return bad('text_too_long', `text must be at most ${VENDOR_B_TEXT_LIMIT} characters`);
  }
  // Punctuation alone has nothing to speak (the router skips such sentences).
  if (/^[\p{P}\p{S}\s]*$/u.test(text)) return bad('invalid_text', 'text contains nothing to speak');
  const voiceId = fields['voice_id'];
  if (typeof voiceId !== 'string' || voiceId === '') return bad('invalid_voice', 'voice_id is required');
  const voice = findVoice(voiceId);
  if (!voice) return bad('invalid_voice', `voice_id '${voiceId}' not found`);
  const model = fields['model'] ?? voice.model;
  if (typeof model !== 'string' || !(VENDOR_B_MODELS as readonly string[]).includes(model)) {
    return bad('invalid_model', `model must be one of ${VENDOR_B_MODELS.join(', ')}`);
  }
  if (voice.model !== model)
    return bad('voice_model_mismatch', `voice_id '${voiceId}' belongs to model ${voice.model}`);
  const language = fields['language'] ?? voice.language;
  if (typeof language !== 'string' || !(VENDOR_B_LANGUAGES as readonly string[]).includes(language)) {
    return bad('invalid_language', `language must be one of ${VENDOR_B_LANGUAGES.join(', ')}`);
  }
  if (!voice.languages.includes(language)) {
    return bad('unsupported_language', `voice_id '${voiceId}' does not speak ${language}`);
  }
  const codec = fields['codec'] ?? VENDOR_B_DEFAULTS.codec;
  if (!isVendorBCodec(codec))
    return bad('invalid_codec', `codec must be one of ${VENDOR_B_CODECS.join(', ')}`);
  const rate = fields['sample_rate'] ?? VENDOR_B_DEFAULTS.sampleRate;
  if (typeof rate !== 'number' || !VENDOR_B_RATES.includes(rate)) {
    return bad('invalid_sample_rate', `sample_rate must be one of ${VENDOR_B_RATES.join(', ')}`);
  }
  const speed = fields['speed'] ?? VENDOR_B_DEFAULTS.speed;
  if (typeof speed !== 'number' || !(speed >= 0.5 && speed <= 1.5)) {
    return bad('invalid_speed', 'speed must be between 0.5 and 1.5');
  }
  return { ok: true, request: { text, voiceId, model, language, spec: { codec, sampleRate: rate }, speed } };
}
