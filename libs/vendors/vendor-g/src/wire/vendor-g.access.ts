import {
  jsonReply,
  type MirrorAccess,
  type MirrorRefusalKind,
  mirrorRefusalMessage,
  type MirrorReply,
  takeMessageKey,
  uuidRequestId,
  vendorDoor,
} from '@router/vendors-core';
import { vendorGTypeForStatus } from './vendor-g.errors';
import { VENDOR_G_KEY } from './vendor-g.key';
import { readVendorGClientMessage } from './vendor-g.socket';

/** The vendor's REST error body (both of its hosts). */
function vendorGError(status: number, errorType: string, message: string): MirrorReply {
  return jsonReply(status, {
    status_code: status,
    error_type: errorType,
    message,
    validation_errors: [],
    request_id: uuidRequestId(),
  });
}

function refusalStatus(kind: MirrorRefusalKind): number {
  return kind === 'out-of-credit' ? 402 : 401;
}

function refusalType(kind: MirrorRefusalKind): string {
  return kind === 'out-of-credit' ? 'insufficient_quota' : 'unauthenticated';
}

/** Every REST refusal: the same body, its status and type by kind. */
function refusal(kind: MirrorRefusalKind, message: string): MirrorReply {
  return vendorGError(refusalStatus(kind), refusalType(kind), message);
}

/**
 * vendor_g. The spec shows neither its key header nor its refusals; these follow the vendor's own clients.
 * REST takes `Authorization: Bearer <key>` and refuses with its `{status_code, error_type, message,
 * validation_errors, request_id}` body (401 `unauthenticated`, 402 `insufficient_quota`). Its socket clients
 * send no header: the key is `api_key` in each stream's config message. The mirror takes it from the first
 * message (or a bearer header at the upgrade), takes `api_key` out of every message it forwards, and refuses
 * as the vendor fails a connection: an `error` and a `terminated` for the stream, then a close (1008).
 */
export const vendorGAccess: MirrorAccess = {
  ...vendorDoor('vendor_g', VENDOR_G_KEY, {
    outOfCredit: (message) => refusal('out-of-credit', message),
    key: (message, kind) => refusal(kind, message),
  }),
  // Past an org's limit (429): the vendor's own rate-limit type.
  fail: (status, message) =>
    vendorGError(
      status,
      status === 429 ? vendorGTypeForStatus(status) : status >= 500 ? 'internal_error' : 'invalid_request',
      message,
    ),
  notFound: () => vendorGError(404, 'not_found', 'Not Found'),
  socket: {
    refusal: 'after-accept',
    takeKey: (message) => takeMessageKey(VENDOR_G_KEY, message),
    // Its clients send keep-alives from the connect on, before any stream's config (which carries the key).
    keylessBeforeKey: (message) => readVendorGClientMessage(message.fields).kind === 'keep-alive',
    refuse: (kind, first) => {
      const streamId = typeof first?.fields?.['stream_id'] === 'string' ? first.fields['stream_id'] : null;
      const error = {
        stream_id: streamId,
        error_code: refusalStatus(kind),
        error_message: mirrorRefusalMessage(kind, 'vendor_g'),
      };
      return {
        messages: [JSON.stringify(error), JSON.stringify({ stream_id: streamId, terminated: true })],
        closeCode: 1008,
        closeReason: refusalType(kind),
      };
    },
    // A message the router will not read (its JSON past the client-JSON rule): the vendor's error for a bad
    // request, with no stream to name, before the close.
    refuseMessage: (reason) => ({
      messages: [
        JSON.stringify({ stream_id: null, error_code: 400, error_message: reason }),
        JSON.stringify({ stream_id: null, terminated: true }),
      ],
      closeCode: 1008,
      closeReason: 'invalid_request',
    }),
    // Past an org's limit: the vendor's rate-limit error for the stream, its end, then the close.
    limited: (message, first) => {
      const streamId = typeof first?.fields?.['stream_id'] === 'string' ? first.fields['stream_id'] : null;
      return {
        messages: [
          JSON.stringify({ stream_id: streamId, error_code: 429, error_message: message }),
          JSON.stringify({ stream_id: streamId, terminated: true }),
        ],
        closeCode: 1008,
        closeReason: vendorGTypeForStatus(429),
      };
    },
  },
};
