import type { VendorEntry } from '@router/vendors-core';
import { createVendorDAdapter } from './vendor-d.adapter';
import { vendorD } from './vendor-d.definition';
import { vendorDAccess } from './wire/vendor-d.access';
import { vendorDMirror } from './wire/vendor-d.mirror';

/** vendor_d as the registry lists it. */
export const vendorDEntry: VendorEntry = {
  definition: vendorD,
  createAdapter: createVendorDAdapter,
  access: vendorDAccess,
  mirror: vendorDMirror,
};
