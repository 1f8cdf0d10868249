import { RouterError } from '@router/contracts';

/*
 * vendor_g's `audio_format` names, both directions: the router's formats as the adapter asks for them, and
 * what a server makes of each name. The vendor also has `pcm_f32le`, `pcm_s16be`, `aac` and `opus`; they are
 * known names the simulator refuses as unavailable (the router offers none of them).
 */

const CODECS: Readonly<Record<string, 'pcm' | 'mulaw' | 'alaw' | 'wav' | 'mp3' | 'flac'>> = {
  pcm_s16le: 'pcm',
  pcm_mulaw: 'mulaw',
  pcm_alaw: 'alaw',
  wav: 'wav',
  mp3: 'mp3',
  flac: 'flac',
};
export const VENDOR_G_KNOWN_FORMATS: readonly string[] = [
  ...Object.keys(CODECS),
  'pcm_f32le',
  'pcm_s16be',
  'aac',
  'opus',
];
export const VENDOR_G_RATES: readonly number[] = [8000, 16000, 22050, 24000, 32000, 44100, 48000];
/** The rate of the formats that carry their own when `sample_rate` is left out. */
export const VENDOR_G_NATIVE_RATE = 24000;

/** The codec an `audio_format` name stands for; undefined for a name not made here. */
export function vendorGCodec(audioFormat: string): (typeof CODECS)[string] | undefined {
  return Object.hasOwn(CODECS, audioFormat) ? CODECS[audioFormat] : undefined;
}

/** The `audio_format` for a router format (the router asks for no flac). */
export function vendorGAudioFormat(format: string): string {
  const name = format === 'flac' ? undefined : Object.entries(CODECS).find(([, c]) => c === format)?.[0];
  if (!name) throw RouterError.badRequest(`vendor_g cannot produce ${format} audio`);
  return name;
}

/** Every raw `pcm_*` format answers as `audio/pcm`. */
export function vendorGContentType(audioFormat: string, fallback: string): string {
  return audioFormat.startsWith('pcm_') ? 'audio/pcm' : fallback;
}
