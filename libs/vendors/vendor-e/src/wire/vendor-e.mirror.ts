import type { VendorMirror } from '@router/vendors-core';
import { vendorEAccess } from './vendor-e.access';
import { vendorEDropIn } from './vendor-e.drop-in';
import { vendorESocketRoutes } from './vendor-e.mirror-socket';

/** vendor_e's mirror: its key and refusals, its speak calls cached whole, its model lists live, its two sockets. */
export const vendorEMirror: VendorMirror = {
  vendor: 'vendor_e',
  access: vendorEAccess,
  dropIn: vendorEDropIn,
  sockets: vendorESocketRoutes,
};
