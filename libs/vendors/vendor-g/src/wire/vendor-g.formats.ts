import { type AudioLayout, cannotProduce, layoutOfFormat } from '@router/vendors-core';

/*
 * vendor_g's `audio_format` names, both directions: the router's format for each name (the catalogue's five,
 * and for the names the catalogue lacks, which only the mirror's clients ask for, the name itself), the audio
 * each name stands for (what a server makes of it), and its `Content-Type`.
 */

/** Codecs in the router's names. */
export type VendorGCodec = 'pcm' | 'mulaw' | 'alaw' | 'wav' | 'mp3' | 'aac' | 'opus' | 'flac';

interface VendorGFormat {
  /** The router's format: a catalogue format, or for a name the catalogue lacks, that name. */
  readonly format: string;
  readonly codec: VendorGCodec;
  /** Raw PCM written otherwise than 16-bit little-endian samples. */
  readonly samples?: 'f32le' | 's16be';
  readonly contentType: string;
}

const FORMATS: Readonly<Record<string, VendorGFormat>> = {
  pcm_f32le: { format: 'pcm_f32le', codec: 'pcm', samples: 'f32le', contentType: 'audio/pcm' },
  pcm_s16le: { format: 'pcm', codec: 'pcm', contentType: 'audio/pcm' },
  pcm_s16be: { format: 'pcm_s16be', codec: 'pcm', samples: 's16be', contentType: 'audio/pcm' },
  pcm_mulaw: { format: 'mulaw', codec: 'mulaw', contentType: 'audio/pcm' },
  pcm_alaw: { format: 'alaw', codec: 'alaw', contentType: 'audio/pcm' },
  wav: { format: 'wav', codec: 'wav', contentType: 'audio/wav' },
  aac: { format: 'aac', codec: 'aac', contentType: 'audio/aac' },
  mp3: { format: 'mp3', codec: 'mp3', contentType: 'audio/mpeg' },
  opus: { format: 'opus', codec: 'opus', contentType: 'audio/opus' },
  flac: { format: 'flac', codec: 'flac', contentType: 'audio/flac' },
};

/** Every `audio_format` the vendor has. */
export const VENDOR_G_KNOWN_FORMATS: readonly string[] = Object.keys(FORMATS);
/** The vendor's `audio_format` when a request leaves it out. */
export const VENDOR_G_DEFAULT_FORMAT = 'wav';
export const VENDOR_G_RATES: readonly number[] = [8000, 16000, 22050, 24000, 32000, 44100, 48000];
/** The rate of the formats that carry their own when `sample_rate` is left out. */
export const VENDOR_G_NATIVE_RATE = 24000;

function formatOf(audioFormat: string): VendorGFormat | undefined {
  return Object.hasOwn(FORMATS, audioFormat) ? FORMATS[audioFormat] : undefined;
}

/** The codec an `audio_format` name stands for; undefined for a name the vendor does not have. */
export function vendorGCodec(audioFormat: string): VendorGCodec | undefined {
  return formatOf(audioFormat)?.codec;
}

/** How a raw `pcm_*` format writes its samples, where not as 16-bit little-endian. */
export function vendorGSampleEncoding(audioFormat: string): 'f32le' | 's16be' | undefined {
  return formatOf(audioFormat)?.samples;
}

/** Whether the format is raw PCM, for which the vendor wants `sample_rate` said. */
export function vendorGIsRaw(audioFormat: string): boolean {
  return audioFormat.startsWith('pcm_');
}

/** The router's format for an `audio_format` name the vendor has. */
export function vendorGRouterFormat(audioFormat: string): string | undefined {
  return formatOf(audioFormat)?.format;
}

/** The `audio_format` for a router format (`vendorGRouterFormat` reversed). */
export function vendorGAudioFormat(format: string): string {
  const name = Object.entries(FORMATS).find(([, f]) => f.format === format)?.[0];
  if (!name) throw cannotProduce('vendor_g', format);
  return name;
}

/** The `Content-Type` of an answer in `audio_format`. */
export function vendorGContentType(audioFormat: string): string {
  return formatOf(audioFormat)?.contentType ?? 'application/octet-stream';
}

/** How audio in `audioFormat` at `sampleRate` is laid out, for telling a whole take (`checkAudio`). */
export function vendorGAudioLayout(audioFormat: string, sampleRate: number): AudioLayout {
  const format = formatOf(audioFormat);
  if (!format) return { kind: 'unknown' };
  if (format.codec === 'pcm')
    return { kind: 'samples', sampleRate, frameBytes: format.samples === 'f32le' ? 4 : 2 };
  return layoutOfFormat(format.codec, sampleRate);
}
