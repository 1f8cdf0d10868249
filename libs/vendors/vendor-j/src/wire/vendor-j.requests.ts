import { RouterError, type SynthSettings } from '@router/contracts';
import { cannotProduce } from '@router/vendors-core';
import { vendorJ } from '../vendor-j.definition';
import { invalidArgument, type VendorJProblem } from './vendor-j.errors';
import { VENDOR_J_SAMPLE_RATE } from './vendor-j.formats';

/*
 * vendor_j's `generateContent` / `streamGenerateContent` body for a TTS model, both directions:
 * `vendorJBody` builds it from the router's settings (the adapter); `parseVendorJRequest` validates it as the
 * vendor does, refusing with its `{error}` (the simulator, the mirror).
 */

export const VENDOR_J_MODELS: readonly string[] = vendorJ.catalogue.models.map((m) => m.id);
export const VENDOR_J_VOICE_NAMES: readonly string[] = (vendorJ.voices ?? []).map((v) => v.id);
/** The models that take two speakers (the two newest). */
export const VENDOR_J_MULTI_SPEAKER_MODELS: readonly string[] = ['j_model_2', 'j_model_3'];
/** The voice used when the request names none. */
export const VENDOR_J_DEFAULT_VOICE = VENDOR_J_VOICE_NAMES[12] ?? 'Isolde';
export const VENDOR_J_TEXT_LIMIT = 8000;

/**
 * The API versions the vendor serves the generate calls and the lists under, alike: `v1beta`, which the spec
 * lists and the router's adapter calls, and `v1`, which the vendor's newest official client calls.
 */
export const VENDOR_J_API_VERSIONS = ['v1beta', 'v1'] as const;
export type VendorJApiVersion = (typeof VENDOR_J_API_VERSIONS)[number];

/** The streaming call: SSE `data:` events, each a response with a part of the audio, the last with `finishReason`. */
export function vendorJStreamPath(model: string): string {
  return `/v1beta/models/${encodeURIComponent(model)}:streamGenerateContent?alt=sse`;
}

/** `{model}:{verb}` from the path's last segment (a `models/` prefix in the id is allowed, as clients send it). */
export function readVendorJModelCall(segment: string): { model: string; verb: string } {
  const at = segment.lastIndexOf(':');
  const model = (at === -1 ? segment : segment.slice(0, at)).replace(/^models\//, '');
  return { model, verb: at === -1 ? '' : segment.slice(at + 1) };
}

function prebuilt(voiceName: string): Record<string, unknown> {
  return { prebuiltVoiceConfig: { voiceName } };
}

/** A natural-language direction goes before the script, as the vendor's own examples write it. */
function directed(instructions: unknown, script: string, separator: string): string {
  if (typeof instructions !== 'string' || instructions.trim() === '') return script;
  return `${instructions.trim().replace(/:$/, '')}${separator}${script}`;
}

/**
 * The body of one piece. The vendor has no language, speed or format settings: `instructions` is spoken
 * direction placed before the text; with `speakers` (two names, each with a voice) the text is the named
 * `speaker`'s line (`Name: text`) and the voices go in `multiSpeakerVoiceConfig`.
 */
export function vendorJBody(settings: SynthSettings, text: string): Record<string, unknown> {
  if (settings.format !== 'pcm' && settings.format !== 'wav') {
    throw cannotProduce('vendor_j', settings.format);
  }
  if (settings.sampleRate !== VENDOR_J_SAMPLE_RATE) {
    throw RouterError.badRequest(`vendor_j produces ${VENDOR_J_SAMPLE_RATE} Hz audio only`);
  }
  const { instructions, speakers, speaker } = settings.options;
  const multi = typeof speakers === 'object' && speakers !== null && typeof speaker === 'string';
  const script = multi
    ? directed(instructions, `${speaker}: ${text}`, '\n')
    : directed(instructions, text, ': ');
  const speechConfig = multi
    ? {
        multiSpeakerVoiceConfig: {
          speakerVoiceConfigs: Object.entries(speakers as Record<string, unknown>).map(([name, voice]) => ({
            speaker: name,
            voiceConfig: prebuilt(String(voice)),
          })),
        },
      }
    : { voiceConfig: prebuilt(settings.voice) };
  return {
    contents: [{ role: 'user', parts: [{ text: script }] }],
    generationConfig: { responseModalities: ['AUDIO'], speechConfig },
  };
}

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

/**
 * The proto field name of each request field the router reads whose JSON name differs. The vendor's JSON parser
 * reads a field under either name (its clients send the JSON name), and a `null` as the field left out.
 */
export const VENDOR_J_PROTO_NAMES: Readonly<Record<string, string>> = {
  generationConfig: 'generation_config',
  responseModalities: 'response_modalities',
  speechConfig: 'speech_config',
  voiceConfig: 'voice_config',
  multiSpeakerVoiceConfig: 'multi_speaker_voice_config',
  speakerVoiceConfigs: 'speaker_voice_configs',
  prebuiltVoiceConfig: 'prebuilt_voice_config',
  voiceName: 'voice_name',
  languageCode: 'language_code',
};

const JSON_NAMES: ReadonlyMap<string, string> = new Map(
  Object.entries(VENDOR_J_PROTO_NAMES).map(([json, proto]) => [proto, json]),
);

/**
 * A body as the vendor's parser reads it: every field under its JSON name, `null` fields left out. A field sent
 * under both of its names is refused, as the vendor refuses a field set twice.
 */
function asTheVendorReads(
  value: unknown,
): { ok: true; value: unknown } | { ok: false; problem: VendorJProblem } {
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (const item of value) {
      const read = asTheVendorReads(item);
      if (!read.ok) return read;
      items.push(read.value);
    }
    return { ok: true, value: items };
  }
  const fields = record(value);
  if (!fields) return { ok: true, value };
  const out: Record<string, unknown> = {};
  for (const [sent, field] of Object.entries(fields)) {
    if (field === null) continue;
    const name = JSON_NAMES.get(sent) ?? sent;
    if (Object.hasOwn(out, name)) {
      return {
        ok: false,
        problem: invalidArgument(`Invalid JSON payload received. Field "${name}" is set twice.`),
      };
    }
    const read = asTheVendorReads(field);
    if (!read.ok) return read;
    Object.defineProperty(out, name, {
      value: read.value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { ok: true, value: out };
}

/** Validates a `generateContent` / `streamGenerateContent` body for a TTS model the way the vendor does. */
export function parseVendorJRequest(model: string, sent: unknown): Parsed {
  const read = asTheVendorReads(sent);
  if (!read.ok) return read;
  const fields = record(read.value);
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
