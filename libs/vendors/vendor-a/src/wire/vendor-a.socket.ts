import type { VendorAErrorCode } from './vendor-a.errors';

/*
 * vendor_a's `/text-to-speech/ws` and `/text-to-speech/ws/v2` messages, both directions: what a client sends
 * (`config`, `text`, `flush`, `ping`), read by a server; what a server sends (`audio`, `error`, `event`).
 */

/** The vendor's browser client sends the key as this sub-protocol prefix; the server echoes the protocol. */
export const VENDOR_A_KEY_PROTOCOL_PREFIX = 'api-subscription-key.';
/** The vendor closes a socket after 60 s without a client message (a `ping` counts). */
export const VENDOR_A_IDLE_MS = 60_000;

export type VendorASocketEndpoint = 'ws' | 'ws-v2';
/** Which model each socket generation serves. */
export const VENDOR_A_SOCKET_MODEL: Readonly<Record<VendorASocketEndpoint, string>> = {
  ws: 'a_model_1',
  'ws-v2': 'a_model_2',
};

export type VendorAClientMessage =
  | { readonly type: 'config'; readonly data: Record<string, unknown> }
  | { readonly type: 'text'; readonly data: Record<string, unknown> }
  | { readonly type: 'flush' }
  | { readonly type: 'ping' };

export function vendorAConfigMessage(data: Record<string, unknown>): VendorAClientMessage {
  return { type: 'config', data };
}

export function vendorATextMessage(text: string): VendorAClientMessage {
  return { type: 'text', data: { text } };
}

export type ReadClientMessage =
  | { readonly ok: true; readonly message: VendorAClientMessage }
  | { readonly ok: false; readonly code: VendorAErrorCode; readonly message: string };

/** A client message as the vendor reads it; `data` that is not an object reads as empty. */
export function readVendorAClientMessage(message: Record<string, unknown> | undefined): ReadClientMessage {
  if (!message || typeof message['type'] !== 'string') {
    return { ok: false, code: 'invalid_request_error', message: 'Messages must be JSON objects with a type' };
  }
  const raw = message['data'];
  const data = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  switch (message['type']) {
    case 'config':
    case 'text':
      return { ok: true, message: { type: message['type'], data } };
    case 'flush':
    case 'ping':
      return { ok: true, message: { type: message['type'] } };
    default:
      return {
        ok: false,
        code: 'invalid_request_error',
        message: `Unknown message type ${String(message['type'])}`,
      };
  }
}

export function vendorAAudioMessage(requestId: string, audio: Buffer, contentType: string): object {
  return {
    type: 'audio',
    data: { request_id: requestId, audio: audio.toString('base64'), content_type: contentType },
  };
}

export function vendorASocketError(code: VendorAErrorCode, message: string, requestId?: string): object {
  return { type: 'error', data: { message, code, ...(requestId ? { request_id: requestId } : {}) } };
}

/** Sent after a flush's audio when the socket was opened with `send_completion_event=true`. */
export const VENDOR_A_FINAL_EVENT = { type: 'event', data: { event_type: 'final' } } as const;
