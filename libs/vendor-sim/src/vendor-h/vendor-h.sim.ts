import { vendorHAccess } from '@router/vendor-h';
import type { SimVendorFactory } from '../kit/sim-vendor';
import { vendorHHttpRoutes } from './vendor-h.http';
import { vendorHSocketRoutes } from './vendor-h.socket';

/**
 * vendor_h: `POST /waves/v1/tts` (the whole clip, raw 16-bit PCM or WAV), `POST /waves/v1/tts/live` (SSE
 * `audio` events, then `{"done": true}`), `GET /waves/v1/<model>/get_voices` and
 * `GET /waves/v1/voice-cloning`, and the WebSocket `/waves/v1/tts/live` (`continue`/`flush` buffering per
 * `context_id`, `chunk`, `word_timestamp`, one `complete` per turn, `ping`/`pong`, an idle timeout). Key as
 * `Authorization: Bearer` (REST and the upgrade); HTTP errors are `{error}`, socket errors `status: "error"`.
 */
export const vendorHSim: SimVendorFactory = (kit) => ({
  vendor: 'vendor_h',
  routes: vendorHHttpRoutes(kit),
  sockets: vendorHSocketRoutes(kit),
  notFound: (exchange) => exchange.sendReply(vendorHAccess.notFound(exchange)),
});
