import type { VendorMirror } from '@router/vendors-core';
import { vendorJAccess } from './vendor-j.access';
import { vendorJDropIn } from './vendor-j.drop-in';

/** vendor_j's mirror: its key and refusals, its generate calls cached whole, its lists read live; no sockets. */
export const vendorJMirror: VendorMirror = {
  vendor: 'vendor_j',
  access: vendorJAccess,
  dropIn: vendorJDropIn,
  sockets: [],
};
