import { vendorEAccess } from '@router/vendor-e';
import type { SimVendorFactory } from '../kit/sim-vendor';
import { vendorEHttpRoutes } from './vendor-e.http';
import { vendorESocketRoutes } from './vendor-e.socket';

/**
 * vendor_e: `POST /v1/speak` (chunked audio, first-generation models) and `POST /v2/speak` (batch,
 * second-generation), audio settings in the query and `{text}` in the body; the public model lists
 * `GET /v1/models` and `GET /v2/models`; the streaming sockets `/v1/speak` and `/v2/speak` (raw audio as
 * binary frames). Key as `Authorization: Token <key>` (or `Bearer`, or the sub-protocols `token, <key>`).
 */
export const vendorESim: SimVendorFactory = (kit) => ({
  vendor: 'vendor_e',
  routes: vendorEHttpRoutes(kit),
  sockets: vendorESocketRoutes(kit),
  notFound: (exchange) => exchange.sendReply(vendorEAccess.notFound(exchange)),
});
