import type { VendorMirror } from '@router/vendors-core';
import { vendorAAccess } from './vendor-a.access';
import { vendorADropIn } from './vendor-a.drop-in';
import { vendorASocketRoutes } from './vendor-a.mirror-socket';

/** vendor_a's mirror: its key and refusals, its REST endpoints cached whole, its two sockets per sentence. */
export const vendorAMirror: VendorMirror = {
  vendor: 'vendor_a',
  access: vendorAAccess,
  dropIn: vendorADropIn,
  sockets: vendorASocketRoutes,
};
