import { keyHeader, keyQuery, type KeyPlacements } from '@router/vendors-core';

/** vendor_j takes its key in `x-vendor_j-api-key` (its clients' default) or the query parameter `key`. */
export const VENDOR_J_KEY: KeyPlacements = [keyHeader('x-vendor_j-api-key'), keyQuery('key')];
