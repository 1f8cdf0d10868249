import { keyHeader, type KeyPlacements } from '@router/vendors-core';

/** vendor_h takes its key as `Authorization: Bearer <key>`, on REST and at the WebSocket upgrade. */
export const VENDOR_H_KEY: KeyPlacements = [keyHeader('authorization', 'Bearer')];
