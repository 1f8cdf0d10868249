import { cannotProduce, type RouterAudioEncoding } from '@router/vendors-core';
import type { VendorIProblem } from './vendor-i.errors';

/*
 * vendor_i's `output_format` object (`{container, encoding, sample_rate, bit_rate}`), both directions: built
 * from a router format and rate (the adapter), read back into an encoding or refused (the simulator, mirror).
 */

export const VENDOR_I_RATES: readonly number[] = [8000, 16000, 22050, 24000, 44100, 48000];
export const VENDOR_I_MP3_BIT_RATES: readonly number[] = [32000, 64000, 96000, 128000, 192000];
/** The vendor's default mp3 bit rate; the router's catalogue has no option to change it. */
export const VENDOR_I_MP3_BIT_RATE = 128000;

/** The raw encodings and the router's headerless formats. `pcm_f32le` exists at the vendor, not here. */
const RAW_ENCODINGS: Readonly<Record<string, 'pcm' | 'mulaw' | 'alaw'>> = {
  pcm_s16le: 'pcm',
  pcm_mulaw: 'mulaw',
  pcm_alaw: 'alaw',
};

/** The `output_format` for a router format; raw containers are the only ones the streaming endpoints take. */
export function vendorIOutputFormat(format: string, sampleRate: number): Record<string, unknown> {
  const raw = Object.entries(RAW_ENCODINGS).find(([, f]) => f === format)?.[0];
  if (raw !== undefined) return { container: 'raw', encoding: raw, sample_rate: sampleRate };
  if (format === 'wav') return { container: 'wav', encoding: 'pcm_s16le', sample_rate: sampleRate };
  if (format === 'mp3') return { container: 'mp3', sample_rate: sampleRate, bit_rate: VENDOR_I_MP3_BIT_RATE };
  throw cannotProduce('vendor_i', format);
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** An `output_format` as the vendor reads it, or its refusal. */
export function readVendorIOutputFormat(
  value: unknown,
  streaming: boolean,
): RouterAudioEncoding | VendorIProblem {
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
  if (typeof rate !== 'number' || !VENDOR_I_RATES.includes(rate)) {
    return problem(`output_format.sample_rate must be one of ${VENDOR_I_RATES.join(', ')}`);
  }
  if (container === 'mp3') {
    const bps = bitRate ?? VENDOR_I_MP3_BIT_RATE;
    if (typeof bps !== 'number' || !VENDOR_I_MP3_BIT_RATES.includes(bps)) {
      return problem(`output_format.bit_rate must be one of ${VENDOR_I_MP3_BIT_RATES.join(', ')}`);
    }
    return { codec: 'mp3', sampleRate: rate, bitrateKbps: bps / 1000 };
  }
  const codec =
    typeof encoding === 'string' && Object.hasOwn(RAW_ENCODINGS, encoding)
      ? RAW_ENCODINGS[encoding]
      : undefined;
  if (!codec) {
    return problem(`output_format.encoding must be one of ${Object.keys(RAW_ENCODINGS).join(', ')}`);
  }
  if (container === 'wav') {
    if (codec !== 'pcm') return problem('the wav container takes pcm_s16le here');
    return { codec: 'wav', sampleRate: rate };
  }
  return { codec, sampleRate: rate };
}
