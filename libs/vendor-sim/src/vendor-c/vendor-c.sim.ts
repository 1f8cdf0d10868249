import { vendorCAccess } from '@router/vendor-c';
import type { SimVendorFactory } from '../kit/sim-vendor';
import { vendorCSocketRoutes } from './vendor-c.socket';
import { vendorCTtsRoutes } from './vendor-c.tts-routes';
import { vendorCControlRoutes, vendorCVoiceRoutes } from './vendor-c.voice-routes';
import { VoiceStore } from './vendor-c.voices';

/**
 * vendor_c: text-to-speech and text-to-dialogue in four shapes each (audio, `/stream`, `/with-timestamps`,
 * `/stream/with-timestamps`), the `stream-input` and `multi-stream-input` sockets with alignment, and the
 * account's voices (`/v1/voices`, paged `/v2/voices`, stored settings, the shared library) and pronunciation
 * dictionaries (`/v1/pronunciation-dictionaries/{id}`). Key in
 * `vendor_c-api-key` (or, on sockets, in the first message).
 */
export const vendorCSim: SimVendorFactory = (kit) => {
  const store = new VoiceStore();
  kit.state.onReset(() => store.clear());
  return {
    vendor: 'vendor_c',
    routes: [...vendorCTtsRoutes(kit, store), ...vendorCVoiceRoutes(kit, store)],
    sockets: vendorCSocketRoutes(kit, store),
    notFound: (exchange) => exchange.sendReply(vendorCAccess.notFound(exchange)),
    control: vendorCControlRoutes(store),
  };
};
