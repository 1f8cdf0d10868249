import type { VendorEntry } from '@router/vendors-core';
import { createVendorCAdapter } from './vendor-c.adapter';
import { vendorC } from './vendor-c.definition';

/** vendor_c as the registry lists it. */
export const vendorCEntry: VendorEntry = { definition: vendorC, createAdapter: createVendorCAdapter };
