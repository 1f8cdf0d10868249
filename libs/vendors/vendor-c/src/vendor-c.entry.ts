import type { VendorEntry } from '@router/vendors-core';
import { createVendorCAdapter } from './vendor-c.adapter';
import { vendorC } from './vendor-c.definition';
import { vendorCAccess } from './wire/vendor-c.access';
import { vendorCMirror } from './wire/vendor-c.mirror';

/** vendor_c as the registry lists it. */
export const vendorCEntry: VendorEntry = {
  definition: vendorC,
  createAdapter: createVendorCAdapter,
  access: vendorCAccess,
  mirror: vendorCMirror,
};
