import { cannotProduce, type RouterAudioEncoding } from '@router/vendors-core';
import type { VendorEGeneration } from './vendor-e.voices';

/*
 * vendor_e's audio query (`encoding`, `container`, `sample_rate`, `bit_rate`), both directions: the router
 * format the adapter asks for, and the encoding a server reads back from a REST or socket query.
 */

/** The router's format → the vendor's `encoding` and `container` (raw formats must say `none`, or come in WAV). */
const ROUTER_ENCODINGS: Readonly<Record<string, { encoding: string; container?: string }>> = {
  pcm: { encoding: 'linear16', container: 'none' },
  wav: { encoding: 'linear16', container: 'wav' },
  mulaw: { encoding: 'mulaw', container: 'none' },
  alaw: { encoding: 'alaw', container: 'none' },
  // mp3 is a container of its own.
  mp3: { encoding: 'mp3' },
};

export function vendorEEncodingOf(format: string): { encoding: string; container?: string } {
  const target = ROUTER_ENCODINGS[format];
  if (!target) throw cannotProduce('vendor_e', format);
  return target;
}

const RAW_RATES = [8000, 16000, 22050, 24000, 32000, 44100, 48000];
export const VENDOR_E_MP3_BIT_RATES: readonly number[] = [32000, 48000];

interface EncodingRule {
  /** The codec with no container; `wav`/`ogg` containers map below. */
  readonly codec: RouterAudioEncoding['codec'];
  readonly containers: readonly string[];
  readonly defaultContainer: string;
  readonly rates: readonly number[];
  readonly defaultRate: number;
  /** The rate is fixed: a `sample_rate` other than it is refused. */
  readonly fixedRate: boolean;
}

/** One encoding's rule; the last container listed is its default. */
const rule = (
  codec: EncodingRule['codec'],
  defaultRate: number,
  containers: readonly string[] = ['none'],
  fixedRates?: readonly number[],
): EncodingRule => ({
  codec,
  containers,
  defaultContainer: containers[containers.length - 1] ?? 'none',
  rates: fixedRates ?? RAW_RATES,
  defaultRate,
  fixedRate: fixedRates !== undefined,
});

/**
 * Encodings and containers as the vendor combines them on REST. G.711 comes raw here: the simulator has no
 * G.711-in-WAV writer, so `container=wav` is refused for it (the vendor itself would wrap it). The router's
 * catalogue (which wins over the vendor notes) gives mp3 and G.711 every one of its rates; opus and aac keep
 * their fixed rates.
 */
const ENCODINGS: Readonly<Record<string, EncodingRule>> = {
  linear16: rule('pcm', 24000, ['none', 'wav']),
  mulaw: rule('mulaw', 8000),
  alaw: rule('alaw', 8000),
  flac: rule('flac', 48000),
  mp3: rule('mp3', 22050),
  opus: rule('opus', 48000, ['ogg'], [48000]),
  aac: rule('aac', 22050, ['none'], [22050]),
};

/** The mp3 bit rate the vendor uses when the query names none. */
export const VENDOR_E_DEFAULT_MP3_BIT_RATE = 48000;
/** The REST encoding when the query names none. */
export const VENDOR_E_DEFAULT_ENCODING = 'mp3';

/**
 * What the vendor fills for an encoding's query left out (`container`, `sample_rate`, and mp3's `bit_rate`);
 * undefined for an encoding it does not have.
 */
export function vendorEEncodingDefaults(
  encoding: string,
): { container: string; sampleRate: number; bitRate?: number } | undefined {
  const found = Object.hasOwn(ENCODINGS, encoding) ? ENCODINGS[encoding] : undefined;
  if (!found) return undefined;
  return {
    container: found.defaultContainer,
    sampleRate: found.defaultRate,
    ...(encoding === 'mp3' ? { bitRate: VENDOR_E_DEFAULT_MP3_BIT_RATE } : {}),
  };
}

export type EncodingReading =
  | { readonly ok: true; readonly spec: RouterAudioEncoding }
  | { readonly ok: false; readonly message: string; readonly code?: string };

const unsupported = (message: string): EncodingReading => ({
  ok: false,
  message,
  code: 'UNSUPPORTED_AUDIO_FORMAT',
});

/** A REST speak call's audio query as the vendor reads it. */
export function readVendorERestEncoding(query: URLSearchParams): EncodingReading {
  const encoding = query.get('encoding') ?? VENDOR_E_DEFAULT_ENCODING;
  const found = Object.hasOwn(ENCODINGS, encoding) ? ENCODINGS[encoding] : undefined;
  if (!found) return unsupported(`Unsupported encoding: ${encoding}`);
  const container = query.get('container') ?? found.defaultContainer;
  if (!found.containers.includes(container)) {
    return unsupported(`Container ${container} is not supported for encoding ${encoding}`);
  }
  const rateText = query.get('sample_rate');
  const rate = rateText === null ? found.defaultRate : Number(rateText);
  if (!found.rates.includes(rate)) {
    return unsupported(
      found.fixedRate
        ? `sample_rate is not adjustable for encoding ${encoding}`
        : `sample_rate must be one of ${found.rates.join(', ')} for encoding ${encoding}`,
    );
  }
  const bitRateText = query.get('bit_rate');
  let bitrateKbps: number | undefined;
  if (bitRateText !== null) {
    const bitRate = Number(bitRateText);
    if (encoding !== 'mp3' && encoding !== 'opus' && encoding !== 'aac') {
      return unsupported(`bit_rate is not applicable for encoding ${encoding}`);
    }
    if (encoding === 'mp3' && !VENDOR_E_MP3_BIT_RATES.includes(bitRate)) {
      return unsupported(`bit_rate must be one of ${VENDOR_E_MP3_BIT_RATES.join(', ')} for mp3`);
    }
    bitrateKbps = bitRate / 1000;
  } else if (encoding === 'mp3') bitrateKbps = VENDOR_E_DEFAULT_MP3_BIT_RATE / 1000;
  const codec = encoding === 'linear16' && container === 'wav' ? 'wav' : found.codec;
  return {
    ok: true,
    spec: { codec, sampleRate: rate, ...(bitrateKbps !== undefined ? { bitrateKbps } : {}) },
  };
}

const SOCKET_CODECS: Readonly<Record<string, 'pcm' | 'mulaw' | 'alaw'>> = {
  linear16: 'pcm',
  mulaw: 'mulaw',
  alaw: 'alaw',
};
const SOCKET_RATES: Readonly<Record<VendorEGeneration, readonly number[]>> = {
  v1: [8000, 16000, 24000, 32000, 48000],
  v2: [8000, 16000, 24000, 32000, 44100, 48000],
};

/** A socket's audio query: raw audio only (no container). */
export function readVendorESocketEncoding(
  generation: VendorEGeneration,
  query: URLSearchParams,
): EncodingReading {
  const encoding = query.get('encoding') ?? 'linear16';
  const codec = Object.hasOwn(SOCKET_CODECS, encoding) ? SOCKET_CODECS[encoding] : undefined;
  if (!codec) return { ok: false, message: `Unsupported encoding: ${encoding}` };
  const rateText = query.get('sample_rate');
  const rate = rateText === null ? 24000 : Number(rateText);
  if (!SOCKET_RATES[generation].includes(rate)) {
    return { ok: false, message: `sample_rate must be one of ${SOCKET_RATES[generation].join(', ')}` };
  }
  return { ok: true, spec: { codec, sampleRate: rate } };
}
