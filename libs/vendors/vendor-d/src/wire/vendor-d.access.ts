import { jsonReply, type MirrorAccess, type MirrorReply, vendorDoor } from '@router/vendors-core';
import { vendorDTypeForStatus } from './vendor-d.errors';
import { VENDOR_D_KEY } from './vendor-d.key';

/** `{error: {message, type, param, code}}`, all four always present. */
function vendorDError(
  status: number,
  error: { message: string; type: string; param: string | null; code: string | null },
): MirrorReply {
  return jsonReply(status, { error });
}

/** vendor_d: `Authorization: Bearer <key>`; a key refusal is its 401 `invalid_api_key`. */
export const vendorDAccess: MirrorAccess = {
  ...vendorDoor('vendor_d', VENDOR_D_KEY, {
    outOfCredit: (message) =>
      vendorDError(402, { message, type: 'insufficient_quota', param: null, code: 'insufficient_credits' }),
    key: (message) =>
      vendorDError(401, { message, type: 'invalid_request_error', param: null, code: 'invalid_api_key' }),
  }),
  // Past an org's limit (429): the vendor's own rate-limit type and code.
  fail: (status, message) =>
    vendorDError(status, {
      message,
      ...(status === 429
        ? vendorDTypeForStatus(status)
        : { type: status >= 500 ? 'server_error' : 'invalid_request_error', code: null }),
      param: null,
    }),
  notFound: ({ method, path }) =>
    vendorDError(404, {
      message: `Invalid URL (${method} ${path})`,
      type: 'invalid_request_error',
      param: null,
      code: null,
    }),
  socket: { refusal: 'handshake' },
};
