import { vendorBAccess } from '@router/vendor-b';
import type { SimVendorFactory } from '../kit/sim-vendor';
import { vendorBHttpRoutes } from './vendor-b.http';

/**
 * vendor_b: `POST /v1/text-to-speech` (the whole clip), `POST /v1/text-to-speech/stream` (SSE `chunk` events
 * with `step_time`, then `done`), `GET /v1/voices`. Key in `X-API-Key`; refusals come from its gateway.
 */
export const vendorBSim: SimVendorFactory = (kit) => ({
  vendor: 'vendor_b',
  routes: vendorBHttpRoutes(kit),
  sockets: [],
  notFound: (exchange) => exchange.sendReply(vendorBAccess.notFound(exchange)),
});
