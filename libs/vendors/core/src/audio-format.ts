import type { ResponseFormat } from './catalogue.types';

/**
 * An audio encoding as a vendor's wire names it, in the router's codec names: what a vendor's output-format
 * token stands for. The simulator makes takes in it; the adapter and the mirror translate it. (Named
 * `AudioEncoding` because `AudioFormat` is already the catalogue's format-name union.)
 */
export interface AudioEncoding {
  readonly codec: string;
  readonly sampleRate: number;
  /** Compressed codecs only: the bitrate asked for; the encoder uses the nearest one it can carry. */
  readonly bitrateKbps?: number;
}

/** An encoding whose codec is one of the router's format names. */
export type RouterAudioEncoding = AudioEncoding & { readonly codec: ResponseFormat };
