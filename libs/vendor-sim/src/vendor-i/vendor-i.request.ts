import type { AudioSpec, SimCodec } from '../kit/audio/audio-spec';
import type { VendorIProblem } from './vendor-i.errors';
import { findVendorIVoice } from './vendor-i.voices';

export const VENDOR_I_MODELS = ['i_model_1', 'i_model_2'] as const;

// prettier-ignore
export const VENDOR_I_LANGUAGES = [
  'en', 'fr', 'de', 'es', 'pt', 'zh', 'ja', 'hi', 'it', 'ko', 'nl', 'pl', 'ru', 'sv', 'tr', 'tl', 'bg',
  'ro', 'ar', 'cs', 'el', 'fi', 'hr', 'ms', 'sk', 'da', 'ta', 'uk', 'hu', 'no', 'vi', 'bn', 'th', 'he',
  'ka', 'id', 'te', 'gu', 'kn', 'ml', 'mr', 'pa', 'or', 'ur',
];

const RATES = [8000, 16000, 22050, 24000, 44100, 48000];
const MP3_BIT_RATES = [32000, 64000, 96000, 128000, 192000];
/** The simulator makes 16-bit and G.711 audio; `pcm_f32le` exists at the vendor but not here. */
const RAW_ENCODINGS: Readonly<Record<string, SimCodec>> = {
  pcm_s16le: 'pcm',
  pcm_mulaw: 'mulaw',
  pcm_alaw: 'alaw',
};
/** The older `speed` control's words, as multipliers. */
const SPEED_WORDS: Readonly<Record<string, number>> = { slow: 0.8, normal: 1, fast: 1.25 };

export const VENDOR_I_TEXT_LIMIT = 5000;

export interface VendorIRequest {
  readonly text: string;
  readonly model: string;
  readonly voiceId: string;
  readonly language: string | undefined;
  readonly spec: AudioSpec;
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
function voiceIdOf(voice: unknown): string | undefined {
  if (typeof voice === 'string') return voice;
  const fields = record(voice);
  if (!fields) return undefined;
  if (fields['mode'] !== undefined && fields['mode'] !== 'id') return undefined;
  return typeof fields['id'] === 'string' ? fields['id'] : undefined;
}

function audioSpec(value: unknown, streaming: boolean): AudioSpec | VendorIProblem {
  const problem = (message: string): VendorIProblem => ({
    status: 400,
    title: 'Invalid output format',
    message,
    errorCode: 'invalid_output_format',
  });
  const format = record(value);
  if (!format) return problem('output_format is required');
  const { container, encoding, sample_rate: rate, bit_rate: bitRate } = format;
  if (container !== 'raw' && container !== 'wav' && container !== 'mp3') {
    return problem('output_format.container must be one of raw, wav, mp3');
  }
  if (streaming && container !== 'raw') return problem('streaming endpoints accept only the raw container');
  if (typeof rate !== 'number' || !RATES.includes(rate)) {
    return problem(`output_format.sample_rate must be one of ${RATES.join(', ')}`);
  }
  if (container === 'mp3') {
    const kbps = bitRate ?? 128000;
    if (typeof kbps !== 'number' || !MP3_BIT_RATES.includes(kbps)) {
      return problem(`output_format.bit_rate must be one of ${MP3_BIT_RATES.join(', ')}`);
    }
    return { codec: 'mp3', sampleRate: rate, bitrateKbps: kbps / 1000 };
  }
  const codec = typeof encoding === 'string' ? RAW_ENCODINGS[encoding] : undefined;
  if (!codec)
    return problem(`output_format.encoding must be one of ${Object.keys(RAW_ENCODINGS).join(', ')}`);
  if (container === 'wav') {
    if (codec !== 'pcm') return problem('the wav container takes pcm_s16le here');
    return { codec: 'wav', sampleRate: rate };
  }
  return { codec, sampleRate: rate };
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

/** Validates a `/tts/bytes` or `/tts/sse` body the way the vendor does. */
export function parseVendorIRequest(body: unknown, streaming: boolean): Parsed {
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
  const voiceId = voiceIdOf(fields['voice']);
  if (voiceId === undefined) return bad('Invalid voice', 'voice must be {"mode":"id","id":"<voice id>"}');
  if (!findVendorIVoice(voiceId)) {
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
  const spec = audioSpec(fields['output_format'], streaming);
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
      timestamps: streaming && fields['add_timestamps'] === true,
      contextId,
    },
  };
}
