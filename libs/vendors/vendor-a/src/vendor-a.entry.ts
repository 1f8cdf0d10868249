import type { VendorEntry } from '@router/vendors-core';
import { createVendorAAdapter } from './vendor-a.adapter';
import { vendorA } from './vendor-a.definition';
import { vendorAAccess } from './wire/vendor-a.access';
import { vendorAMirror } from './wire/vendor-a.mirror';

/** vendor_a as the registry lists it. */
export const vendorAEntry: VendorEntry = {
  definition: vendorA,
  createAdapter: createVendorAAdapter,
  access: vendorAAccess,
  mirror: vendorAMirror,
};
