/** vendor_f's `codec` names are the router's formats (`pcm` is raw s16le). */
export const VENDOR_F_CODECS = ['mp3', 'wav', 'pcm', 'mulaw', 'alaw'] as const;
export type VendorFCodec = (typeof VENDOR_F_CODECS)[number];

export function isVendorFCodec(value: unknown): value is VendorFCodec {
  return typeof value === 'string' && (VENDOR_F_CODECS as readonly string[]).includes(value);
}

export const VENDOR_F_RATES: readonly number[] = [8000, 16000, 22050, 24000, 44100, 48000];
export const VENDOR_F_MP3_BIT_RATES: readonly number[] = [32000, 64000, 96000, 128000, 192000];
/** The bit rate of mp3 when the request names none. */
export const VENDOR_F_DEFAULT_MP3_BIT_RATE = 128000;
