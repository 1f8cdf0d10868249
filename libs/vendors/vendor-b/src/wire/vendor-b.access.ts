import { jsonReply, type MirrorAccess, type MirrorReply, vendorDoor } from '@router/vendors-core';
import { vendorBCodeForStatus } from './vendor-b.errors';
import { VENDOR_B_KEY } from './vendor-b.key';

/** The vendor's application errors: `{error: {code, message}}`. */
function vendorBError(status: number, code: string, message: string): MirrorReply {
  return jsonReply(status, { error: { code, message } });
}

/**
 * vendor_b: the key in `X-API-Key`. A key refusal comes from the vendor's API gateway, not its application:
 * 401 with a `Key` realm challenge and `{message, request_id: null}`; out of credit is an application error.
 */
export const vendorBAccess: MirrorAccess = {
  ...vendorDoor('vendor_b', VENDOR_B_KEY, {
    outOfCredit: (message) => vendorBError(402, 'insufficient_credits', message),
    key: (message) =>
      jsonReply(401, { message, request_id: null }, { 'www-authenticate': 'Key realm="vendor_b"' }),
  }),
  // Past an org's limit (429): the vendor's own rate-limit code.
  fail: (status, message) =>
    vendorBError(
      status,
      status === 429 ? vendorBCodeForStatus(status) : status >= 500 ? 'internal_error' : 'invalid_request',
      message,
    ),
  notFound: () => jsonReply(404, { message: 'no Route matched with those values', request_id: null }),
  socket: { refusal: 'handshake' },
};
