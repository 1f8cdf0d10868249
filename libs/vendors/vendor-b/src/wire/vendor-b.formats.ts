/** vendor_b's `codec` names are the router's formats (`pcm` is raw s16le). */
export const VENDOR_B_CODECS = ['pcm', 'wav', 'mulaw'] as const;
export type VendorBCodec = (typeof VENDOR_B_CODECS)[number];

export function isVendorBCodec(value: unknown): value is VendorBCodec {
  return typeof value === 'string' && (VENDOR_B_CODECS as readonly string[]).includes(value);
}

export const VENDOR_B_RATES: readonly number[] = [8000, 16000, 22050, 24000, 44100];
