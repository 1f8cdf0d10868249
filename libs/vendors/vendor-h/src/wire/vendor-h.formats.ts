/** vendor_h's `output_format` names are the router's: 16-bit PCM, raw or behind a WAV header. */
export const VENDOR_H_FORMATS = ['pcm', 'wav'] as const;
export type VendorHFormat = (typeof VENDOR_H_FORMATS)[number];

export function isVendorHFormat(value: unknown): value is VendorHFormat {
  return typeof value === 'string' && (VENDOR_H_FORMATS as readonly string[]).includes(value);
}

export const VENDOR_H_RATES: readonly number[] = [8000, 16000, 24000, 44100];
