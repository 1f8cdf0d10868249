import { keyHeader, type KeyPlacements, keyProtocol } from '@router/vendors-core';
import { VENDOR_A_KEY_PROTOCOL_PREFIX } from './vendor-a.socket';

/**
 * vendor_a takes its key in `api-subscription-key`, on REST and at the WebSocket upgrade, and, from its
 * browser client, as the sub-protocol `api-subscription-key.<key>` (which the handshake's answer must name).
 */
export const VENDOR_A_KEY: KeyPlacements = [
  keyHeader('api-subscription-key'),
  keyProtocol(VENDOR_A_KEY_PROTOCOL_PREFIX),
];
