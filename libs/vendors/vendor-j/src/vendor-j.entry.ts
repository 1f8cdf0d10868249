import type { VendorEntry } from '@router/vendors-core';
import { createVendorJAdapter } from './vendor-j.adapter';
import { vendorJ } from './vendor-j.definition';
import { vendorJAccess } from './wire/vendor-j.access';
import { vendorJMirror } from './wire/vendor-j.mirror';

/** vendor_j as the registry lists it. */
export const vendorJEntry: VendorEntry = {
  definition: vendorJ,
  createAdapter: createVendorJAdapter,
  access: vendorJAccess,
  mirror: vendorJMirror,
};
