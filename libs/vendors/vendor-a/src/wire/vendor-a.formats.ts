import type { ResponseFormat } from '@router/vendors-core';

/** vendor_a's `output_audio_codec` tokens and the router codec each stands for (`linear16` is raw PCM). */
const CODECS: Readonly<Record<string, ResponseFormat>> = {
  mp3: 'mp3',
  wav: 'wav',
  linear16: 'pcm',
  mulaw: 'mulaw',
  alaw: 'alaw',
  opus: 'opus',
  flac: 'flac',
  aac: 'aac',
};

export const VENDOR_A_CODEC_NAMES: readonly string[] = Object.keys(CODECS);

/** The router codec a vendor codec token stands for; undefined for a token the vendor does not have. */
export function vendorACodec(token: string): ResponseFormat | undefined {
  return Object.hasOwn(CODECS, token) ? CODECS[token] : undefined;
}

/**
 * The token the adapter sends for a router format. The vendor's opus and flac are no catalogue format: only
 * the mirror's clients ask for them, by their own names.
 */
export function vendorACodecName(format: string): string | undefined {
  return Object.entries(CODECS).find(([, c]) => c === format)?.[0];
}

export const VENDOR_A_RATES: readonly number[] = [8000, 16000, 22050, 24000, 32000, 44100, 48000];
export const VENDOR_A_OPUS_RATES: readonly number[] = [8000, 12000, 16000, 24000, 48000];
/** Above this rate the vendor serves audio only from its one-shot REST endpoint, at 128k when compressed. */
export const VENDOR_A_STREAMING_MAX_RATE = 24000;
export const VENDOR_A_BITRATES: readonly string[] = ['32k', '64k', '96k', '128k', '192k'];
export const VENDOR_A_DEFAULT_RATE: Readonly<Record<string, number>> = { a_model_1: 24000, a_model_2: 22050 };
