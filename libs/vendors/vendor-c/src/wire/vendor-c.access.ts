import {
  jsonReply,
  type KeylessMessage,
  type MirrorAccess,
  type MirrorRefusalKind,
  mirrorRefusalMessage,
  type MirrorReply,
  readMessageKey,
  takeMessageKey,
  type UnreadableMessage,
  vendorDoor,
} from '@router/vendors-core';
import { closeCodeFor, problemBody, socketError, statusProblem } from './vendor-c.errors';
import { VENDOR_C_KEY } from './vendor-c.key';

function vendorCProblem(
  status: number,
  type: string,
  code: string,
  message: string,
  param?: string,
): MirrorReply {
  return jsonReply(status, problemBody({ status, type, code, message, ...(param ? { param } : {}) }));
}

/** The key a client's WebSocket message may carry instead of the handshake header (`VENDOR_C_KEY`). */
export function vendorCMessageKey(fields: Readonly<Record<string, unknown>>): string | undefined {
  return readMessageKey(VENDOR_C_KEY, fields);
}

/** A client message with its key taken out: both key fields are dropped from what is forwarded. */
export function takeVendorCMessageKey(message: string): KeylessMessage | UnreadableMessage {
  return takeMessageKey(VENDOR_C_KEY, message);
}

function socketErrorCode(kind: MirrorRefusalKind): string {
  return kind === 'out-of-credit' ? 'insufficient_credits' : 'invalid_api_key';
}

/** The vendor's refusal of a message it cannot take (the mirror's sockets refuse a bad message so too). */
const INVALID_MESSAGE = { status: 422, code: 'invalid_request' } as const;

/**
 * vendor_c: the key in `vendor_c-api-key` (or, on sockets, in the first message). A key refusal is a 400
 * `authentication_error`, 401 when no key was sent; on a socket the vendor accepts, sends
 * `{message, error, code: 1008}` and closes with 1008, as for a socket whose key is revoked while it is open.
 * A message the gateway cannot take the key out of is refused as the vendor refuses a bad message: an
 * `invalid_request` error, then close 1008.
 */
export const vendorCAccess: MirrorAccess = {
  ...vendorDoor('vendor_c', VENDOR_C_KEY, {
    outOfCredit: (message) => vendorCProblem(402, 'payment_required', 'insufficient_credits', message),
    key: (message, kind) => {
      const status = kind === 'missing-key' ? 401 : 400;
      return vendorCProblem(status, 'authentication_error', 'invalid_api_key', message, 'api_key');
    },
  }),
  // Past an org's limit (429): the vendor's own `too_many_concurrent_requests`.
  fail: (status, message) => {
    if (status === 429) {
      const problem = statusProblem(status, { message });
      return vendorCProblem(status, problem.type, problem.code, message);
    }
    return status >= 500
      ? vendorCProblem(status, 'server_error', 'internal_server_error', message)
      : vendorCProblem(status, 'validation_error', 'invalid_request', message);
  },
  notFound: () => jsonReply(404, { detail: 'Not Found' }),
  socket: {
    refusal: 'after-accept',
    takeKey: takeVendorCMessageKey,
    refuse: (kind) => ({
      messages: [
        JSON.stringify(
          socketError({
            status: 400,
            code: socketErrorCode(kind),
            message: mirrorRefusalMessage(kind, 'vendor_c'),
          }),
        ),
      ],
      closeCode: 1008,
      closeReason: socketErrorCode(kind),
    }),
    refuseMessage: (reason) => ({
      messages: [JSON.stringify(socketError({ ...INVALID_MESSAGE, message: reason }))],
      closeCode: 1008,
      closeReason: INVALID_MESSAGE.code,
    }),
    // Past an org's limit: the vendor's own concurrency error, then its close for a 4xx.
    limited: (message) => {
      const problem = statusProblem(429, { message });
      return {
        messages: [JSON.stringify(socketError(problem))],
        closeCode: closeCodeFor(429),
        closeReason: problem.code,
      };
    },
  },
};
