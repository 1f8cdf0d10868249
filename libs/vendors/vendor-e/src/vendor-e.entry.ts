import type { VendorEntry } from '@router/vendors-core';
import { createVendorEAdapter } from './vendor-e.adapter';
import { vendorE } from './vendor-e.definition';
import { vendorEAccess } from './wire/vendor-e.access';
import { vendorEMirror } from './wire/vendor-e.mirror';

/** vendor_e as the registry lists it. */
export const vendorEEntry: VendorEntry = {
  definition: vendorE,
  createAdapter: createVendorEAdapter,
  access: vendorEAccess,
  mirror: vendorEMirror,
};
