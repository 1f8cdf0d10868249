import type { VendorEntry } from '@router/vendors-core';
import { createVendorEAdapter } from './vendor-e.adapter';
import { vendorE } from './vendor-e.definition';

/** vendor_e as the registry lists it. */
export const vendorEEntry: VendorEntry = { definition: vendorE, createAdapter: createVendorEAdapter };
