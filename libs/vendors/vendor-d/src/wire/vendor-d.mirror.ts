import type { VendorMirror } from '@router/vendors-core';
import { vendorDAccess } from './vendor-d.access';
import { vendorDDropIn } from './vendor-d.drop-in';

/** vendor_d's mirror: its key and refusals, its speech endpoint cached whole. It has no sockets. */
export const vendorDMirror: VendorMirror = {
  vendor: 'vendor_d',
  access: vendorDAccess,
  dropIn: vendorDDropIn,
  sockets: [],
};
