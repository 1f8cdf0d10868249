import { jsonReply, type MirrorAccess, type MirrorReply, textReply, vendorDoor } from '@router/vendors-core';
import { VENDOR_J_NOT_FOUND, vendorJErrorBody, vendorJErrorInfo, vendorJStatusName } from './vendor-j.errors';
import { VENDOR_J_KEY } from './vendor-j.key';

/** The vendor's error body, the same for every status: `{error: {code, message, status, details?}}`. */
function vendorJError(code: number, status: string, message: string, reason?: string): MirrorReply {
  return jsonReply(
    code,
    vendorJErrorBody({ code, status, message, ...(reason ? { details: [vendorJErrorInfo(reason)] } : {}) }),
  );
}

/**
 * vendor_j: the key in `x-vendor_j-api-key` or the query parameter `key`. No key at all is its 403
 * `PERMISSION_DENIED`; a wrong key, a disabled org and no stored vendor key are its 400 `INVALID_ARGUMENT` with
 * reason `API_KEY_INVALID`; out of credit is a 402. Its 404 is empty.
 */
export const vendorJAccess: MirrorAccess = {
  ...vendorDoor('vendor_j', VENDOR_J_KEY, {
    outOfCredit: (message) => vendorJError(402, 'RESOURCE_EXHAUSTED', message, 'INSUFFICIENT_CREDITS'),
    key: (message, kind) =>
      kind === 'missing-key'
        ? vendorJError(403, 'PERMISSION_DENIED', message, 'CREDENTIALS_MISSING')
        : vendorJError(400, 'INVALID_ARGUMENT', message, 'API_KEY_INVALID'),
  }),
  fail: (status, message) => vendorJError(status, vendorJStatusName(status), message),
  notFound: () => textReply(404, VENDOR_J_NOT_FOUND.body, VENDOR_J_NOT_FOUND.contentType),
  socket: { refusal: 'handshake' },
};
