import type { VendorMirror } from '@router/vendors-core';
import { vendorIAccess } from './vendor-i.access';
import { vendorIDropIn } from './vendor-i.drop-in';
import { vendorISocketRoutes } from './vendor-i.mirror-socket';

/** vendor_i's mirror: its key and refusals, its REST and SSE endpoints cached whole, its socket per sentence. */
export const vendorIMirror: VendorMirror = {
  vendor: 'vendor_i',
  access: vendorIAccess,
  dropIn: vendorIDropIn,
  sockets: vendorISocketRoutes,
};
