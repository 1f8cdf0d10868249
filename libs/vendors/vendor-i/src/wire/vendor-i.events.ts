import type { VendorIProblem } from './vendor-i.errors';

/*
 * vendor_i's stream messages, the same on `/tts/sse` (as SSE events named by their `type`) and on the
 * `/tts/websocket` socket (with the context's id): `chunk`, `timestamps`, `flush_done`, `done`, `error`.
 * Servers build them here; the adapter reads them with `readVendorIEvent`.
 */

export type VendorIEvent = Record<string, unknown> & { readonly type: string };

/** Fields a stream adds to every message: the context id, a flush id. */
export type VendorIEventExtras = Readonly<Record<string, unknown>>;

export function vendorIChunkEvent(
  audio: Buffer,
  stepTime: number,
  extras: VendorIEventExtras = {},
): VendorIEvent {
  return {
    type: 'chunk',
    data: audio.toString('base64'),
    step_time: stepTime,
    done: false,
    status_code: 200,
    ...extras,
  };
}

export interface VendorIWordSpan {
  readonly word: string;
  readonly startMs: number;
  readonly endMs: number;
}

const seconds = (ms: number): number => Math.round(ms) / 1000;

/** Word timings, in seconds from the start of the stream (`offsetMs` is the audio before this take). */
export function vendorITimestampsEvent(
  words: readonly VendorIWordSpan[],
  offsetMs: number,
  extras: VendorIEventExtras = {},
): VendorIEvent {
  return {
    type: 'timestamps',
    word_timestamps: {
      words: words.map((w) => w.word),
      start: words.map((w) => seconds(offsetMs + w.startMs)),
      end: words.map((w) => seconds(offsetMs + w.endMs)),
    },
    done: false,
    status_code: 200,
    ...extras,
  };
}

export function vendorIFlushDoneEvent(flushId: number): VendorIEvent {
  return { type: 'flush_done', flush_done: true, flush_id: flushId, done: false, status_code: 200 };
}

export function vendorIDoneEvent(extras: VendorIEventExtras = {}): VendorIEvent {
  return { type: 'done', done: true, status_code: 200, ...extras };
}

/** An error ends its stream (or its socket context: `context_id` null when the message had none). */
export function vendorIErrorEvent(
  problem: VendorIProblem,
  requestId: string,
  extras: VendorIEventExtras = {},
): VendorIEvent {
  return {
    type: 'error',
    ...extras,
    status_code: problem.status,
    done: true,
    title: problem.title,
    message: problem.message,
    error_code: problem.errorCode,
    request_id: requestId,
  };
}

export type VendorIEventReading =
  | { readonly kind: 'audio'; readonly audio: Buffer }
  | { readonly kind: 'timestamps'; readonly wordTimestamps: unknown }
  | {
      readonly kind: 'error';
      readonly status: number | undefined;
      readonly message: string;
      /** The vendor's `error_code`, where it sent one. */
      readonly code: string | undefined;
    }
  | { readonly kind: 'done' }
  | { readonly kind: 'malformed'; readonly what: string }
  | { readonly kind: 'other' };

/** One message as a client reads it; its kind is its `type`, else the SSE event name. */
export function readVendorIEvent(
  event: string | undefined,
  message: Record<string, unknown>,
): VendorIEventReading {
  const kind = typeof message['type'] === 'string' ? message['type'] : event;
  switch (kind) {
    case 'chunk': {
      const data = message['data'];
      if (typeof data !== 'string') return { kind: 'malformed', what: 'a chunk without audio' };
      return { kind: 'audio', audio: Buffer.from(data, 'base64') };
    }
    case 'timestamps':
      return { kind: 'timestamps', wordTimestamps: message['word_timestamps'] };
    case 'error': {
      const status = message['status_code'];
      const text = typeof message['message'] === 'string' ? message['message'] : message['title'];
      const code = message['error_code'];
      return {
        kind: 'error',
        status: typeof status === 'number' ? status : undefined,
        message: typeof text === 'string' ? text : '',
        code: typeof code === 'string' ? code : undefined,
      };
    }
    case 'done':
      return { kind: 'done' };
    default:
      return { kind: 'other' };
  }
}
