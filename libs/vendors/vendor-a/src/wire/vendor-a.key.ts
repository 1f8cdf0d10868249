import { keyHeader, type KeyPlacements } from '@router/vendors-core';

/**
 * vendor_a takes its key in `api-subscription-key`, on REST and at the WebSocket upgrade. (Its browser
 * client's sub-protocol `api-subscription-key.<key>` is no request placement: only the simulator reads it,
 * `VENDOR_A_KEY_PROTOCOL_PREFIX`.)
 */
export const VENDOR_A_KEY: KeyPlacements = [keyHeader('api-subscription-key')];
