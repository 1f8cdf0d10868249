import type { VendorEntry } from '@router/vendors-core';
import { createVendorIAdapter } from './vendor-i.adapter';
import { vendorI } from './vendor-i.definition';
import { vendorIAccess } from './wire/vendor-i.access';
import { vendorIMirror } from './wire/vendor-i.mirror';

/** vendor_i as the registry lists it. */
export const vendorIEntry: VendorEntry = {
  definition: vendorI,
  createAdapter: createVendorIAdapter,
  access: vendorIAccess,
  mirror: vendorIMirror,
};
