import { vendorDErrorBody, type VendorDProblem } from './vendor-d.errors';

/*
 * vendor_d's SSE events (`stream_format: sse`, newer models only): `speech.audio.delta` with base64 audio,
 * `speech.audio.done` with token usage, or an `error` with the refusal body. The adapter streams
 * `stream_format: audio` instead, so only servers use these.
 */

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
