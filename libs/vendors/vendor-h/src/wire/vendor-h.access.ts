import { jsonReply, type MirrorAccess, vendorDoor } from '@router/vendors-core';
import { VENDOR_H_KEY } from './vendor-h.key';

/**
 * vendor_h: `Authorization: Bearer <key>`, on REST and at the upgrade. Its error body is a bare
 * `{error: "<message>"}`; every key refusal is the spec's 401 `{error: "unauthorized"}`, also at the handshake.
 */
export const vendorHAccess: MirrorAccess = {
  ...vendorDoor('vendor_h', VENDOR_H_KEY, {
    outOfCredit: (message) => jsonReply(402, { error: message }),
    key: () => jsonReply(401, { error: 'unauthorized' }),
  }),
  fail: (status, message) => jsonReply(status, { error: message }),
  notFound: () => jsonReply(404, { error: 'Not Found' }),
  socket: { refusal: 'handshake' },
};
