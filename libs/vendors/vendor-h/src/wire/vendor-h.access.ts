import { jsonReply, keyAccess, type MirrorAccess, mirrorRefusalMessage } from '@router/vendors-core';
import { VENDOR_H_KEY } from './vendor-h.key';

/**
 * vendor_h: `Authorization: Bearer <key>`, on REST and at the upgrade. Its error body is a bare
 * `{error: "<message>"}`; every key refusal is the spec's 401 `{error: "unauthorized"}`, also at the handshake.
 */
export const vendorHAccess: MirrorAccess = {
  vendor: 'vendor_h',
  ...keyAccess(VENDOR_H_KEY),
  refuse: (kind) =>
    kind === 'out-of-credit'
      ? jsonReply(402, { error: mirrorRefusalMessage(kind, 'vendor_h') })
      : jsonReply(401, { error: 'unauthorized' }),
  fail: (status, message) => jsonReply(status, { error: message }),
  notFound: () => jsonReply(404, { error: 'Not Found' }),
  socket: { refusal: 'handshake' },
};
