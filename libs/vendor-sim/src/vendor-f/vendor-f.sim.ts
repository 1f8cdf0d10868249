import { vendorFAccess } from '@router/vendor-f';
import type { SimVendorFactory } from '../kit/sim-vendor';
import { vendorFHttpRoutes } from './vendor-f.http';
import { vendorFSocketRoutes } from './vendor-f.socket';

/**
 * vendor_f: `POST /v1/tts` (raw audio streamed in chunks, mp3 24 kHz by default), the `/v1/tts` socket
 * (`text.delta`/`text.done`/`text.clear` in; `audio.delta` base64, `audio.done`, `audio.clear`, `error`
 * out) and `GET /v1/tts/voices` (built-in plus the account's custom voices). One engine, so no model.
 * Key as `Authorization: Bearer`; refusals come from its gateway as `{code, error}`.
 */
export const vendorFSim: SimVendorFactory = (kit) => ({
  vendor: 'vendor_f',
  routes: vendorFHttpRoutes(kit),
  sockets: vendorFSocketRoutes(kit),
  notFound: (exchange) => exchange.sendReply(vendorFAccess.notFound(exchange)),
});
