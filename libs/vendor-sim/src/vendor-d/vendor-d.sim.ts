import { vendorDAccess } from '@router/vendor-d';
import type { SimVendorFactory } from '../kit/sim-vendor';
import { vendorDHttpRoutes } from './vendor-d.http';

/**
 * vendor_d: `POST /v1/audio/speech` only, answering chunked raw audio (`stream_format: audio`, and the older
 * models whatever was asked) or SSE `data:` lines (`speech.audio.delta` … one `speech.audio.done` with usage,
 * then `[DONE]`, as the spec's Events table has it). No voice list: its voices are the router's catalogue ones.
 * Key as `Authorization: Bearer`.
 */
export const vendorDSim: SimVendorFactory = (kit) => ({
  vendor: 'vendor_d',
  routes: vendorDHttpRoutes(kit),
  sockets: [],
  notFound: (exchange) => exchange.sendReply(vendorDAccess.notFound(exchange)),
});
