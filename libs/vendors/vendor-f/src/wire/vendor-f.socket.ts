/*
 * vendor_f's `/v1/tts` socket: settings fixed by the query at the upgrade (`querySettings`); a client sends
 * `text.delta`, `text.done` and `text.clear`; a server answers `audio.delta` (base64 audio, with character
 * timings when `with_timestamps=true`), `audio.done`, `audio.clear` and `error`.
 */

export type VendorFClientMessage =
  | { readonly type: 'text.delta'; readonly delta: string }
  | { readonly type: 'text.done' }
  | { readonly type: 'text.clear' }
  | { readonly type: 'refused'; readonly message: string };

/** A client message as the vendor reads it (`refused` for one it refuses with an `error`; the socket stays open). */
export function readVendorFClientMessage(
  message: Readonly<Record<string, unknown>> | undefined,
): VendorFClientMessage {
  switch (message?.['type']) {
    case 'text.delta': {
      const delta = message['delta'];
      if (typeof delta !== 'string') return { type: 'refused', message: 'text.delta needs a string delta' };
      return { type: 'text.delta', delta };
    }
    case 'text.done':
      return { type: 'text.done' };
    case 'text.clear':
      return { type: 'text.clear' };
    default:
      return {
        type: 'refused',
        message: `unknown message type: ${JSON.stringify(message?.['type'] ?? null)}`,
      };
  }
}

export interface VendorFTimestamps {
  readonly graph_chars: string[];
  readonly graph_times: [number, number][];
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

/** Character timings, in seconds from the utterance's start. */
export function vendorFTimestamps(
  characters: readonly { char: string; startMs: number; endMs: number }[],
): VendorFTimestamps {
  return {
    graph_chars: characters.map((c) => c.char),
    graph_times: characters.map((c) => [round(c.startMs / 1000), round(c.endMs / 1000)]),
  };
}

export function vendorFAudioDelta(audio: Buffer, timestamps?: VendorFTimestamps): Record<string, unknown> {
  return {
    type: 'audio.delta',
    delta: audio.toString('base64'),
    ...(timestamps ? { audio_timestamps: timestamps } : {}),
  };
}

export const VENDOR_F_AUDIO_DONE = { type: 'audio.done' } as const;
export const VENDOR_F_AUDIO_CLEAR = { type: 'audio.clear' } as const;

export function vendorFSocketError(message: string): Record<string, unknown> {
  return { type: 'error', message };
}
