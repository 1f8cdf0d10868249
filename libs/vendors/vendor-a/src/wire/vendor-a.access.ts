import {
  jsonReply,
  keyAccess,
  type MirrorAccess,
  mirrorRefusalMessage,
  type MirrorReply,
} from '@router/vendors-core';
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
  vendor: 'vendor_a',
  ...keyAccess(VENDOR_A_KEY),
  refuse: (kind) =>
    kind === 'out-of-credit'
      ? vendorAError(402, 'insufficient_credits', mirrorRefusalMessage(kind, 'vendor_a'))
      : vendorAError(403, 'invalid_api_key_error', mirrorRefusalMessage(kind, 'vendor_a')),
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
