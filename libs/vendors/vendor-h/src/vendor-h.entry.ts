import type { VendorEntry } from '@router/vendors-core';
import { createVendorHAdapter } from './vendor-h.adapter';
import { vendorH } from './vendor-h.definition';
import { vendorHAccess } from './wire/vendor-h.access';
import { vendorHMirror } from './wire/vendor-h.mirror';

/** vendor_h as the registry lists it. */
export const vendorHEntry: VendorEntry = {
  definition: vendorH,
  createAdapter: createVendorHAdapter,
  access: vendorHAccess,
  mirror: vendorHMirror,
};
