import { isVendorId, type VendorId } from '@router/vendors';

/** What the operator says each vendor charges, for the estimate of what the cache saved. */
export interface VendorPrices {
  /** ISO 4217 code, shown beside every amount. */
  currency: string;
  /** Price per million characters synthesized, by vendor; a vendor left out has no estimate. */
  perMillionChars: Partial<Record<VendorId, number>>;
}

/**
 * `VENDOR_PRICES`: `vendor_a=15,vendor_c=180` (per million characters, in `PRICE_CURRENCY`). Refused whole, naming
 * the part, when any part is not a vendor token with a price of zero or more.
 */
export function parseVendorPrices(raw: string | undefined, currency: string): VendorPrices {
  const perMillionChars: Partial<Record<VendorId, number>> = {};
  for (const part of (raw ?? '').split(',').map((p) => p.trim())) {
    if (part === '') continue;
    const [vendor = '', price = ''] = part.split('=').map((p) => p.trim());
    const amount = Number(price);
    if (!isVendorId(vendor) || price === '' || !Number.isFinite(amount) || amount < 0) {
      throw new Error(
        `VENDOR_PRICES: "${part}" is not <vendor token>=<price per million characters> (e.g. vendor_a=15)`,
      );
    }
    perMillionChars[vendor] = amount;
  }
  if (!/^[A-Z]{3}$/.test(currency)) throw new Error(`PRICE_CURRENCY: "${currency}" is not a code like USD`);
  return { currency, perMillionChars };
}
