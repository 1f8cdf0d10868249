import { vendorDErrorBody, type VendorDProblem } from './vendor-d.errors';

/*
 * vendor_d's SSE events (`stream_format: sse`, newer models only), both directions: a server writes
 * `speech.audio.delta` with base64 audio, one `speech.audio.done` with token usage (or an `error` with the
 * refusal body), then the `[DONE]` sentinel; a reader tells each event's kind (`vendorDEventKind`). Every event
 * is a `data:` line; its kind is the JSON's `type`, never an `event:` line. The adapter streams
 * `stream_format: audio` instead, so only the simulator writes these and only the mirror reads them.
 */

/** The data of the event that follows `speech.audio.done` and ends the stream. */
export const VENDOR_D_STREAM_END = '[DONE]';

export function vendorDDeltaEvent(audio: Buffer): Record<string, unknown> {
  return { type: 'speech.audio.delta', audio: audio.toString('base64') };
}

/** Token counts the vendor reports at the end: text tokens in, audio tokens out. */
export function vendorDDoneEvent(input: string, audioMs: number): Record<string, unknown> {
  const inputTokens = Math.max(1, Math.ceil(input.length / 4));
  const outputTokens = Math.max(1, Math.round(audioMs / 20));
  return {
    type: 'speech.audio.done',
    usage: {
      input_tokens: inputTokens,
      output_tokens: outputTokens,
      total_tokens: inputTokens + outputTokens,
    },
  };
}

export function vendorDErrorEvent(problem: VendorDProblem): Record<string, unknown> {
  return { type: 'error', ...vendorDErrorBody(problem) };
}

/**
 * What one event's data is: `delta` (audio), `done` (the take is complete), `end` (the sentinel after it),
 * `error` (a failure after the 200: an `error` event, or any event carrying an `error` object), `other` (an
 * event of a type this wire does not know, which carries no failure), or `unreadable` (data that is neither
 * JSON nor the sentinel).
 */
export type VendorDEventKind = 'delta' | 'done' | 'end' | 'error' | 'other' | 'unreadable';

export function vendorDEventKind(data: string): VendorDEventKind {
  if (data.trim() === VENDOR_D_STREAM_END) return 'end';
  let event: unknown;
  try {
    event = JSON.parse(data);
  } catch {
    return 'unreadable';
  }
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return 'unreadable';
  const { type, error } = event as Record<string, unknown>;
  if (type === 'error' || (typeof error === 'object' && error !== null)) return 'error';
  if (type === 'speech.audio.delta') return 'delta';
  if (type === 'speech.audio.done') return 'done';
  return 'other';
}
