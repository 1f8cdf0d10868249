import type { VendorMirror } from '@router/vendors-core';
import { vendorBAccess } from './vendor-b.access';
import { vendorBDropIn } from './vendor-b.drop-in';

/** vendor_b's mirror: its key and refusals, its two synthesis endpoints cached whole, its voices live. */
export const vendorBMirror: VendorMirror = {
  vendor: 'vendor_b',
  access: vendorBAccess,
  dropIn: vendorBDropIn,
  sockets: [],
};
