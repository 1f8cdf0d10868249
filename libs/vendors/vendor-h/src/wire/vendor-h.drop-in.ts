import type { DropInWire, FrameKind, RequestShape, SseEvent } from '@router/vendors-core';
import {
  eventsOrAudioAnswer,
  filled,
  jsonReply,
  labelAt,
  layoutOfFormat,
  textBodyAudio,
  textBodyKeying,
} from '@router/vendors-core';
import { vendorH } from '../vendor-h.definition';
import { vendorHErrorBody } from './vendor-h.errors';
import { isVendorHFormat } from './vendor-h.formats';
import {
  hasVendorHSpeech,
  VENDOR_H_DEFAULTS,
  VENDOR_H_SPEECH_PATH,
  VENDOR_H_STREAM_PATH,
  vendorHDefaultFormat,
} from './vendor-h.requests';
import { readVendorHStreamEvent } from './vendor-h.stream';

/*
 * vendor_h's drop-in wire (`vendorHDropIn`): its REST endpoints, a request's cache identity, the headers that
 * matter and how an answer is read (spec: Vendor drop-ins, vendor_h; Events, vendor_h SSE).
 */

/**
 * How the vendor reads a synthesis body (`parseVendorHRequest`), for the key: the fields it fills when they are
 * left out or null, filled with its defaults; `output_format` left out is WAV on a request that accepts
 * `audio/wav`, so its default follows the request's `Accept`. A number sent as a string is refused, so no
 * spelling is read alike. Everything else is kept verbatim: the text, the voice, `pronunciation_dicts` (keyed by
 * the dictionaries' ids, as the spec says: their content is the vendor's), `session_id` and `request_id` (the
 * vendor echoes them in its answer's headers), `number_pronunciation_language` and any field the router does not
 * know.
 */
function synthesisShape(accept: string | undefined): RequestShape {
  return {
    body: {
      model: filled(VENDOR_H_DEFAULTS.model),
      language: filled(VENDOR_H_DEFAULTS.language),
      sample_rate: filled(VENDOR_H_DEFAULTS.sampleRate),
      speed: filled(VENDOR_H_DEFAULTS.speed),
      output_format: filled(vendorHDefaultFormat(accept)),
      word_timestamps: filled(VENDOR_H_DEFAULTS.wordTimestamps),
    },
  };
}

/**
 * A vendor_h drop-in request's cache identity: both synthesis endpoints are cached whole, keyed as the vendor
 * reads their body (`synthesisShape`). The voice lists, a body the vendor refuses for its shape (not a JSON
 * object, no text) and text with no letter or digit (the vendor answers it without audio: nothing to keep) are
 * never cached.
 */
export const vendorHRequestKeying = textBodyKeying({
  paths: [VENDOR_H_SPEECH_PATH, VENDOR_H_STREAM_PATH],
  text: 'text',
  cacheable: hasVendorHSpeech,
  shape: (request) => synthesisShape(request.headers['accept']),
});

/** The REST endpoints of vendor_h's mirror (spec: Vendor drop-ins, vendor_h); its socket is apart. */
const ENDPOINTS = [
  { method: 'POST', path: /^\/waves\/v1\/tts$/ },
  { method: 'POST', path: /^\/waves\/v1\/tts\/live$/ },
  // Each model's voice list; a model the vendor lacks is its own 404 to give.
  { method: 'GET', path: /^\/waves\/v1\/([^/]+)\/get_voices$/ },
  { method: 'GET', path: /^\/waves\/v1\/voice-cloning$/ },
];

/**
 * What one event of the stream is: audio a part, `{"done": true}` the final event, and an error event (the
 * vendor's report of a take that failed after the 200), an event that is not a JSON object or one with neither
 * audio nor done an error, as the adapter reads them.
 */
function streamFrame(event: SseEvent): FrameKind {
  const data: unknown = JSON.parse(event.data);
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return 'error';
  switch (readVendorHStreamEvent(event.event, data as Record<string, unknown>).kind) {
    case 'audio':
      return 'part';
    case 'done':
      return 'final';
    case 'error':
    case 'malformed':
      return 'error';
  }
}

/** What an audio answer is checked against: `output_format` and `sample_rate` as the vendor reads them. */
const answerAudio = textBodyAudio(vendorH, 'text', (body, request) => {
  const format = body['output_format'] ?? vendorHDefaultFormat(request.headers['accept']);
  const rate = body['sample_rate'] ?? VENDOR_H_DEFAULTS.sampleRate;
  return isVendorHFormat(format) && typeof rate === 'number' ? layoutOfFormat(format, rate) : undefined;
});

/**
 * How a 2xx answer of vendor_h is read, by its content type: an event stream is whole at its done event with no
 * error event before it and not cut inside an event, and is stored as it came (the spec lists no replay
 * difference: each event keeps the `request_id` of the vendor's request whose audio it is); audio is checked
 * against `answerAudio`.
 */
export const vendorHAnswerReading = eventsOrAudioAnswer({ event: streamFrame }, answerAudio);

/** The response headers the vendor sends beside the audio's type and the correlation ids it echoes. */
const LIVE_HEADERS = ['x-request-id', 'retry-after'];

/** A keyed request's model and voice: its body's `model` (its default filled) and `voice_id`. */
export const vendorHRequestLabels: DropInWire['labels'] = ({ body }) => ({
  model: labelAt(body, 'model'),
  voice: labelAt(body, 'voice_id'),
});

/** vendor_h's drop-in REST/SSE wire for whole-request takes. */
export const vendorHDropIn: DropInWire = {
  endpoints: ENDPOINTS,
  keying: vendorHRequestKeying,
  labels: vendorHRequestLabels,
  headers: {
    keyed: [],
    // The echoed `session_id` and `request_id` of the body, which is keyed whole: a replay echoes the same
    // ones. `x-request-id` names the vendor's request, which a replay did not make; a 429's `retry-after` is
    // advice for one refusal.
    passed: ['content-type', 'x-external-session-id', 'x-external-request-id', ...LIVE_HEADERS],
    liveOnly: LIVE_HEADERS,
  },
  readAnswer: vendorHAnswerReading,
  // The vendor's own 400 for a body it cannot read.
  invalidBody: ({ message }) => jsonReply(400, vendorHErrorBody({ status: 400, message })),
};
