import type { VendorMirror } from '@router/vendors-core';
import { vendorFAccess } from './vendor-f.access';
import { vendorFDropIn } from './vendor-f.drop-in';
import { vendorFSocketRoutes } from './vendor-f.mirror-socket';

/** vendor_f's mirror: its key and refusals, its synthesis cached whole, its voices live, its `/v1/tts` socket. */
export const vendorFMirror: VendorMirror = {
  vendor: 'vendor_f',
  access: vendorFAccess,
  dropIn: vendorFDropIn,
  sockets: vendorFSocketRoutes,
};
