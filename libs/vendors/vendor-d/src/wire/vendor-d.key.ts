import { keyHeader, type KeyPlacements } from '@router/vendors-core';

/** vendor_d takes its key as `Authorization: Bearer <key>`. */
export const VENDOR_D_KEY: KeyPlacements = [keyHeader('authorization', 'Bearer')];
