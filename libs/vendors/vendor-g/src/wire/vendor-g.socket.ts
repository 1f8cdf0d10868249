import { readMessageKey, flagIsSet } from '@router/vendors-core';
import { VENDOR_G_KEY } from './vendor-g.key';

/*
 * vendor_g's `/tts-websocket`: no key at the upgrade; up to five streams per connection, each opened by a
 * config message carrying its own key (`api_key`, `VENDOR_G_KEY`) and generation parameters (`parseVendorGSettings`), then `text`
 * / `text_end`, `cancel`, and connection-wide `keep_alive`. A server answers per stream with audio messages,
 * an empty `audio_end` message, errors `{error_code, error_message}` and `terminated`.
 */

/** At most this many streams are open on one connection at a time. */
export const VENDOR_G_MAX_STREAMS = 5;
/** A connection without any client message (a keep-alive counts) for this long is closed. */
export const VENDOR_G_IDLE_MS = 60_000;
export const VENDOR_G_SOCKET_PATH = '/tts-websocket';

export type VendorGClientMessage =
  | { readonly kind: 'keep-alive' }
  /** `apiKey` undefined: no key in the message (the mirror's gateway has taken it out). */
  | { readonly kind: 'config'; readonly streamId: string; readonly apiKey: string | undefined }
  | { readonly kind: 'cancel'; readonly streamId: string }
  | { readonly kind: 'text'; readonly streamId: string; readonly text: unknown; readonly end: boolean }
  | { readonly kind: 'refused'; readonly streamId: string | undefined; readonly message: string };

/**
 * A client message as the vendor reads it (whether its stream exists is the server's business). Its messages
 * have no type: a keep-alive has no stream, a cancel says `cancel`, text carries `text` or `text_end`, and any
 * other message of a stream is its config (which carries the key at the vendor; the mirror's gateway has
 * taken it out by the time the mirror reads it).
 */
export function readVendorGClientMessage(message: Record<string, unknown> | undefined): VendorGClientMessage {
  if (!message) return { kind: 'refused', streamId: undefined, message: 'Messages must be JSON objects' };
  if (flagIsSet(message['keep_alive']) && message['stream_id'] === undefined) return { kind: 'keep-alive' };
  const streamId = message['stream_id'];
  if (typeof streamId !== 'string' || streamId === '') {
    return { kind: 'refused', streamId: undefined, message: 'Missing required field: stream_id' };
  }
  if (flagIsSet(message['cancel'])) return { kind: 'cancel', streamId };
  if ('text' in message || 'text_end' in message) {
    return { kind: 'text', streamId, text: message['text'] ?? '', end: flagIsSet(message['text_end']) };
  }
  return { kind: 'config', streamId, apiKey: readMessageKey(VENDOR_G_KEY, message) };
}

/** Character timings in seconds. */
export function vendorGTimestamps(
  characters: readonly { char: string; startMs: number; endMs: number }[],
): Record<string, unknown> {
  return {
    characters: characters.map((c) => c.char),
    character_start_times_seconds: characters.map((c) => c.startMs / 1000),
    character_end_times_seconds: characters.map((c) => c.endMs / 1000),
  };
}

export function vendorGAudioMessage(
  streamId: string,
  audio: Buffer,
  timestamps?: Record<string, unknown>,
): Record<string, unknown> {
  return { stream_id: streamId, audio: audio.toString('base64'), ...(timestamps ? { timestamps } : {}) };
}

export function vendorGAudioEnd(streamId: string): Record<string, unknown> {
  return { stream_id: streamId, audio: '', audio_end: true };
}

export function vendorGTerminated(streamId: string): Record<string, unknown> {
  return { stream_id: streamId, terminated: true };
}

export function vendorGStreamError(
  streamId: string | undefined,
  code: number,
  message: string,
): Record<string, unknown> {
  return {
    ...(streamId !== undefined ? { stream_id: streamId } : {}),
    error_code: code,
    error_message: message,
  };
}

/** A stream's config refused for its key. */
export function vendorGKeyRefusal(check: 'missing' | 'invalid'): { code: number; message: string } {
  return { code: 401, message: check === 'missing' ? 'Missing API key' : 'Invalid API key' };
}
