import { vendorBStatusTitle, type VendorBProblem } from './vendor-b.errors';

/*
 * vendor_b's SSE events on `POST /v1/text-to-speech/stream`, both directions: `chunk` events with base64
 * audio and the server's `step_time`, an `error` event, then `done`; each names its type in the data too.
 */

export interface VendorBSseEvent {
  readonly event: string;
  readonly data: Record<string, unknown>;
}

export function vendorBChunkEvent(audio: Buffer, stepTime: number): VendorBSseEvent {
  return {
    event: 'chunk',
    data: {
      type: 'chunk',
      data: audio.toString('base64'),
      step_time: stepTime,
      done: false,
      status_code: 200,
    },
  };
}

export function vendorBErrorEvent(problem: VendorBProblem): VendorBSseEvent {
  return {
    event: 'error',
    data: {
      type: 'error',
      done: true,
      status_code: problem.status,
      title: vendorBStatusTitle(problem.status),
      message: problem.message,
    },
  };
}

export const VENDOR_B_DONE_EVENT: VendorBSseEvent = {
  event: 'done',
  data: { type: 'done', done: true, status_code: 200 },
};

export type VendorBStreamReading =
  | { readonly kind: 'audio'; readonly audio: Buffer }
  | { readonly kind: 'error'; readonly status: number | undefined; readonly message: string }
  | { readonly kind: 'malformed'; readonly what: string }
  | { readonly kind: 'other'; readonly done: boolean };

/** One event as a client reads it; an unnamed (`message`) event is known by its `type`. */
export function readVendorBStreamEvent(event: string, data: Record<string, unknown>): VendorBStreamReading {
  const kind = event === 'message' && typeof data['type'] === 'string' ? data['type'] : event;
  if (kind === 'chunk') {
    const audio = data['data'];
    if (typeof audio !== 'string') return { kind: 'malformed', what: 'a chunk without audio' };
    return { kind: 'audio', audio: Buffer.from(audio, 'base64') };
  }
  if (kind === 'error') {
    const status = data['status_code'];
    const text = typeof data['message'] === 'string' ? data['message'] : data['title'];
    return {
      kind: 'error',
      status: typeof status === 'number' ? status : undefined,
      message: typeof text === 'string' ? text : '',
    };
  }
  return { kind: 'other', done: kind === 'done' };
}
