import type { AudioSpec, SimCodec } from '../kit/audio/audio-spec';
import type { VendorBProblem } from './vendor-b.errors';
import { findVendorBVoice, VENDOR_B_LANGUAGES, VENDOR_B_MODELS } from './vendor-b.voices';

const CODECS: readonly SimCodec[] = ['pcm', 'wav', 'mulaw'];
const RATES = [8000, 16000, 22050, 24000, 44100];
export const VENDOR_B_TEXT_LIMIT = 5000;

export interface VendorBRequest {
  readonly text: string;
  readonly voiceId: string;
  readonly model: string;
  readonly language: string;
  readonly spec: AudioSpec;
  readonly speed: number;
}

function bad(code: string, message: string): { ok: false; problem: VendorBProblem } {
  return { ok: false, problem: { status: 400, code, message } };
}

/** Validates a synthesis body (both POST endpoints) the way the vendor does. */
export function parseVendorBRequest(
  body: unknown,
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
  const voice = findVendorBVoice(voiceId);
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
  const codec = fields['codec'] ?? 'pcm';
  if (typeof codec !== 'string' || !(CODECS as readonly string[]).includes(codec)) {
    return bad('invalid_codec', `codec must be one of ${CODECS.join(', ')}`);
  }
  const rate = fields['sample_rate'] ?? 24000;
  if (typeof rate !== 'number' || !RATES.includes(rate)) {
    return bad('invalid_sample_rate', `sample_rate must be one of ${RATES.join(', ')}`);
  }
  const speed = fields['speed'] ?? 1.0;
  if (typeof speed !== 'number' || !(speed >= 0.5 && speed <= 1.5)) {
    return bad('invalid_speed', 'speed must be between 0.5 and 1.5');
  }
  return {
    ok: true,
    request: { text, voiceId, model, language, spec: { codec: codec as SimCodec, sampleRate: rate }, speed },
  };
}
