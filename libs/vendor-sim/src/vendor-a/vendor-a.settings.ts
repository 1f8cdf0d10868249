import { vendorA } from '@router/vendor-a';
import type { AudioSpec, SimCodec } from '../kit/audio/audio-spec';
import { mp3Bitrate } from '../kit/audio/mp3.codec';
import { isUnknownDictId } from './vendor-a.dictionaries';
import type { VendorAProblem } from './vendor-a.errors';

/** The vendor's model ids are the router's (`a_model_1`, `a_model_2`). */
export const VENDOR_A_MODELS = vendorA.catalogue.models.map((m) => m.id);
export const VENDOR_A_LANGUAGES: readonly string[] = vendorA.catalogue.models[0]?.languages ?? [];

const CODECS: Readonly<Record<string, SimCodec>> = {
  mp3: 'mp3',
  wav: 'wav',
  linear16: 'pcm',
  mulaw: 'mulaw',
  alaw: 'alaw',
  opus: 'opus',
  flac: 'flac',
  aac: 'aac',
};
const RATES = [8000, 16000, 22050, 24000, 32000, 44100, 48000];
/** Rates above 24000 Hz come only from the one-shot REST endpoint, and at 128k for compressed codecs. */
const STREAMING_MAX_RATE = 24000;
const OPUS_RATES = [8000, 12000, 16000, 24000, 48000];
const BITRATES = ['32k', '64k', '96k', '128k', '192k'];
const DEFAULT_RATE: Readonly<Record<string, number>> = { a_model_1: 24000, a_model_2: 22050 };

export const TEXT_LIMITS = { rest: 2500, stream: 3500, message: 2500 } as const;

export type VendorAEndpoint = 'rest' | 'stream' | 'ws';

export interface VendorASettings {
  readonly model: string;
  readonly speaker: string;
  readonly language: string;
  readonly pace: number;
  readonly spec: AudioSpec;
  /** The vendor's own codec name (`linear16` for raw PCM). */
  readonly codecName: string;
  readonly minBufferSize: number;
  readonly maxChunkLength: number;
  /** A dictionary the vendor does not know: it reports an error and still speaks. */
  readonly unknownDictId: boolean;
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

/**
 * Validates a REST body or a socket `config`'s data the way the vendor does: schema problems (types, ranges,
 * missing fields) are 422, choices the vendor cannot serve (speaker of another model, unknown language,
 * codec and rate combinations) are 400.
 */
export function parseVendorASettings(
  body: Record<string, unknown>,
  endpoint: VendorAEndpoint,
  modelFromQuery?: string,
): SettingsResult {
  const model = modelFromQuery ?? body['model'] ?? VENDOR_A_MODELS[0];
  if (typeof model !== 'string' || !VENDOR_A_MODELS.includes(model)) {
    return invalid(`model must be one of ${VENDOR_A_MODELS.join(', ')}`);
  }
  const language = body['target_language_code'] ?? body['language_code'];
  if (language === undefined || language === null)
    return unprocessable('target_language_code: Field required');
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
  if (typeof codecName !== 'string' || !CODECS[codecName]) {
    return invalid(`output_audio_codec must be one of ${Object.keys(CODECS).join(', ')}`);
  }
  const codec = CODECS[codecName];
  const rate = body['speech_sample_rate'] ?? DEFAULT_RATE[model] ?? 24000;
  if (typeof rate !== 'number' || !Number.isInteger(rate))
    return unprocessable('speech_sample_rate: Input should be a valid integer');
  if (codec === 'opus' ? !OPUS_RATES.includes(rate) : !RATES.includes(rate)) {
    return invalid(`speech_sample_rate ${rate} is not supported for ${codecName}`);
  }
  if (endpoint !== 'rest' && rate > STREAMING_MAX_RATE) {
    return invalid(`speech_sample_rate ${rate} is only available on the REST endpoint`);
  }
  const bitrate = body['output_audio_bitrate'] ?? '128k';
  if (typeof bitrate !== 'string' || !BITRATES.includes(bitrate)) {
    return invalid(`output_audio_bitrate must be one of ${BITRATES.join(', ')}`);
  }
  const requestedKbps = rate > STREAMING_MAX_RATE ? 128 : Number.parseInt(bitrate, 10);
  const kbps = codec === 'mp3' ? mp3Bitrate(rate, requestedKbps) : requestedKbps;

  const minBufferSize = body['min_buffer_size'] ?? 50;
  if (!Number.isInteger(minBufferSize) || !numberIn(minBufferSize, 30, 200)) {
    return unprocessable('min_buffer_size: Input should be an integer between 30 and 200');
  }
  const maxChunkLength = body['max_chunk_length'] ?? 150;
  if (!Number.isInteger(maxChunkLength) || !numberIn(maxChunkLength, 50, 500)) {
    return unprocessable('max_chunk_length: Input should be an integer between 50 and 500');
  }
  const dictId = body['dict_id'];
  if (dictId !== undefined && dictId !== null && typeof dictId !== 'string') {
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
      unknownDictId: typeof dictId === 'string' && isUnknownDictId(dictId),
    },
  };
}

/** vendor_a speaks nothing without a letter or digit (the router skips such sentences). */
export function hasSpeakableText(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}
