import {
  jsonReply,
  keyAccess,
  type MirrorAccess,
  mirrorRefusalMessage,
  type MirrorReply,
  textReply,
} from '@router/vendors-core';
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
  vendor: 'vendor_j',
  ...keyAccess(VENDOR_J_KEY),
  refuse: (kind) => {
    const message = mirrorRefusalMessage(kind, 'vendor_j');
    switch (kind) {
      case 'missing-key':
        return vendorJError(403, 'PERMISSION_DENIED', message, 'CREDENTIALS_MISSING');
      case 'out-of-credit':
        return vendorJError(402, 'RESOURCE_EXHAUSTED', message, 'INSUFFICIENT_CREDITS');
      default:
        return vendorJError(400, 'INVALID_ARGUMENT', message, 'API_KEY_INVALID');
    }
  },
  fail: (status, message) => vendorJError(status, vendorJStatusName(status), message),
  notFound: () => textReply(404, VENDOR_J_NOT_FOUND.body, VENDOR_J_NOT_FOUND.contentType),
  socket: { refusal: 'handshake' },
};
