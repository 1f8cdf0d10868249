import { STATUS_CODES } from 'node:http';
import {
  authorizationCredential,
  jsonReply,
  type MirrorAccess,
  mirrorRefusalMessage,
  type MirrorReply,
} from '@router/vendors-core';

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
  vendor: 'vendor_f',
  keyHeaders: ['authorization'],
  keyQueryParams: [],
  readKey: (request) => authorizationCredential(request, 'Bearer'),
  refuse: (kind) =>
    kind === 'out-of-credit'
      ? vendorFError(402, 'insufficient_credits', mirrorRefusalMessage(kind, 'vendor_f'))
      : vendorFError(401, 'Unauthorized', mirrorRefusalMessage(kind, 'vendor_f')),
  fail: (status, message) => vendorFError(status, STATUS_CODES[status] ?? 'Error', message),
  notFound: () => jsonReply(404, { code: 'Not Found', error: 'no route matched' }),
  socket: { refusal: 'handshake' },
};
