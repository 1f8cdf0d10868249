import { vendorJ } from '@router/vendor-j';
import { invalidArgument, type VendorJProblem } from './vendor-j.errors';

export const VENDOR_J_MODELS: readonly string[] = vendorJ.catalogue.models.map((m) => m.id);
export const VENDOR_J_VOICE_NAMES: readonly string[] = (vendorJ.voices ?? []).map((v) => v.id);
/** The models that take two speakers (the two newest). */
export const VENDOR_J_MULTI_SPEAKER_MODELS: readonly string[] = ['j_model_2', 'j_model_3'];
/** The newest model answers `generateContent` with a WAV file instead of bare PCM. */
export const VENDOR_J_WAV_MODELS: readonly string[] = ['j_model_3'];
/** The voice used when the request names none. */
export const VENDOR_J_DEFAULT_VOICE = VENDOR_J_VOICE_NAMES[12] ?? 'Isolde';
export const VENDOR_J_TEXT_LIMIT = 8000;

export interface VendorJRequest {
  /** Every text part of every content, joined: the script, with any style directions in it. */
  readonly text: string;
  readonly voices: readonly string[];
}

type Parsed = { ok: true; request: VendorJRequest } | { ok: false; problem: VendorJProblem };

const bad = (message: string): Parsed => ({ ok: false, problem: invalidArgument(message) });

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function prebuiltVoice(voiceConfig: unknown, where: string): string | VendorJProblem {
  const name = record(record(voiceConfig)?.['prebuiltVoiceConfig'])?.['voiceName'];
  if (typeof name !== 'string') return invalidArgument(`${where}.prebuiltVoiceConfig.voiceName is required`);
  if (!VENDOR_J_VOICE_NAMES.includes(name)) return invalidArgument(`Voice name ${name} is not supported.`);
  return name;
}

function textOf(contents: unknown): string | undefined {
  if (!Array.isArray(contents) || contents.length === 0) return undefined;
  const texts: string[] = [];
  for (const content of contents) {
    const parts = record(content)?.['parts'];
    if (!Array.isArray(parts)) return undefined;
    for (const part of parts) {
      const text = record(part)?.['text'];
      if (typeof text === 'string') texts.push(text);
    }
  }
  return texts.join('\n');
}

/** Validates a `generateContent` / `streamGenerateContent` body for a TTS model the way the vendor does. */
export function parseVendorJRequest(model: string, body: unknown): Parsed {
  const fields = record(body);
  if (!fields) return bad('Invalid JSON payload received.');
  const text = textOf(fields['contents']);
  if (text === undefined) return bad('* GenerateContentRequest.contents: contents is not specified');
  if (text.trim() === '') return bad('* GenerateContentRequest.contents[0].parts: a text part is required');
  if (text.length > VENDOR_J_TEXT_LIMIT)
    return bad(`The input text exceeds ${VENDOR_J_TEXT_LIMIT} characters.`);
  const config = record(fields['generationConfig']);
  const modalities = config?.['responseModalities'];
  if (
    !Array.isArray(modalities) ||
    modalities.length !== 1 ||
    String(modalities[0]).toUpperCase() !== 'AUDIO'
  ) {
    return bad('The requested combination of response modalities (TEXT) is not supported by the model.');
  }
  const speech = record(config?.['speechConfig']);
  const single = speech?.['voiceConfig'];
  const multi = record(speech?.['multiSpeakerVoiceConfig']);
  if (single !== undefined && multi !== undefined) {
    return bad('speechConfig: voiceConfig and multiSpeakerVoiceConfig cannot both be set.');
  }
  if (multi) {
    if (!VENDOR_J_MULTI_SPEAKER_MODELS.includes(model))
      return bad(`Model ${model} does not support multiple speakers.`);
    const configs = multi['speakerVoiceConfigs'];
    if (!Array.isArray(configs) || configs.length !== 2) {
      return bad('multiSpeakerVoiceConfig: exactly 2 speakerVoiceConfigs are required.');
    }
    const voices: string[] = [];
    const speakers: string[] = [];
    for (const [i, entry] of configs.entries()) {
      const speaker = record(entry)?.['speaker'];
      if (typeof speaker !== 'string' || speaker.trim() === '') {
        return bad(`speakerVoiceConfigs[${i}].speaker is required`);
      }
      const voice = prebuiltVoice(record(entry)?.['voiceConfig'], `speakerVoiceConfigs[${i}].voiceConfig`);
      if (typeof voice !== 'string') return { ok: false, problem: voice };
      speakers.push(speaker);
      voices.push(voice);
    }
    if (speakers[0] === speakers[1]) return bad('speakerVoiceConfigs: speaker names must differ.');
    if (!speakers.some((s) => text.includes(`${s}:`))) {
      return bad('None of the configured speakers is named in the text.');
    }
    return { ok: true, request: { text, voices } };
  }
  if (single === undefined) return { ok: true, request: { text, voices: [VENDOR_J_DEFAULT_VOICE] } };
  const voice = prebuiltVoice(single, 'speechConfig.voiceConfig');
  if (typeof voice !== 'string') return { ok: false, problem: voice };
  return { ok: true, request: { text, voices: [voice] } };
}
