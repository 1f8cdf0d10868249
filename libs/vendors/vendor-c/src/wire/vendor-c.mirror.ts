import type { VendorMirror } from '@router/vendors-core';
import { vendorCAccess } from './vendor-c.access';
import { vendorCSocketRoutes } from './vendor-c.mirror-socket';
import { vendorCDropIn } from './vendor-c.drop-in';

/** vendor_c's mirror: its key and refusals, its REST endpoints cached whole, its sockets. */
export const vendorCMirror: VendorMirror = {
  vendor: 'vendor_c',
  access: vendorCAccess,
  dropIn: vendorCDropIn,
  sockets: vendorCSocketRoutes,
};
