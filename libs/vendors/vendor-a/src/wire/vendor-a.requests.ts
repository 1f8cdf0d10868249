import type { SynthSettings } from '@router/contracts';
import {
  cannotProduce,
  type JsonValue,
  numberFromString,
  type RouterAudioEncoding,
} from '@router/vendors-core';
import { vendorA } from '../vendor-a.definition';
import type { VendorAProblem } from './vendor-a.errors';
import {
  VENDOR_A_BITRATES,
  VENDOR_A_CODEC_NAMES,
  VENDOR_A_DEFAULT_RATE,
  VENDOR_A_OPUS_RATES,
  VENDOR_A_RATES,
  VENDOR_A_STREAMING_MAX_RATE,
  vendorACodec,
  vendorACodecName,
} from './vendor-a.formats';

/*
 * vendor_a's synthesis request (`POST /text-to-speech`, `/text-to-speech/stream`, a socket's `config`), both
 * directions: `vendorARequest` builds it from the router's settings (the adapter); `parseVendorASettings`
 * validates it as the vendor does, refusing in the vendor's shape (the simulator, the mirror).
 */

/** The vendor's model ids are the router's (`a_model_1`, `a_model_2`). */
export const VENDOR_A_MODELS = vendorA.catalogue.models.map((m) => m.id);
export const VENDOR_A_LANGUAGES: readonly string[] = vendorA.catalogue.models[0]?.languages ?? [];

export const TEXT_LIMITS = { rest: 2500, stream: 3500, message: 2500 } as const;

/** Option name → the vendor's body field, where they differ. */
const OPTION_FIELDS: Readonly<Record<string, string>> = { bitrate: 'output_audio_bitrate' };

export interface VendorARequest {
  /** `/text-to-speech/stream` (chunked audio as it is made) or `/text-to-speech` (one JSON answer). */
  readonly path: '/text-to-speech/stream' | '/text-to-speech';
  readonly body: Record<string, unknown>;
}

/**
 * The vendor request for one piece. The streaming endpoint gives the first audio earliest; rates above 24000 Hz
 * exist only on the one-shot endpoint, so those takes arrive whole.
 */
export function vendorARequest(settings: SynthSettings, text: string): VendorARequest {
  const codec = vendorACodecName(settings.format);
  if (!codec) throw cannotProduce('vendor_a', settings.format);
  const body: Record<string, unknown> = {
    text,
    target_language_code: settings.language,
    speaker: settings.voice,
    model: settings.model,
    pace: settings.speed ?? 1.0,
    speech_sample_rate: settings.sampleRate,
    output_audio_codec: codec,
  };
  for (const [name, value] of Object.entries(settings.options)) {
    if (value !== null && value !== undefined) body[OPTION_FIELDS[name] ?? name] = value;
  }
  const path =
    settings.sampleRate > VENDOR_A_STREAMING_MAX_RATE ? '/text-to-speech' : '/text-to-speech/stream';
  return { path, body };
}

export type VendorAEndpoint = 'rest' | 'stream' | 'ws';

export interface VendorASettings {
  readonly model: string;
  readonly speaker: string;
  readonly language: string;
  readonly pace: number;
  readonly spec: RouterAudioEncoding;
  /** The vendor's own codec name (`linear16` for raw PCM). */
  readonly codecName: string;
  readonly minBufferSize: number;
  readonly maxChunkLength: number;
  /** The pronunciation dictionary asked for; whether the account has it is the server's business. */
  readonly dictId: string | undefined;
  /** The asked `output_audio_bitrate` (the vendor's default where left out). */
  readonly bitrate: string;
  /** The model's voice options as sent (undefined where left out; a_model_1 ignores pitch and loudness). */
  readonly temperature: number | undefined;
  readonly pitch: number | undefined;
  readonly loudness: number | undefined;
  readonly enablePreprocessing: boolean | undefined;
}

export type SettingsResult = { ok: true; settings: VendorASettings } | { ok: false; problem: VendorAProblem };

function invalid(message: string): { ok: false; problem: VendorAProblem } {
  return { ok: false, problem: { status: 400, code: 'invalid_request_error', message } };
}

