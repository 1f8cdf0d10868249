import type { AudioSpec, SimCodec } from '../kit/audio/audio-spec';
import { badQuery, type VendorEProblem } from './vendor-e.errors';
import {
  findVendorEModel,
  VENDOR_E_DEFAULT_V1_MODEL,
  VENDOR_E_GENERATIONS,
  type VendorEGeneration,
  type VendorEVoiceModel,
} from './vendor-e.models';

export const VENDOR_E_TEXT_LIMIT = 2000;
const RAW_RATES = [8000, 16000, 22050, 24000, 32000, 44100, 48000];
const MP3_BIT_RATES = [32000, 48000];

interface EncodingRule {
  /** The codec with no container; `wav`/`ogg` containers map below. */
  readonly codec: SimCodec;
  readonly containers: readonly string[];
  readonly defaultContainer: string;
  readonly rates: readonly number[];
  readonly defaultRate: number;
  /** The rate is fixed: a `sample_rate` other than it is refused. */
  readonly fixedRate: boolean;
}

/**
 * Encodings and containers as the vendor combines them. G.711 comes raw here: the simulator has no
 * G.711-in-WAV writer, so `container=wav` is refused for it (the vendor itself would wrap it). The router's
 * catalogue (which wins over the vendor notes) gives mp3 and G.711 every one of its rates; opus and aac keep
 * their fixed rates.
 */
const ENCODINGS: Readonly<Record<string, EncodingRule>> = {
  linear16: {
    codec: 'pcm',
    containers: ['none', 'wav'],
    defaultContainer: 'wav',
    rates: RAW_RATES,
    defaultRate: 24000,
    fixedRate: false,
  },
  mulaw: {
    codec: 'mulaw',
    containers: ['none'],
    defaultContainer: 'none',
    rates: RAW_RATES,
    defaultRate: 8000,
    fixedRate: false,
  },
  alaw: {
    codec: 'alaw',
    containers: ['none'],
    defaultContainer: 'none',
    rates: RAW_RATES,
    defaultRate: 8000,
    fixedRate: false,
  },
  flac: {
    codec: 'flac',
    containers: ['none'],
    defaultContainer: 'none',
    rates: RAW_RATES,
    defaultRate: 48000,
    fixedRate: false,
  },
  mp3: {
    codec: 'mp3',
    containers: ['none'],
    defaultContainer: 'none',
    rates: RAW_RATES,
    defaultRate: 22050,
    fixedRate: false,
  },
  opus: {
    codec: 'opus',
    containers: ['ogg'],
    defaultContainer: 'ogg',
    rates: [48000],
    defaultRate: 48000,
    fixedRate: true,
  },
  aac: {
    codec: 'aac',
    containers: ['none'],
    defaultContainer: 'none',
    rates: [22050],
    defaultRate: 22050,
    fixedRate: true,
  },
};

export interface VendorESpeakRequest {
  readonly model: VendorEVoiceModel;
  readonly text: string;
  readonly spec: AudioSpec;
  readonly speed: number;
}

type Parsed = { ok: true; request: VendorESpeakRequest } | { ok: false; problem: VendorEProblem };

function bad(message: string, code?: string): Parsed {
  return { ok: false, problem: badQuery(message, code) };
}

/** Validates a REST speak call (`/v1/speak` or `/v2/speak`): the query's audio settings and `{text}`. */
export function parseVendorESpeak(
  generation: VendorEGeneration,
  query: URLSearchParams,
  body: unknown,
): Parsed {
  const modelName = query.get('model') ?? (generation === 'v1' ? VENDOR_E_DEFAULT_V1_MODEL : null);
  if (modelName === null) return bad('model is required', 'INVALID_QUERY_PARAMETER');
  const model = findVendorEModel(modelName);
  if (!model) return bad(`No such model: ${modelName}`, 'UNSUPPORTED_MODEL');
  if (VENDOR_E_GENERATIONS[model.architecture] !== generation) {
    return bad(`Model ${modelName} is not available on /${generation}/speak`, 'UNSUPPORTED_MODEL');
  }
  const encoding = query.get('encoding') ?? 'mp3';
  const rule = ENCODINGS[encoding];
  if (!rule) return bad(`Unsupported encoding: ${encoding}`, 'UNSUPPORTED_AUDIO_FORMAT');
  const container = query.get('container') ?? rule.defaultContainer;
  if (!rule.containers.includes(container)) {
    return bad(
      `Container ${container} is not supported for encoding ${encoding}`,
      'UNSUPPORTED_AUDIO_FORMAT',
    );
  }
  const rateText = query.get('sample_rate');
  const rate = rateText === null ? rule.defaultRate : Number(rateText);
  if (!rule.rates.includes(rate)) {
    return bad(
      rule.fixedRate
        ? `sample_rate is not adjustable for encoding ${encoding}`
        : `sample_rate must be one of ${rule.rates.join(', ')} for encoding ${encoding}`,
      'UNSUPPORTED_AUDIO_FORMAT',
    );
  }
  const bitRateText = query.get('bit_rate');
  let bitrateKbps: number | undefined;
  if (bitRateText !== null) {
    const bitRate = Number(bitRateText);
    if (encoding !== 'mp3' && encoding !== 'opus' && encoding !== 'aac') {
      return bad(`bit_rate is not applicable for encoding ${encoding}`, 'UNSUPPORTED_AUDIO_FORMAT');
    }
    if (encoding === 'mp3' && !MP3_BIT_RATES.includes(bitRate)) {
      return bad(`bit_rate must be one of ${MP3_BIT_RATES.join(', ')} for mp3`, 'UNSUPPORTED_AUDIO_FORMAT');
    }
    bitrateKbps = bitRate / 1000;
  } else if (encoding === 'mp3') bitrateKbps = 48;
  const speedText = query.get('speed');
  const speed = speedText === null ? 1.0 : Number(speedText);
  if (!(speed >= 0.7 && speed <= 1.5)) return bad('speed must be between 0.7 and 1.5');
  const optOut = query.get('mip_opt_out');
  if (optOut !== null && optOut !== 'true' && optOut !== 'false')
    return bad('mip_opt_out must be true or false');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return bad('Request body must be a JSON object with a text field', 'INVALID_REQUEST_BODY');
  }
  const text = (body as Record<string, unknown>)['text'];
  if (typeof text !== 'string' || text.trim() === '') return bad('text must not be empty', 'INVALID_TEXT');
  if (text.length > VENDOR_E_TEXT_LIMIT) {
    return bad(`text must be at most ${VENDOR_E_TEXT_LIMIT} characters`, 'TEXT_TOO_LONG');
  }
  const codec = encoding === 'linear16' && container === 'wav' ? 'wav' : rule.codec;
  return {
    ok: true,
    request: {
      model,
      text,
      spec: { codec, sampleRate: rate, ...(bitrateKbps !== undefined ? { bitrateKbps } : {}) },
      speed,
    },
  };
}
