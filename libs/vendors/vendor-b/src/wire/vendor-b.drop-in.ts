import type { AnswerReading, DropInRequest, DropInWire, RequestShape, SseRules } from '@router/vendors-core';
import {
  audioAnswer,
  exactly,
  filled,
  jsonReply,
  labelAt,
  layoutOfFormat,
  NULL_IS_ABSENT,
  sseAnswer,
  sseEventObject,
  textBodyAudio,
  textBodyKeying,
} from '@router/vendors-core';
import { vendorB } from '../vendor-b.definition';
import { vendorBErrorBody } from './vendor-b.errors';
import { isVendorBCodec } from './vendor-b.formats';
import { VENDOR_B_DEFAULTS, VENDOR_B_SPEECH_PATH, VENDOR_B_STREAM_PATH } from './vendor-b.requests';
import { readVendorBStreamEvent } from './vendor-b.stream';
import { VENDOR_B_VOICES_PATH } from './vendor-b.voices';

/*
 * vendor_b's drop-in wire (`vendorBDropIn`): its REST endpoints, a request's cache identity, the headers that
 * matter and how an answer is read and stored.
 */

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
    codec: filled(VENDOR_B_DEFAULTS.codec),
    sample_rate: filled(VENDOR_B_DEFAULTS.sampleRate),
    speed: filled(VENDOR_B_DEFAULTS.speed),
  },
};

/**
 * A vendor_b drop-in request's cache identity: both synthesis endpoints are cached whole, keyed as the vendor
 * reads their body (`SYNTHESIS`); the voice list, and a body the vendor will refuse for its shape (not a JSON
 * object, no text), are never cached.
 */
export const vendorBRequestKeying = textBodyKeying({
  paths: [VENDOR_B_SPEECH_PATH, VENDOR_B_STREAM_PATH],
  text: 'text',
  shape: SYNTHESIS,
});

/** The REST endpoints of vendor_b's mirror (spec: Vendor drop-ins, vendor_b); it has no socket. */
const ENDPOINTS = [
  exactly('POST', VENDOR_B_SPEECH_PATH),
  exactly('POST', VENDOR_B_STREAM_PATH),
  exactly('GET', VENDOR_B_VOICES_PATH),
];

/** How the stream is read (server-sent events), and how it is stored. */
const STREAM: SseRules = {
  /**
   * What one event of the stream is: `chunk` a part, `done` the final event, `error` (the vendor's report of a
   * take that failed after the 200) and a chunk without its audio an error; anything else a part.
   */
  event(event) {
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
  },
  /** The spec's one replay difference: a `chunk` event without `step_time` (the vendor's compute time then). */
  stored(event) {
    const data = sseEventObject(event);
    if (!data || readVendorBStreamEvent(event.event, data).kind !== 'audio' || !('step_time' in data)) {
      return event;
    }
    const { step_time: _computeTime, ...kept } = data;
    return { event: event.event, data: JSON.stringify(kept) };
  },
};

/** What the one-shot clip is checked against: the codec and rate asked for (`null` as left out), the text. */
const clipAudio = textBodyAudio(vendorB, 'text', (body) => {
  const codec = body['codec'] ?? VENDOR_B_DEFAULTS.codec;
  const rate = body['sample_rate'] ?? VENDOR_B_DEFAULTS.sampleRate;
  return isVendorBCodec(codec) && typeof rate === 'number' ? layoutOfFormat(codec, rate) : undefined;
});

/**
 * How a 2xx answer of vendor_b is read. The stream is server-sent events, whole at its `done` with no `error`
 * event before it, stored without each chunk's `step_time`; the one-shot clip is audio, whole once it is whole
 * audio of the codec asked for as long as its text needs (`audioAnswer`), stored as it came.
 */
export function vendorBAnswerReading(request: DropInRequest): AnswerReading {
  if (request.path !== VENDOR_B_STREAM_PATH) return audioAnswer(clipAudio(request));
  return sseAnswer(STREAM);
}

/**
 * A keyed request's model and voice: its body's `model` and `voice_id`. A model left out is the voice's own,
 * which only the vendor's list knows: ''.
 */
export const vendorBRequestLabels: DropInWire['labels'] = ({ body }) => ({
  model: labelAt(body, 'model'),
  voice: labelAt(body, 'voice_id'),
});

/** vendor_b's drop-in REST/SSE wire for whole-request takes. */
export const vendorBDropIn: DropInWire = {
  endpoints: ENDPOINTS,
  keying: vendorBRequestKeying,
  labels: vendorBRequestLabels,
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
