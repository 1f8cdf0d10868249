import { keyHeader, type KeyPlacements, keyProtocolAfter } from '@router/vendors-core';

/**
 * vendor_e takes an API key as `Authorization: Token <key>` and a temporary token as `Bearer <token>`, on REST
 * and at the WebSocket upgrade; browsers, which cannot set the header, offer the sub-protocols `token, <key>`
 * (the handshake's answer names `token`).
 */
export const VENDOR_E_KEY: KeyPlacements = [
  keyHeader('authorization', 'Token'),
  keyHeader('authorization', 'Bearer'),
  keyProtocolAfter('token'),
];