function unprocessable(message: string): { ok: false; problem: VendorAProblem } {
  return { ok: false, problem: { status: 422, code: 'unprocessable_entity_error', message } };
}

function numberIn(value: unknown, min: number, max: number): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max;
}

/** The settings fields of a body or a config, as the vendor's schema names them (the text aside). */
export const VENDOR_A_SETTING_FIELDS: ReadonlySet<string> = new Set([
  'target_language_code',
  'language_code',
  'speaker',
  'model',
  'pace',
  'pitch',
  'loudness',
  'temperature',
  'speech_sample_rate',
  'enable_preprocessing',
  'output_audio_codec',
  'output_audio_bitrate',
  'min_buffer_size',
  'max_chunk_length',
  'dict_id',
]);

/**
 * The vendor's schema reads a number sent as a string that spells one (`"speech_sample_rate": "24000"`), as its
 * clients often send them; the number fields of a body or a config, read so.
 */
const NUMBER_FIELDS: readonly string[] = [
  'pace',
  'pitch',
  'loudness',
  'temperature',
  'speech_sample_rate',
  'min_buffer_size',
  'max_chunk_length',
];

/**
 * The body as the vendor's schema reads it: a field sent as null is left out (every setting is optional, with
 * its default), and a string spelling a number is the number in its number fields.
 */
export function readVendorABody(body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  // fromEntries defines own properties, so a `__proto__` field stays a field.
  return Object.fromEntries(
    Object.entries(body)
      .filter(([, value]) => value !== null)
      .map(([name, value]) => [
        name,
        typeof value === 'string' && NUMBER_FIELDS.includes(name)
          ? numberFromString(value as JsonValue)
          : value,
      ]),
  );
}

/**
 * Validates a REST body or a socket `config`'s data the way the vendor does: schema problems (types, ranges,
 * missing fields) are 422, choices the vendor cannot serve (speaker of another model, unknown language,
 * codec and rate combinations) are 400.
 */
