import type { DropInWire, VendorAdapter, VendorId } from '@router/vendors-core';
import { isVendorId, VENDOR_ENTRIES } from './vendors.registry';

/** The adapters for the vendors with a base URL, looked up by vendor token (undefined: not configured). */
export function createUpstreams(
  baseUrls: Partial<Record<VendorId, string>>,
): (vendor: string) => VendorAdapter | undefined {
  const adapters = new Map<string, VendorAdapter>();
  for (const [vendor, baseUrl] of Object.entries(baseUrls)) {
    if (isVendorId(vendor) && baseUrl)
      adapters.set(vendor, VENDOR_ENTRIES[vendor].createAdapter({ baseUrl }));
  }
  return (vendor) => adapters.get(vendor);
}

/**
 * A vendor's drop-in wire, held by its mirror (undefined: no such vendor, or one without a mirror): the worker
 * reads and stores whole-request answers with it.
 */
export function dropInWire(vendor: string): DropInWire | undefined {
  return isVendorId(vendor) ? VENDOR_ENTRIES[vendor].mirror?.dropIn : undefined;
}
