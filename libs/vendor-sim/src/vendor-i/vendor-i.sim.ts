import { vendorIAccess } from '@router/vendor-i';
import type { SimVendorFactory } from '../kit/sim-vendor';
import { vendorIHttpRoutes } from './vendor-i.http';
import { vendorISocketRoutes } from './vendor-i.socket';

/**
 * vendor_i: `POST /tts/bytes` (the whole clip per `output_format`), `POST /tts/sse` (raw audio as `chunk`
 * events, word `timestamps` with `add_timestamps`, then `done`), `GET /voices` (cursor-paged) and
 * `GET /voices/{id}`, and the `/tts/websocket` socket (contexts side by side, `continue`, `flush`,
 * `cancel`). Key as a bearer token or `X-API-Key`; every request names its API version.
 */
export const vendorISim: SimVendorFactory = (kit) => ({
  vendor: 'vendor_i',
  routes: vendorIHttpRoutes(kit),
  sockets: vendorISocketRoutes(kit),
  notFound: (exchange) => exchange.sendReply(vendorIAccess.notFound(exchange)),
});
