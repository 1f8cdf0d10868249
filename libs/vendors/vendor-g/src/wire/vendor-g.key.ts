import { keyHeader, keyMessageField, type KeyPlacements } from '@router/vendors-core';

/**
 * vendor_g takes its key as `Authorization: Bearer <key>` on REST; its socket clients send no header, but the
 * key as `api_key` in each stream's config message.
 */
export const VENDOR_G_KEY: KeyPlacements = [keyHeader('authorization', 'Bearer'), keyMessageField('api_key')];
