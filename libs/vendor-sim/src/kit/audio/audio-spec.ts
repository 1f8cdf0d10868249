import type { AudioEncoding } from '@router/vendors-core';

/** Every codec a simulated vendor can answer in. The vendor decides which of them it offers. */
export const SIM_CODECS = ['pcm', 'wav', 'mp3', 'aac', 'mulaw', 'alaw', 'opus', 'flac'] as const;
export type SimCodec = (typeof SIM_CODECS)[number];

/** What one take is encoded as: a vendor wire's encoding, plus what only the simulator decides. */
export interface AudioSpec extends AudioEncoding {
  readonly codec: SimCodec;
  /** mp3 only: start the take with an ID3v2 tag, as vendor_c does at the start of each stream. */
  readonly id3?: boolean;
}

/** One MIME type per codec, the same for every simulated vendor. */
export const CONTENT_TYPES: Readonly<Record<SimCodec, string>> = {
  pcm: 'audio/pcm',
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  aac: 'audio/aac',
  mulaw: 'audio/mulaw',
  alaw: 'audio/alaw',
  opus: 'audio/ogg',
  flac: 'audio/flac',
};

export function isSimCodec(value: unknown): value is SimCodec {
  return typeof value === 'string' && (SIM_CODECS as readonly string[]).includes(value);
}

/**
 * A piece of an encoded take that can be sent on its own: a block of samples, a frame or a page. The
 * first unit also holds any container header. Streams are cut only at unit ends (except by a cut fault).
 */
export interface AudioUnit {
  /** Byte offset just past the unit. */
  readonly end: number;
  /** Playback time at the unit's end, in milliseconds. */
  readonly endMs: number;
}

export interface EncodedAudio {
  readonly bytes: Buffer;
  readonly units: readonly AudioUnit[];
  /** Playback length of the whole take. */
  readonly durationMs: number;
}
