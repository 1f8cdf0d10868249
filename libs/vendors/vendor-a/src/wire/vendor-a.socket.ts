import { flagIsSet, SOCKET_CLOSE, type SocketIdle } from '@router/vendors-core';
import type { VendorAErrorCode } from './vendor-a.errors';
import { TEXT_LIMITS } from './vendor-a.requests';

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

/** Why the vendor refuses a socket's `model` query (left out, or the other socket's), and its close reason. */
export function vendorASocketModelProblem(
  endpoint: VendorASocketEndpoint,
  model: string | null,
): { readonly message: string; readonly reason: string } | undefined {
  if (!model) return { message: 'model query parameter is required', reason: 'model required' };
  if (model === VENDOR_A_SOCKET_MODEL[endpoint]) return undefined;
  const other = Object.entries(VENDOR_A_SOCKET_MODEL).find(([, m]) => m === model)?.[0];
  const hint = other ? `; use /text-to-speech/${other === 'ws' ? 'ws' : 'ws/v2'}` : '';
  return { message: `model ${model} is not served on this socket${hint}`, reason: 'unsupported model' };
}

/**
 * Whether the handshake asks for a `final` event after each flush's audio: `send_completion_event` read as the
 * vendor reads a flag (`true`, `True`, `1` …); off when left out.
 */
export function vendorACompletionEvents(query: URLSearchParams): boolean {
  return flagIsSet(query.get('send_completion_event'));
}

/** The vendor's refusal of a `text` or `flush` before any config. */
export function vendorAConfigFirst(type: 'text' | 'flush'): string {
  return `Send a config message before ${type}`;
}

/** The vendor's refusal of a `text` message's text, if any: not a string (422), past the per-message limit. */
export function vendorASocketTextProblem(
  text: unknown,
): { readonly code: VendorAErrorCode; readonly message: string } | undefined {
  if (typeof text !== 'string')
    return { code: 'unprocessable_entity_error', message: 'text: Field required' };
  if (text.length > TEXT_LIMITS.message) {
    return {
      code: 'invalid_request_error',
      message: `text must be at most ${TEXT_LIMITS.message} characters per message`,
    };
  }
  return undefined;
}

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

/** The vendor closes a socket without client messages for 60 s: its idle error, then a policy close. */
export const VENDOR_A_IDLE: SocketIdle = {
  ms: VENDOR_A_IDLE_MS,
  frames: [
    JSON.stringify(
      vendorASocketError(
        'idle_timeout_error',
        `Connection closed after ${VENDOR_A_IDLE_MS / 1000} s without messages`,
      ),
    ),
  ],
  code: SOCKET_CLOSE.policy,
  reason: 'idle timeout',
};

/** Sent after a flush's audio when the socket was opened with `send_completion_event=true`. */
export const VENDOR_A_FINAL_EVENT = { type: 'event', data: { event_type: 'final' } } as const;
