import type { VendorMirror } from '@router/vendors-core';
import { vendorGAccess } from './vendor-g.access';
import { vendorGDropIn } from './vendor-g.drop-in';
import { vendorGSocketRoutes } from './vendor-g.mirror-socket';

/** vendor_g's mirror: its key and refusals, `/tts` cached whole and its lists read live, its socket. */
export const vendorGMirror: VendorMirror = {
  vendor: 'vendor_g',
  access: vendorGAccess,
  dropIn: vendorGDropIn,
  sockets: vendorGSocketRoutes,
};
