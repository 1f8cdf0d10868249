import { vendorAAccess } from '@router/vendor-a';
import type { SimVendorFactory } from '../kit/sim-vendor';
import { vendorAHttpRoutes } from './vendor-a.http';
import { VendorADictionaries, vendorAControlRoutes, vendorADictionaryRoutes } from './vendor-a.dictionaries';
import { vendorASocketRoutes } from './vendor-a.socket';

/**
 * vendor_a: `POST /text-to-speech` (JSON with base64 WAV or the asked codec), `POST /text-to-speech/stream`
 * (chunked raw audio), and the `/text-to-speech/ws` (a_model_1) and `/text-to-speech/ws/v2` (a_model_2)
 * sockets, and the account's pronunciation dictionaries (`GET /pronunciation-dictionaries/{dict_id}`). Key in
 * `api-subscription-key` (or the socket sub-protocol `api-subscription-key.<key>`).
 */
export const vendorASim: SimVendorFactory = (kit) => {
  const dictionaries = new VendorADictionaries();
  kit.state.onReset(() => dictionaries.clear());
  return {
    vendor: 'vendor_a',
    routes: [...vendorAHttpRoutes(kit), ...vendorADictionaryRoutes(kit, dictionaries)],
    sockets: vendorASocketRoutes(kit),
    notFound: (exchange) => exchange.sendReply(vendorAAccess.notFound(exchange)),
    control: vendorAControlRoutes(dictionaries),
  };
};
