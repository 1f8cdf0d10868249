import { vendorJAccess } from '@router/vendor-j';
import type { SimVendorFactory } from '../kit/sim-vendor';
import { vendorJHttpRoutes } from './vendor-j.http';

/**
 * vendor_j: `POST /v1beta/models/{model}:generateContent` (one JSON with the whole take; a WAV file from the
 * newest model, bare PCM before), `:streamGenerateContent` (`alt=sse`: `data:` events each with a part of the
 * audio, the last with `finishReason` STOP and usage; without it one JSON array), `GET /v1beta/models[/{id}]`
 * and `GET /v1beta/voices` (paged by `pageSize`/`pageToken`), each under `/v1` too (`VENDOR_J_API_VERSIONS`).
 * Audio is 16-bit PCM mono at 24000 Hz. Key in `x-vendor_j-api-key` or the `key` query parameter.
 */
export const vendorJSim: SimVendorFactory = (kit) => ({
  vendor: 'vendor_j',
  routes: vendorJHttpRoutes(kit),
  sockets: [],
  notFound: (exchange) => exchange.sendReply(vendorJAccess.notFound(exchange)),
});
