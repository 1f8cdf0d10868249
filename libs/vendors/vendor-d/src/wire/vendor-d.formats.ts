/** vendor_d's `response_format` names are the router's; every format is made at one rate. */
export const VENDOR_D_FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const;
export type VendorDFormat = (typeof VENDOR_D_FORMATS)[number];

export function isVendorDFormat(value: unknown): value is VendorDFormat {
  return typeof value === 'string' && (VENDOR_D_FORMATS as readonly string[]).includes(value);
}

/** The formats the router asks for: the ones it serves without re-encoding (no opus, no flac). */
export const VENDOR_D_ROUTER_FORMATS: ReadonlySet<string> = new Set(['pcm', 'wav', 'mp3', 'aac']);

/** Every format is made at this rate; `pcm` is raw s16le mono at it. */
export const VENDOR_D_SAMPLE_RATE = 24000;

/** The vendor's MIME types: Ogg Opus is `audio/opus` here. */
export const VENDOR_D_CONTENT_TYPES: Readonly<Record<VendorDFormat, string>> = {
  mp3: 'audio/mpeg',
  opus: 'audio/opus',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};
