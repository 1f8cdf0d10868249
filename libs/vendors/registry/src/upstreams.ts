import type { AdapterFactory, VendorAdapter, VendorId } from '@router/vendors-core';
import { createVendorAAdapter } from '@router/vendor-a';
import { createVendorBAdapter } from '@router/vendor-b';
import { createVendorCAdapter } from '@router/vendor-c';
import { createVendorDAdapter } from '@router/vendor-d';
import { createVendorEAdapter } from '@router/vendor-e';
import { createVendorFAdapter } from '@router/vendor-f';
import { createVendorGAdapter } from '@router/vendor-g';
import { createVendorHAdapter } from '@router/vendor-h';
import { createVendorIAdapter } from '@router/vendor-i';
import { createVendorJAdapter } from '@router/vendor-j';
import { isVendorId } from './vendors.registry';

/** Each vendor's upstream adapter; a vendor joins this list with its adapter, in its own folder. */
const ADAPTERS: Partial<Record<VendorId, AdapterFactory>> = {
  vendor_a: createVendorAAdapter,
  vendor_b: createVendorBAdapter,
  vendor_c: createVendorCAdapter,
  vendor_d: createVendorDAdapter,
  vendor_e: createVendorEAdapter,
  vendor_f: createVendorFAdapter,
  vendor_g: createVendorGAdapter,
  vendor_h: createVendorHAdapter,
  vendor_i: createVendorIAdapter,
  vendor_j: createVendorJAdapter,
};

/** The adapters for the vendors with a base URL, looked up by vendor token (undefined: not configured). */
export function createUpstreams(
  baseUrls: Partial<Record<VendorId, string>>,
): (vendor: string) => VendorAdapter | undefined {
  const adapters = new Map<string, VendorAdapter>();
  for (const [vendor, baseUrl] of Object.entries(baseUrls)) {
    const factory = isVendorId(vendor) ? ADAPTERS[vendor] : undefined;
    if (factory && baseUrl) adapters.set(vendor, factory({ baseUrl }));
  }
  return (vendor) => adapters.get(vendor);
}

/** The vendors that have an upstream adapter. */
export function vendorsWithUpstream(): VendorId[] {
  return Object.keys(ADAPTERS).filter(isVendorId);
}
