import type { VendorEntry } from '@router/vendors-core';
import { createVendorGAdapter } from './vendor-g.adapter';
import { vendorG } from './vendor-g.definition';
import { vendorGAccess } from './wire/vendor-g.access';
import { vendorGMirror } from './wire/vendor-g.mirror';

/** vendor_g as the registry lists it. */
export const vendorGEntry: VendorEntry = {
  definition: vendorG,
  createAdapter: createVendorGAdapter,
  access: vendorGAccess,
  mirror: vendorGMirror,
};
