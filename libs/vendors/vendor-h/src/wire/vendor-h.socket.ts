import { flagIsSet } from '@router/vendors-core';
/*
 * vendor_h's WebSocket `/waves/v1/tts/live`: the handshake's `timeout` query, and the frames a server sends
 * (`chunk`, `word_timestamp`, `complete`, `error`, `pong`). A client's messages are synthesis bodies
 * (`parseVendorHRequest`) with the socket fields below.
 */

/** The vendor closes a socket after 60 s without a client message, unless `timeout` (up to 180 s) says otherwise. */
export const VENDOR_H_IDLE_MS = 60_000;
export const VENDOR_H_MAX_TIMEOUT_S = 180;
/** The vendor waits this long after a turn's last audio before `complete`, unless `complete_backoff_ms` says. */
export const VENDOR_H_COMPLETE_BACKOFF_MS = 4000;
export const VENDOR_H_MAX_COMPLETE_BACKOFF_MS = 10_000;

/** The handshake's `timeout` in seconds (undefined when absent), or the vendor's refusal of it. */
export function readVendorHSocketTimeout(
  raw: string | null,
): { ok: true; seconds: number | undefined } | { ok: false; status: number; body: { error: string } } {
  if (raw === null) return { ok: true, seconds: undefined };
  const seconds = Number(raw);
  if (!(Number.isInteger(seconds) && seconds >= 1 && seconds <= VENDOR_H_MAX_TIMEOUT_S)) {
    return {
      ok: false,
      status: 400,
      body: { error: `timeout must be an integer between 1 and ${VENDOR_H_MAX_TIMEOUT_S}` },
    };
  }
  return { ok: true, seconds };
}

/** The wait before a turn's `complete`: the message's `complete_backoff_ms` within bounds, else the default. */
export function vendorHCompleteBackoffMs(asked: unknown): number {
  return typeof asked === 'number'
    ? Math.min(Math.max(0, asked), VENDOR_H_MAX_COMPLETE_BACKOFF_MS)
    : VENDOR_H_COMPLETE_BACKOFF_MS;
}

/** How one client message steers its context's turn. */
export interface VendorHSocketControl {
  readonly contextId: string;
  readonly ping: boolean;
  readonly cancel: boolean;
  /** `context_close` without text: speak what is buffered and end the turn. */
  readonly closeOnly: boolean;
  readonly flush: boolean;
  /** `continue` without `context_close`: more text follows in this turn. */
  readonly more: boolean;
  readonly completeBackoff: unknown;
}

export function readVendorHSocketControl(message: Record<string, unknown>): VendorHSocketControl {
  return {
    contextId: typeof message['context_id'] === 'string' ? message['context_id'] : '',
    ping: message['type'] === 'ping',
    cancel: flagIsSet(message['cancel_request']),
    closeOnly: flagIsSet(message['context_close']) && message['text'] === undefined,
    flush: flagIsSet(message['flush']),
    more: flagIsSet(message['continue']) && !flagIsSet(message['context_close']),
    completeBackoff: message['complete_backoff_ms'],
  };
}

export const VENDOR_H_PONG = { type: 'pong' } as const;

/**
 * The ids every frame of a turn carries: its request id, the connection's session id where the server names
 * one, the client's correlation ids, its context.
 */
export interface VendorHTurnIds {
  readonly requestId: string;
  readonly sessionId?: string;
  readonly correlation: Readonly<Record<string, string>>;
  readonly contextId: string;
}

/** The client's `request_id` / `session_id` as a turn's frames echo them. */
export function vendorHCorrelation(echo: Readonly<Record<string, string>>): Record<string, string> {
  const correlation: Record<string, string> = {};
  if (echo['x-external-request-id']) correlation['external_request_id'] = echo['x-external-request-id'];
  if (echo['x-external-session-id']) correlation['external_session_id'] = echo['x-external-session-id'];
  return correlation;
}

function frame(ids: VendorHTurnIds, body: Record<string, unknown>): Record<string, unknown> {
  return {
    ...body,
    request_id: ids.requestId,
    ...(ids.sessionId !== undefined ? { session_id: ids.sessionId } : {}),
    ...ids.correlation,
    ...(ids.contextId !== '' ? { context_id: ids.contextId } : {}),
  };
}

export function vendorHChunkFrame(ids: VendorHTurnIds, audio: Buffer): Record<string, unknown> {
  return frame(ids, { status: 'chunk', data: { audio: audio.toString('base64') } });
}

export function vendorHWordFrame(
  ids: VendorHTurnIds,
  word: { id: number; word: string; start: number; end: number },
): Record<string, unknown> {
  return frame(ids, { status: 'word_timestamp', data: word });
}

export function vendorHCompleteFrame(ids: VendorHTurnIds): Record<string, unknown> {
  return frame(ids, { status: 'complete' });
}

/** An error for one request or context; the connection stays open. */
export function vendorHSocketError(
  message: string,
  contextId = '',
  requestId?: string,
): Record<string, unknown> {
  return {
    status: 'error',
    message,
    ...(requestId ? { request_id: requestId } : {}),
    ...(contextId !== '' ? { context_id: contextId } : {}),
  };
}

/** The error of one turn's request, with the turn's ids; the connection stays open. */
export function vendorHTurnError(ids: VendorHTurnIds, message: string): Record<string, unknown> {
  return frame(ids, { status: 'error', message });
}

export function vendorHIdleError(idleMs: number): Record<string, unknown> {
  return {
    status: 'error',
    message: `Connection timed out after ${Math.round(idleMs / 1000)} seconds of inactivity`,
  };
}
