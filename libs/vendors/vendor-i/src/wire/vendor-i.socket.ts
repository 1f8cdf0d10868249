import { randomUUID } from 'node:crypto';
import { flagIsSet } from '@router/vendors-core';
import { VENDOR_I_VERSION_HEADER, VENDOR_I_VERSION_QUERY } from './vendor-i.access';
import type { VendorIProblem } from './vendor-i.errors';

/*
 * vendor_i's `/tts/websocket`: where the handshake carries the version (the key: `VENDOR_I_KEY`), its refusal of a version,
 * and how a client message steers its context. The messages a server sends are in `vendor-i.events.ts`.
 */

export const VENDOR_I_SOCKET_PATH = '/tts/websocket';
/** The vendor closes a socket after 5 minutes without a client message. */
export const VENDOR_I_IDLE_MS = 300_000;
/** How long a context waits for more text before it speaks what it has, unless the request says otherwise. */
export const VENDOR_I_DEFAULT_BUFFER_DELAY_MS = 3000;
const MAX_BUFFER_DELAY_MS = 5000;

export interface VendorIHandshake {
  header(name: string): string | undefined;
  readonly query: URLSearchParams;
}

export function vendorISocketVersion(handshake: VendorIHandshake): string | undefined {
  return (
    handshake.header(VENDOR_I_VERSION_HEADER) ?? handshake.query.get(VENDOR_I_VERSION_QUERY) ?? undefined
  );
}

/** The handshake's refusal of a missing or unknown version (always JSON). */
export function vendorISocketVersionRefusal(): Record<string, unknown> {
  return {
    status_code: 400,
    error_code: 'invalid_version',
    title: 'Invalid version',
    message: 'A supported vendor_i-Version is required',
    request_id: randomUUID(),
  };
}

export const VENDOR_I_NOT_JSON: VendorIProblem = {
  status: 400,
  title: 'Invalid message',
  message: 'Messages must be JSON objects',
  errorCode: 'invalid_request',
};

export const VENDOR_I_NO_CONTEXT: VendorIProblem = {
  status: 400,
  title: 'Invalid context',
  message: 'context_id is required',
  errorCode: 'invalid_request',
};

/** How one client message steers its context (its settings are a synthesis body). */
export interface VendorISocketControl {
  readonly cancel: boolean;
  readonly transcript: string;
  /** Not `continue`: the context's last message. */
  readonly last: boolean;
  readonly flush: boolean;
  readonly bufferDelayMs: number;
}

export function readVendorISocketControl(message: Record<string, unknown>): VendorISocketControl {
  const delay = message['max_buffer_delay_ms'];
  return {
    cancel: flagIsSet(message['cancel']),
    transcript: typeof message['transcript'] === 'string' ? message['transcript'] : '',
    last: !flagIsSet(message['continue']),
    flush: flagIsSet(message['flush']),
    bufferDelayMs:
      typeof delay === 'number' && delay >= 0
        ? Math.min(delay, MAX_BUFFER_DELAY_MS)
        : VENDOR_I_DEFAULT_BUFFER_DELAY_MS,
  };
}
