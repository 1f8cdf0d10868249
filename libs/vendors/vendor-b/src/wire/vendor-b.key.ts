import { keyHeader, type KeyPlacements } from '@router/vendors-core';

/** vendor_b takes its key in `X-API-Key`. */
export const VENDOR_B_KEY: KeyPlacements = [keyHeader('x-api-key')];
