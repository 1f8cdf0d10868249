import type { VendorHProblem } from './vendor-h.errors';

/*
 * vendor_h's SSE events on `POST /waves/v1/tts/live`, both directions: `audio` events with base64 PCM, an
 * `error` event, and the closing `{"done": true}`; written by a server, read by the adapter.
 */

export interface VendorHSseEvent {
  /** The SSE `event:` name; the done event has none. */
  readonly event?: string;
  readonly data: Record<string, unknown>;
}

export function vendorHAudioEvent(requestId: string, audio: Buffer): VendorHSseEvent {
  return { event: 'audio', data: { audio: audio.toString('base64'), request_id: requestId } };
}

export function vendorHErrorEvent(requestId: string, problem: VendorHProblem): VendorHSseEvent {
  return {
    event: 'error',
    data: {
      request_id: requestId,
      status: 'error',
      error: { message: problem.message, code: problem.status },
    },
  };
}

export const VENDOR_H_DONE_EVENT: VendorHSseEvent = { data: { done: true } };

export type VendorHStreamReading =
  | { readonly kind: 'audio'; readonly audio: Buffer }
  | { readonly kind: 'done' }
  | { readonly kind: 'error'; readonly status: number | undefined; readonly message: string }
  | { readonly kind: 'malformed' };

/**
 * One event as a client reads it: the simple `{audio}` form or the richer `{status: "chunk", data: {audio}}`,
 * an error (by event name, `status` or an `error` field) with the vendor's code where it gives one, or done.
 */
export function readVendorHStreamEvent(
  event: string | undefined,
  data: Record<string, unknown>,
): VendorHStreamReading {
  const error = data['error'];
  if (event === 'error' || data['status'] === 'error' || error !== undefined) {
    const nested = typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
    const code = nested['code'];
    const message =
      typeof error === 'string' ? error : typeof nested['message'] === 'string' ? nested['message'] : '';
    return { kind: 'error', status: typeof code === 'number' ? code : undefined, message };
  }
  if (data['done'] === true) return { kind: 'done' };
  const inner = data['data'];
  const audio =
    typeof data['audio'] === 'string'
      ? data['audio']
      : typeof inner === 'object' && inner !== null
        ? (inner as Record<string, unknown>)['audio']
        : undefined;
  if (typeof audio !== 'string') return { kind: 'malformed' };
  return { kind: 'audio', audio: Buffer.from(audio, 'base64') };
}
