import type { VendorEntry } from '@router/vendors-core';
import { createVendorBAdapter } from './vendor-b.adapter';
import { vendorB } from './vendor-b.definition';
import { vendorBAccess } from './wire/vendor-b.access';
import { vendorBMirror } from './wire/vendor-b.mirror';

/** vendor_b as the registry lists it. */
export const vendorBEntry: VendorEntry = {
  definition: vendorB,
  createAdapter: createVendorBAdapter,
  access: vendorBAccess,
  mirror: vendorBMirror,
};
