import { jsonReply, type MirrorAccess, type MirrorReply, vendorDoor } from '@router/vendors-core';
import { vendorACodeForStatus } from './vendor-a.errors';
import { VENDOR_A_KEY } from './vendor-a.key';

function vendorAError(status: number, code: string, message: string): MirrorReply {
  return jsonReply(status, { error: { message, code, request_id: null } });
}

/**
 * vendor_a: the key in `api-subscription-key`, on REST and at the WebSocket handshake; every key refusal is
 * its 403 `invalid_api_key_error`, also at the handshake.
 */
export const vendorAAccess: MirrorAccess = {
  ...vendorDoor('vendor_a', VENDOR_A_KEY, {
    outOfCredit: (message) => vendorAError(402, 'insufficient_credits', message),
    key: (message) => vendorAError(403, 'invalid_api_key_error', message),
  }),
  // Past an org's limit (429): the vendor's own rate-limit code.
  fail: (status, message) =>
    vendorAError(
      status,
      status === 429
        ? vendorACodeForStatus(status)
        : status >= 500
          ? 'internal_server_error'
          : 'invalid_request_error',
      message,
    ),
  notFound: () => jsonReply(404, { detail: 'Not Found' }),
  socket: { refusal: 'handshake' },
};
