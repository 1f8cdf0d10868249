import type {
  AnswerReading,
  BodyFields,
  DropInKeying,
  DropInRequest,
  DropInWire,
  FrameKind,
  JsonValue,
  SseEvent,
} from '@router/vendors-core';
import {
  audioAnswer,
  canonicalRequest,
  flagIsSet,
  jsonObjectBody,
  labelAt,
  layoutOfFormat,
  LIVE,
  sseAnswer,
  sseEventObject,
  textBodyAudio,
} from '@router/vendors-core';
import {
  VENDOR_I_VERSION_HEADER,
  VENDOR_I_VERSION_QUERY,
  vendorIAccess,
  vendorIRelease,
  vendorIRequestedVersion,
} from './vendor-i.access';
import { vendorI } from '../vendor-i.definition';
import { readVendorIEvent } from './vendor-i.events';
import { readVendorIOutputFormat } from './vendor-i.formats';
import { VENDOR_I_BYTES_PATH, VENDOR_I_SSE_PATH, vendorIVoiceId } from './vendor-i.requests';

/*
 * vendor_i's drop-in wire (`vendorIDropIn`): its REST endpoints, a request's cache identity (its body as the
 * vendor reads it, and the release its version names), the headers that matter and how an answer is read and
 * stored (spec: Vendor drop-ins, vendor_i).
 */

/**
 * How the vendor reads a synthesis body (`parseVendorIRequest`), for the key: the voice in any of its three
 * spellings (`{mode:'id', id}`, `{id}`, the bare id) is the id it names; `add_timestamps` left out is false.
 * Everything else is kept verbatim: the text, `pronunciation_dict_id` (keyed by the dictionary's id, as the spec
 * says: its content is the vendor's), `generation_config`, the older `speed` and any field the router does not
 * know. A null the vendor refuses, so none is read as left out.
 */
const SYNTHESIS: BodyFields = {
  voice: { read: (voice) => vendorIVoiceId(voice) ?? voice },
  add_timestamps: { default: false },
};

/** The request fields that never change an answer: a stream's `context_id` only labels its events. */
const UNKEYED_FIELDS: readonly string[] = ['context_id'];

const isSynthesis = (request: DropInRequest): boolean =>
  request.method === 'POST' && (request.path === VENDOR_I_BYTES_PATH || request.path === VENDOR_I_SSE_PATH);

/**
 * A vendor_i drop-in request's cache identity. Both synthesis endpoints are cached whole, keyed as the vendor
 * reads their body (`SYNTHESIS`, without `context_id`: a replay is the same whatever the stream's label) and by
 * the release the request's version names, in the header or the query alike (`vendorIRelease`: dates between
 * two releases answer alike). Never cached: the voice reads, a request without a version the vendor serves
 * (its 400), a body the vendor refuses for its shape (not a JSON object, no transcript), and `save: true`,
 * which stores a file at the vendor each time.
 */
export function vendorIRequestKeying(request: DropInRequest): DropInKeying {
  if (!isSynthesis(request)) return LIVE;
  const query = new URLSearchParams(request.query);
  const release = vendorIRelease(vendorIRequestedVersion({ headers: request.headers, query }));
  const body = jsonObjectBody(request);
  const transcript = body?.['transcript'];
  if (!release || !body || typeof transcript !== 'string' || flagIsSet(body['save'])) return LIVE;
  const keyed: Record<string, JsonValue> = { ...body };
  for (const field of UNKEYED_FIELDS) delete keyed[field];
  query.delete(VENDOR_I_VERSION_QUERY);
  const canonical = canonicalRequest({ ...request, query: query.toString() }, { body: SYNTHESIS }, keyed);
  return {
    cacheable: true,
    canonical: { ...canonical, query: { ...canonical.query, [VENDOR_I_VERSION_QUERY]: [release] } },
    stored: [],
    chars: [...transcript].length,
    text: transcript,
  };
}

/** The REST endpoints of vendor_i's mirror (spec: Vendor drop-ins, vendor_i); its socket is apart. */
const ENDPOINTS = [
  { method: 'POST', path: /^\/tts\/bytes$/ },
  { method: 'POST', path: /^\/tts\/sse$/ },
  { method: 'GET', path: /^\/voices$/ },
  { method: 'GET', path: /^\/voices\/[^/]+$/ },
];

/**
 * What one event of the stream is: `done` the final event; `error` (the vendor's report of a take that failed
 * after the 200), a chunk without audio and data that is not a JSON object errors; `chunk`, `timestamps` and
 * any other event parts (word timings are stored with the audio).
 */
function streamFrame(event: SseEvent): FrameKind {
  const data = sseEventObject(event);
  if (!data) return 'error';
  switch (readVendorIEvent(event.event, data).kind) {
    case 'done':
      return 'final';
    case 'error':
    case 'malformed':
      return 'error';
    default:
      return 'part';
  }
}

/** An event as stored: without the `context_id` of the request that made it, so a replay is the same for any. */
function storedStreamEvent(event: SseEvent): SseEvent {
  const data = sseEventObject(event);
  if (!data || !UNKEYED_FIELDS.some((field) => field in data)) return event;
  const kept = Object.fromEntries(Object.entries(data).filter(([field]) => !UNKEYED_FIELDS.includes(field)));
  return { event: event.event, data: JSON.stringify(kept) };
}

/** What `/tts/bytes` audio is checked against: the `output_format` as the vendor reads it, and the transcript. */
const bytesAudio = textBodyAudio(vendorI, 'transcript', (body) => {
  const encoding = readVendorIOutputFormat(body['output_format'], false);
  return 'codec' in encoding ? layoutOfFormat(encoding.codec, encoding.sampleRate) : undefined;
});

/**
 * How a 2xx answer of vendor_i is read: the stream is server-sent events, whole at its `done` with no `error`
 * before it, stored without `context_id`; `/tts/bytes` is audio, whole once it is whole audio of the format
 * asked for as long as its transcript needs (`audioAnswer`), stored as it came.
 */
export function vendorIAnswerReading(request: DropInRequest): AnswerReading {
  if (request.path === VENDOR_I_SSE_PATH) return sseAnswer({ event: streamFrame, stored: storedStreamEvent });
  return audioAnswer(bytesAudio(request));
}

/** Response headers true of one answer only: the vendor's request id, a 429's advice, a saved file's id. */
const LIVE_HEADERS = ['x-request-id', 'retry-after', 'vendor_i-file-id'];

/** A request that names no version (its refusals are the oldest shape, plain text). */
const NO_VERSION = { method: 'POST', path: '/', headers: {}, query: new URLSearchParams() };

/** A keyed request's model and voice: its body's `model_id`, and `voice` as its id (every version's form read). */
export const vendorIRequestLabels: DropInWire['labels'] = ({ body }) => ({
  model: labelAt(body, 'model_id'),
  voice: labelAt(body, 'voice'),
});

/** vendor_i's drop-in REST/SSE wire for whole-request takes. */
export const vendorIDropIn: DropInWire = {
  endpoints: ENDPOINTS,
  keying: vendorIRequestKeying,
  labels: vendorIRequestLabels,
  headers: {
    keyed: [],
    // The version goes on as sent; its key is the release it names, in the canonical query.
    sent: [VENDOR_I_VERSION_HEADER],
    passed: ['content-type', ...LIVE_HEADERS],
    liveOnly: LIVE_HEADERS,
  },
  readAnswer: vendorIAnswerReading,
  // The vendor's 400 for a body it cannot read, JSON or text by the request's version.
  invalidBody: ({ message }, request = NO_VERSION) => vendorIAccess.fail(400, message, request),
};
