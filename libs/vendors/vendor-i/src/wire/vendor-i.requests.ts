import type { SynthSettings } from '@router/contracts';
import type { RouterAudioEncoding } from '@router/vendors-core';
import { flagIsSet } from '@router/vendors-core';
import type { VendorIProblem } from './vendor-i.errors';
import { readVendorIOutputFormat, vendorIOutputFormat } from './vendor-i.formats';

/*
 * vendor_i's synthesis body (`POST /tts/bytes`, `/tts/sse` and each socket message), both directions:
 * `vendorIRequest` builds it from the router's settings (the adapter); `parseVendorIRequest` validates it as
 * the vendor does, refusing with its problem (the simulator, the mirror).
 */

export const VENDOR_I_MODELS = ['i_model_1', 'i_model_2'] as const;

/** The vendor's codes (from its notes), the catalogue's languages too; language defaults to `en`. */
// prettier-ignore
export const VENDOR_I_LANGUAGES = [
  'en', 'fr', 'de', 'es', 'pt', 'zh', 'ja', 'hi', 'it', 'ko', 'nl', 'pl', 'ru', 'sv', 'tr', 'tl', 'bg',
  'ro', 'ar', 'cs', 'el', 'fi', 'hr', 'ms', 'sk', 'da', 'ta', 'uk', 'hu', 'no', 'vi', 'bn', 'th', 'he',
  'ka', 'id', 'te', 'gu', 'kn', 'ml', 'mr', 'pa', 'or', 'ur',
];

export const VENDOR_I_TEXT_LIMIT = 5000;
/** The API version the adapter speaks: JSON error bodies and the current request shape. */
export const VENDOR_I_API_VERSION = '2026-08-14';
/** The older `speed` control's words, as multipliers. */
const SPEED_WORDS: Readonly<Record<string, number>> = { slow: 0.8, normal: 1, fast: 1.25 };

/** The streaming endpoint (raw audio only): `chunk` events, `timestamps` with `add_timestamps`, then `done`. */
export const VENDOR_I_SSE_PATH = '/tts/sse';
/** The one-shot endpoint, for the containers the streaming endpoints lack (wav, mp3). */
export const VENDOR_I_BYTES_PATH = '/tts/bytes';

/** The options of the vendor's catalogue entry, which the body spells in its own way. */
const CATALOGUE_OPTIONS: ReadonlySet<string> = new Set([
  'volume',
  'emotion',
  'pronunciation_dict_id',
  'word_timestamps',
]);

export interface VendorIBuiltRequest {
  readonly path: string;
  readonly body: Record<string, unknown>;
  /** Word timestamps were asked for (SSE only). */
  readonly timestamps: boolean;
}

/**
 * The vendor request for one piece. Raw formats stream over SSE (earliest audio, and the only endpoint with
 * word timestamps); wav and mp3 exist only on the one-shot endpoint, whose body is the vendor's own file.
 * `speed`, `volume` and `emotion` travel in `generation_config`, only when set.
 */
export function vendorIRequest(settings: SynthSettings, text: string): VendorIBuiltRequest {
  const format = vendorIOutputFormat(settings.format, settings.sampleRate);
  const streaming = format['container'] === 'raw';
  const body: Record<string, unknown> = {
    model_id: settings.model,
    transcript: text,
    voice: { mode: 'id', id: settings.voice },
    output_format: format,
  };
  if (settings.language !== null) body['language'] = settings.language;
  const config: Record<string, unknown> = {};
  if (settings.speed !== null) config['speed'] = settings.speed;
  for (const name of ['volume', 'emotion'] as const) {
    const value = settings.options[name];
    if (value !== null && value !== undefined) config[name] = value;
  }
  if (Object.keys(config).length > 0) body['generation_config'] = config;
  const dict = settings.options['pronunciation_dict_id'];
  if (typeof dict === 'string') body['pronunciation_dict_id'] = dict;
  // A mirror client's fields the catalogue does not name (`normalization`, a newer field) go on as it sent them;
  // so does a regional code (`language` `en-GB`), in place of the language the settings name (`en`).
  for (const [name, value] of Object.entries(settings.options)) {
    if (!CATALOGUE_OPTIONS.has(name) && value !== null && value !== undefined) body[name] = value;
  }
  const timestamps = streaming && settings.options['word_timestamps'] !== false;
  if (timestamps) body['add_timestamps'] = true;
  return { path: streaming ? VENDOR_I_SSE_PATH : VENDOR_I_BYTES_PATH, body, timestamps };
}

export interface VendorIRequest {
  readonly text: string;
  readonly model: string;
  readonly voiceId: string;
  readonly language: string | undefined;
  readonly spec: RouterAudioEncoding;
  readonly speed: number;
  readonly timestamps: boolean;
  readonly contextId: string | undefined;
}

