import { keyHeader, type KeyPlacements } from '@router/vendors-core';

/** vendor_f takes its key as `Authorization: Bearer <key>`, on REST and at the WebSocket upgrade. */
export const VENDOR_F_KEY: KeyPlacements = [keyHeader('authorization', 'Bearer')];
