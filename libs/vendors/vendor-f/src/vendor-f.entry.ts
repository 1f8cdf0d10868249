import type { VendorEntry } from '@router/vendors-core';
import { createVendorFAdapter } from './vendor-f.adapter';
import { vendorF } from './vendor-f.definition';
import { vendorFAccess } from './wire/vendor-f.access';
import { vendorFMirror } from './wire/vendor-f.mirror';

/** vendor_f as the registry lists it. */
export const vendorFEntry: VendorEntry = {
  definition: vendorF,
  createAdapter: createVendorFAdapter,
  access: vendorFAccess,
  mirror: vendorFMirror,
};
