import { vendorGAccess } from '@router/vendor-g';
import type { SimVendorFactory } from '../kit/sim-vendor';
import { vendorGHttpRoutes } from './vendor-g.http';
import { vendorGSocketRoutes } from './vendor-g.socket';

/**
 * vendor_g: both of its hosts under one mount. The TTS host's `POST /tts` (raw audio as it is made) and
 * WebSocket `/tts-websocket` (up to five multiplexed streams, the key in each stream's config), and the API
 * host's `GET /v1/tts-models` and `GET /v1/voices` (cloned voices, paged by cursor). See README.md.
 */
export const vendorGSim: SimVendorFactory = (kit) => ({
  vendor: 'vendor_g',
  routes: vendorGHttpRoutes(kit),
  sockets: vendorGSocketRoutes(kit),
  notFound: (exchange) => exchange.sendReply(vendorGAccess.notFound(exchange)),
});