type Parsed = { ok: true; request: VendorIRequest } | { ok: false; problem: VendorIProblem };

function bad(title: string, message: string, errorCode = 'invalid_request', status = 400): Parsed {
  return { ok: false, problem: { status, title, message, errorCode } };
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** The voice as every API version has sent it: `{mode:'id', id}`, `{id}` or the bare id. */
export function vendorIVoiceId(voice: unknown): string | undefined {
  if (typeof voice === 'string') return voice;
  const fields = record(voice);
  if (!fields) return undefined;
  if (fields['mode'] !== undefined && fields['mode'] !== 'id') return undefined;
  return typeof fields['id'] === 'string' ? fields['id'] : undefined;
}

function speedOf(
  body: Record<string, unknown>,
  config: Record<string, unknown> | undefined,
): number | string {
  const configured = config?.['speed'];
  if (configured !== undefined) {
    if (typeof configured !== 'number' || !(configured >= 0.6 && configured <= 1.5)) {
      return 'generation_config.speed must be between 0.6 and 1.5';
    }
    return configured;
  }
  const word = body['speed'];
  if (word === undefined) return 1;
  return typeof word === 'string' && SPEED_WORDS[word] !== undefined
    ? SPEED_WORDS[word]
    : 'speed must be one of slow, normal, fast';
}

/**
 * Validates a `/tts/bytes` or `/tts/sse` body the way the vendor does. `isVoice` asks the server whether the
 * account knows a voice id (its own state).
 */
export function parseVendorIRequest(
  body: unknown,
  streaming: boolean,
  isVoice: (voiceId: string) => boolean,
): Parsed {
  const fields = record(body);
  if (!fields) return bad('Invalid request', 'The request body must be a JSON object');
  const text = fields['transcript'];
  if (typeof text !== 'string' || text.trim() === '')
    return bad('Invalid transcript', 'transcript is required');
  if (text.length > VENDOR_I_TEXT_LIMIT) {
    return bad('Invalid transcript', `transcript must be at most ${VENDOR_I_TEXT_LIMIT} characters`);
  }
  const model = fields['model_id'];
  if (typeof model !== 'string' || !(VENDOR_I_MODELS as readonly string[]).includes(model)) {
    return bad('Invalid model', `model_id must be one of ${VENDOR_I_MODELS.join(', ')}`, 'model_not_found');
  }
  const voiceId = vendorIVoiceId(fields['voice']);
  if (voiceId === undefined) return bad('Invalid voice', 'voice must be {"mode":"id","id":"<voice id>"}');
  if (!isVoice(voiceId)) {
    return bad('Invalid voice', `Voice ${voiceId} was not found`, 'voice_not_found', 404);
  }
  const { language, locale } = fields;
  if (language !== undefined && locale !== undefined) {
    return bad('Invalid language', 'Send either language or locale, not both');
  }
  const spoken = language ?? locale;
  if (spoken !== undefined) {
    const base = typeof spoken === 'string' ? spoken.split('-')[0] : undefined;
    if (base === undefined || !VENDOR_I_LANGUAGES.includes(base)) {
      return bad(
        'Invalid language',
        `Language ${JSON.stringify(spoken)} is not supported`,
        'unsupported_language',
      );
    }
  }
  const spec = readVendorIOutputFormat(fields['output_format'], streaming);
  if ('status' in spec) return { ok: false, problem: spec };
  const config = fields['generation_config'];
  if (config !== undefined && !record(config)) {
    return bad('Invalid generation config', 'generation_config must be an object');
  }
  const volume = record(config)?.['volume'];
  if (volume !== undefined && (typeof volume !== 'number' || !(volume >= 0.5 && volume <= 2))) {
    return bad('Invalid generation config', 'generation_config.volume must be between 0.5 and 2.0');
  }
  const emotion = record(config)?.['emotion'];
  if (emotion !== undefined && typeof emotion !== 'string') {
    return bad('Invalid generation config', 'generation_config.emotion must be a string');
  }
  const speed = speedOf(fields, record(config));
  if (typeof speed === 'string') return bad('Invalid speed', speed);
  const dict = fields['pronunciation_dict_id'];
  if (dict !== undefined && dict !== null && typeof dict !== 'string') {
    return bad('Invalid pronunciation dictionary', 'pronunciation_dict_id must be a string');
  }
  const contextId = fields['context_id'];
  if (contextId !== undefined && typeof contextId !== 'string') {
    return bad('Invalid context', 'context_id must be a string');
  }
  return {
    ok: true,
    request: {
      text,
      model,
      voiceId,
      language: typeof spoken === 'string' ? spoken : undefined,
      spec,
      speed,
      timestamps: streaming && flagIsSet(fields['add_timestamps']),
      contextId,
    },
  };
}
