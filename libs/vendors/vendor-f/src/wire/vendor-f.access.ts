import { STATUS_CODES } from 'node:http';
import { jsonReply, type MirrorAccess, type MirrorReply, vendorDoor } from '@router/vendors-core';
import { VENDOR_F_KEY } from './vendor-f.key';

/** The vendor's API gateway answers `{code: <status text>, error: <message>}`. */
function vendorFError(status: number, code: string, message: string): MirrorReply {
  return jsonReply(status, { code, error: message });
}

/**
 * vendor_f: `Authorization: Bearer <key>` on REST and at the WebSocket upgrade. The spec does not show its
 * refusals; these are the vendor's own gateway refusals, which its clients already handle: 401
 * `{code: "Unauthorized", error}` (also at the handshake), and 402 with code `insufficient_credits`.
 */
export const vendorFAccess: MirrorAccess = {
  ...vendorDoor('vendor_f', VENDOR_F_KEY, {
    outOfCredit: (message) => vendorFError(402, 'insufficient_credits', message),
    key: (message) => vendorFError(401, 'Unauthorized', message),
  }),
  fail: (status, message) => vendorFError(status, STATUS_CODES[status] ?? 'Error', message),
  notFound: () => jsonReply(404, { code: 'Not Found', error: 'no route matched' }),
  socket: { refusal: 'handshake' },
};
