import { keyHeader, keyMessageField, type KeyPlacements } from '@router/vendors-core';

/**
 * vendor_c takes its key in `vendor_c-api-key`, on REST and at the WebSocket upgrade; a socket client may send
 * it in a message instead, as `vendor_c_api_key` (the header's name with `_`) or `authorization: "Bearer <key>"`.
 */
export const VENDOR_C_KEY: KeyPlacements = [
  keyHeader('vendor_c-api-key'),
  keyMessageField('vendor_c_api_key'),
  keyMessageField('authorization', 'Bearer'),
];
