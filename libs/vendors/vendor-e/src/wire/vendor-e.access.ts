import {
  jsonReply,
  type MirrorAccess,
  type MirrorReply,
  uuidRequestId,
  vendorDoor,
} from '@router/vendors-core';
import { vendorECodeForStatus } from './vendor-e.errors';
import { VENDOR_E_KEY } from './vendor-e.key';

/** `{err_code, err_msg, request_id}`. */
function vendorEError(status: number, code: string, message: string): MirrorReply {
  return jsonReply(status, { err_code: code, err_msg: message, request_id: uuidRequestId() });
}

/**
 * vendor_e: `Authorization: Token <key>` (or `Bearer`, as its clients send a temporary token); a key refusal is
 * its 401 `INVALID_AUTH`, also at the handshake.
 */
export const vendorEAccess: MirrorAccess = {
  ...vendorDoor('vendor_e', VENDOR_E_KEY, {
    outOfCredit: (message) => vendorEError(402, 'insufficient_credits', message),
    key: (message) => vendorEError(401, 'INVALID_AUTH', message),
  }),
  // Past an org's limit (429): the vendor's own rate-limit code.
  fail: (status, message) =>
    vendorEError(
      status,
      status === 429 ? vendorECodeForStatus(status) : status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST',
      message,
    ),
  notFound: () => jsonReply(404, { err_code: 'NOT_FOUND', err_msg: 'Not Found', request_id: null }),
  socket: { refusal: 'handshake' },
};
