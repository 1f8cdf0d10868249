import type { VendorMirror } from '@router/vendors-core';
import { vendorHAccess } from './vendor-h.access';
import { vendorHDropIn } from './vendor-h.drop-in';
import { vendorHSocketRoutes } from './vendor-h.mirror-socket';

/** vendor_h's mirror: its key and refusals, its REST and SSE endpoints cached whole, its socket per sentence. */
export const vendorHMirror: VendorMirror = {
  vendor: 'vendor_h',
  access: vendorHAccess,
  dropIn: vendorHDropIn,
  sockets: vendorHSocketRoutes,
};
