import { keyHeader, keyQuery, type KeyPlacements } from '@router/vendors-core';

/**
 * vendor_i takes its key in `X-API-Key` (older versions and many clients) or as `Authorization: Bearer <key>`
 * (current clients); browsers' sockets send it in the query, `api_key` (or a short-lived `access_token`). The
 * version header that goes beside it is no key (`VENDOR_I_VERSION_HEADER`).
 */
export const VENDOR_I_KEY: KeyPlacements = [
  keyHeader('x-api-key'),
  keyHeader('authorization', 'Bearer'),
  keyQuery('api_key'),
  keyQuery('access_token'),
];
