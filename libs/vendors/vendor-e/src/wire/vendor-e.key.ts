import { keyHeader, type KeyPlacements } from '@router/vendors-core';

/**
 * vendor_e takes an API key as `Authorization: Token <key>` and a temporary token as `Bearer <token>`, on REST
 * and at the WebSocket upgrade. (Browsers offer the sub-protocols `token, <key>` instead: no request
 * placement, only the simulator reads them, `vendorEProtocolKey`.)
 */
export const VENDOR_E_KEY: KeyPlacements = [
  keyHeader('authorization', 'Token'),
  keyHeader('authorization', 'Bearer'),
];
