import type { SimVendorFactory } from '../kit/sim-vendor';
import { vendorAHttpRoutes } from './vendor-a.http';
import { vendorASocketRoutes } from './vendor-a.socket';

/**
 * vendor_a: `POST /text-to-speech` (JSON with base64 WAV or the asked codec), `POST /text-to-speech/stream`
 * (chunked raw audio), and the `/text-to-speech/ws` (a_model_1) and `/text-to-speech/ws/v2` (a_model_2)
 * sockets. Key in `api-subscription-key` (or the socket sub-protocol `api-subscription-key.<key>`).
 */
export const vendorASim: SimVendorFactory = (kit) => ({
  vendor: 'vendor_a',
  routes: vendorAHttpRoutes(kit),
  sockets: vendorASocketRoutes(kit),
  notFound: (exchange) => exchange.sendJson(404, { detail: 'Not Found' }),
});