export function parseVendorASettings(
  sent: Readonly<Record<string, unknown>>,
  endpoint: VendorAEndpoint,
  modelFromQuery?: string,
): SettingsResult {
  const body = readVendorABody(sent);
  const model = modelFromQuery ?? body['model'] ?? VENDOR_A_MODELS[0];
  if (typeof model !== 'string' || !VENDOR_A_MODELS.includes(model)) {
    return invalid(`model must be one of ${VENDOR_A_MODELS.join(', ')}`);
  }
  const language = body['target_language_code'] ?? body['language_code'];
  if (language === undefined) return unprocessable('target_language_code: Field required');
  if (typeof language !== 'string' || !VENDOR_A_LANGUAGES.includes(language)) {
    return invalid(`target_language_code must be one of ${VENDOR_A_LANGUAGES.join(', ')}`);
  }
  const voices = (vendorA.voices ?? []).filter((v) => v.models.includes(model)).map((v) => v.id);
  const speaker = body['speaker'] ?? voices[0];
  if (typeof speaker !== 'string') return unprocessable('speaker: Input should be a valid string');
  if (!voices.includes(speaker)) return invalid(`Speaker '${speaker}' is not compatible with model ${model}`);

  const pace = body['pace'] ?? 1.0;
  if (!numberIn(pace, 0.5, 2.0)) return unprocessable('pace: Input should be between 0.5 and 2.0');
  if (body['temperature'] !== undefined && !numberIn(body['temperature'], 0.01, 1.0)) {
    return unprocessable('temperature: Input should be between 0.01 and 1.0');
  }
  // pitch, loudness and enable_preprocessing belong to a_model_2; the other model ignores them.
  if (model === 'a_model_2') {
    if (body['pitch'] !== undefined && !numberIn(body['pitch'], -0.5, 0.5)) {
      return unprocessable('pitch: Input should be between -0.5 and 0.5');
    }
    if (body['loudness'] !== undefined && !numberIn(body['loudness'], 0.1, 2.5)) {
      return unprocessable('loudness: Input should be between 0.1 and 2.5');
    }
  }
  if (body['enable_preprocessing'] !== undefined && typeof body['enable_preprocessing'] !== 'boolean') {
    return unprocessable('enable_preprocessing: Input should be a valid boolean');
  }

  const codecName = body['output_audio_codec'] ?? (endpoint === 'rest' ? 'wav' : 'mp3');
  const codec = typeof codecName === 'string' ? vendorACodec(codecName) : undefined;
  if (typeof codecName !== 'string' || !codec) {
    return invalid(`output_audio_codec must be one of ${VENDOR_A_CODEC_NAMES.join(', ')}`);
  }
  const rate = body['speech_sample_rate'] ?? VENDOR_A_DEFAULT_RATE[model] ?? 24000;
  if (typeof rate !== 'number' || !Number.isInteger(rate))
    return unprocessable('speech_sample_rate: Input should be a valid integer');
  if (codec === 'opus' ? !VENDOR_A_OPUS_RATES.includes(rate) : !VENDOR_A_RATES.includes(rate)) {
    return invalid(`speech_sample_rate ${rate} is not supported for ${codecName}`);
  }
  if (endpoint !== 'rest' && rate > VENDOR_A_STREAMING_MAX_RATE) {
    return invalid(`speech_sample_rate ${rate} is only available on the REST endpoint`);
  }
  const bitrate = body['output_audio_bitrate'] ?? '128k';
  if (typeof bitrate !== 'string' || !VENDOR_A_BITRATES.includes(bitrate)) {
    return invalid(`output_audio_bitrate must be one of ${VENDOR_A_BITRATES.join(', ')}`);
  }
  // The asked bitrate; an mp3 encoder carries the nearest one its rate allows.
  const kbps = rate > VENDOR_A_STREAMING_MAX_RATE ? 128 : Number.parseInt(bitrate, 10);

  const minBufferSize = body['min_buffer_size'] ?? 50;
  if (!Number.isInteger(minBufferSize) || !numberIn(minBufferSize, 30, 200)) {
    return unprocessable('min_buffer_size: Input should be an integer between 30 and 200');
  }
  const maxChunkLength = body['max_chunk_length'] ?? 150;
  if (!Number.isInteger(maxChunkLength) || !numberIn(maxChunkLength, 50, 500)) {
    return unprocessable('max_chunk_length: Input should be an integer between 50 and 500');
  }
  const dictId = body['dict_id'];
  if (dictId !== undefined && typeof dictId !== 'string') {
    return unprocessable('dict_id: Input should be a valid string');
  }
  return {
    ok: true,
    settings: {
      model,
      speaker,
      language,
      pace: pace as number,
      spec: { codec, sampleRate: rate, bitrateKbps: kbps },
      codecName,
      minBufferSize: minBufferSize as number,
      maxChunkLength: maxChunkLength as number,
      dictId: typeof dictId === 'string' ? dictId : undefined,
      bitrate,
      temperature: body['temperature'] as number | undefined,
      pitch: model === 'a_model_2' ? (body['pitch'] as number | undefined) : undefined,
      loudness: model === 'a_model_2' ? (body['loudness'] as number | undefined) : undefined,
      enablePreprocessing: body['enable_preprocessing'],
    },
  };
}

/** vendor_a speaks nothing without a letter or digit (the router skips such sentences). */
export function hasSpeakableText(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}

/** The vendor's refusal of a request's `text`, if any: missing (422), too long or unspeakable (400). */
export function vendorATextProblem(text: unknown, limit: number): VendorAProblem | undefined {
  if (typeof text !== 'string' || text.length === 0) {
    return { status: 422, code: 'unprocessable_entity_error', message: 'text: Field required' };
  }
  if (text.length > limit) {
    return {
      status: 400,
      code: 'invalid_request_error',
      message: `text must be at most ${limit} characters`,
    };
  }
  if (!hasSpeakableText(text)) {
    return {
      status: 400,
      code: 'invalid_request_error',
      message: 'text must contain at least one letter or digit',
    };
  }
  return undefined;
}
