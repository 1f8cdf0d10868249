import {
  type AnswerReading,
  type BodyFieldRule,
  type BodyFields,
  canonicalRequest,
  type DropInEndpoint,
  type DropInKeying,
  type DropInRequest,
  type DropInWire,
  type FrameKind,
  jsonObjectBody,
  jsonReply,
  type RequestShape,
  type SseEvent,
  sseAnswer,
  sseEventObject,
  wholeBodyAnswer,
} from '@router/vendors-core';
import { vendorBErrorBody } from './vendor-b.errors';
import { VENDOR_B_DEFAULTS, VENDOR_B_SPEECH_PATH, VENDOR_B_STREAM_PATH } from './vendor-b.requests';
import { readVendorBStreamEvent } from './vendor-b.stream';
import { VENDOR_B_VOICES_PATH } from './vendor-b.voices';

/*
 * vendor_b's drop-in wire (`vendorBDropIn`): its REST endpoints, a request's cache identity, the headers that
 * matter and how an answer is read and stored.
 */

const NULL_IS_ABSENT: BodyFieldRule = { nullIsAbsent: true };

/**
 * How the vendor reads a synthesis body (`parseVendorBRequest`): `codec`, `sample_rate` and `speed` left out or
 * null are its defaults, filled; `model` and `language` left out or null are the voice's own, which the key
 * cannot know (the voice list is the vendor's), so they are keyed as left out: the voice id in the key decides
 * them. A number sent as a string is refused, so no spelling is read alike. `text`, `voice_id` and every other
 * field are kept verbatim.
 */
const SYNTHESIS: RequestShape = {
  body: {
    model: NULL_IS_ABSENT,
    language: NULL_IS_ABSENT,
    codec: { default: VENDOR_B_DEFAULTS.codec, nullIsAbsent: true },
    sample_rate: { default: VENDOR_B_DEFAULTS.sampleRate, nullIsAbsent: true },
    speed: { default: VENDOR_B_DEFAULTS.speed, nullIsAbsent: true },
  } satisfies BodyFields,
};

const LIVE: DropInKeying = Object.freeze({ cacheable: false });

const isSynthesis = (request: DropInRequest): boolean =>
  request.method === 'POST' &&
  (request.path === VENDOR_B_SPEECH_PATH || request.path === VENDOR_B_STREAM_PATH);

/**
 * A vendor_b drop-in request's cache identity: both synthesis endpoints are cached whole, keyed as the vendor
 * reads their body (`SYNTHESIS`); the voice list, and a body the vendor will refuse for its shape (not a JSON
 * object, no text), are never cached.
 */
export function vendorBRequestKeying(request: DropInRequest): DropInKeying {
  if (!isSynthesis(request)) return LIVE;
  const body = jsonObjectBody(request);
  const text = body?.['text'];
  if (!body || typeof text !== 'string') return LIVE;
  return {
    cacheable: true,
    canonical: canonicalRequest(request, SYNTHESIS, body),
    stored: [],
    chars: [...text].length,
  };
}

/** An endpoint at exactly this path (its paths have no ids and no character a pattern reads). */
const exactly = (method: string, path: string): DropInEndpoint => ({ method, path: new RegExp(`^${path}$`) });

/** The REST endpoints of vendor_b's mirror (spec: Vendor drop-ins, vendor_b); it has no socket. */
const ENDPOINTS: readonly DropInEndpoint[] = [
  exactly('POST', VENDOR_B_SPEECH_PATH),
  exactly('POST', VENDOR_B_STREAM_PATH),
  exactly('GET', VENDOR_B_VOICES_PATH),
];

/**
 * What one event of the stream is: `chunk` a part, `done` the final event, `error` (the vendor's report of a
 * take that failed after the 200) and a chunk without its audio an error; anything else a part.
 */
function streamFrame(event: SseEvent): FrameKind {
  const data = sseEventObject(event);
  if (!data) return 'error';
  const reading = readVendorBStreamEvent(event.event, data);
  switch (reading.kind) {
    case 'audio':
      return 'part';
    case 'other':
      return reading.done ? 'final' : 'part';
    case 'error':
    case 'malformed':
      return 'error';
  }
}

/** The spec's one replay difference: a `chunk` event without `step_time` (the vendor's compute time then). */
function storedStreamEvent(event: SseEvent): SseEvent {
  const data = sseEventObject(event);
  if (!data || readVendorBStreamEvent(event.event, data).kind !== 'audio' || !('step_time' in data)) {
    return event;
  }
  const { step_time: _computeTime, ...kept } = data;
  return { event: event.event, data: JSON.stringify(kept) };
}

/**
 * How a 2xx answer of vendor_b is read. The stream is server-sent events, whole at its `done` with no `error`
 * event before it, stored without each chunk's `step_time`; the one-shot clip is audio, whole once its body
 * ended, stored as it came.
 */
export function vendorBAnswerReading(request: DropInRequest): AnswerReading {
  if (request.path !== VENDOR_B_STREAM_PATH) return wholeBodyAnswer();
  return sseAnswer({ event: streamFrame, stored: storedStreamEvent });
}

/** vendor_b's drop-in REST/SSE wire for whole-request takes. */
export const vendorBDropIn: DropInWire = {
  endpoints: ENDPOINTS,
  keying: vendorBRequestKeying,
  headers: {
    keyed: [],
    // `x-request-id` names the vendor's request, which a replay did not make. A refusal's `retry-after` (429)
    // and `www-authenticate` (a stored key the vendor refused) are the vendor's advice to its clients; such
    // answers are never stored, and the two are live-only wherever they come.
    passed: ['content-type', 'x-request-id', 'retry-after', 'www-authenticate'],
    liveOnly: ['x-request-id', 'retry-after', 'www-authenticate'],
  },
  readAnswer: vendorBAnswerReading,
  // The vendor's own refusal of a body it cannot read.
  invalidBody: ({ message }) =>
    jsonReply(400, vendorBErrorBody({ status: 400, code: 'invalid_request', message })),
};
