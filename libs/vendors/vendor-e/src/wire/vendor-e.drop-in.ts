import type { DropInWire, QueryParameterRule, RequestShape } from '@router/vendors-core';
import {
  exactly,
  flagSpelling,
  jsonReply,
  layoutOfFormat,
  numberQueryValue,
  queryLabel,
  textBodyAnswer,
  textBodyKeying,
} from '@router/vendors-core';
import { badQuery, vendorEErrorBody } from './vendor-e.errors';
import { vendorE } from '../vendor-e.definition';
import {
  readVendorERestEncoding,
  VENDOR_E_DEFAULT_ENCODING,
  vendorEEncodingDefaults,
} from './vendor-e.formats';
import { VENDOR_E_DEFAULT_V1_MODEL, vendorEVoiceModelParts } from './vendor-e.requests';
import { VENDOR_E_MODEL_LISTS } from './vendor-e.voices';

/*
 * vendor_e's drop-in wire (`vendorEDropIn`): its REST endpoints (spec: Vendor drop-ins, vendor_e), a request's
 * cache identity, the headers that matter and how an answer is read.
 */

export const VENDOR_E_SPEAK_PATHS = { v1: '/v1/speak', v2: '/v2/speak' } as const;

const numeric = (value?: string): QueryParameterRule => ({
  ...(value === undefined ? {} : { default: value }),
  read: numberQueryValue,
});

/**
 * How the vendor reads a speak call's query (`parseVendorESpeak`), for the key: what it fills for a parameter
 * left out, filled (`model` on `/v1/speak` only: `/v2/speak` requires one; the container, rate and mp3 bit
 * rate of the encoding asked for), numbers in any decimal spelling alike, `mip_opt_out` and speed at their
 * defaults, `mip_opt_out` in any spelling of a boolean alike. Everything else (the text, `tag`, a parameter the router does not know) is kept verbatim.
 */
function speakShape(path: string, query: URLSearchParams): RequestShape {
  const encoding = query.get('encoding') ?? VENDOR_E_DEFAULT_ENCODING;
  const defaults = vendorEEncodingDefaults(encoding);
  return {
    query: {
      ...(path === VENDOR_E_SPEAK_PATHS.v1 ? { model: { default: VENDOR_E_DEFAULT_V1_MODEL } } : {}),
      encoding: { default: VENDOR_E_DEFAULT_ENCODING },
      ...(defaults
        ? {
            container: { default: defaults.container },
            sample_rate: numeric(String(defaults.sampleRate)),
            bit_rate: numeric(defaults.bitRate === undefined ? undefined : String(defaults.bitRate)),
          }
        : {}),
      speed: numeric('1'),
      mip_opt_out: { default: 'false', read: flagSpelling },
    },
  };
}

/**
 * A vendor_e drop-in request's cache identity: a speak call with a JSON object body whose `text` is text is
 * cached whole, keyed as the vendor reads its query (`speakShape`) and body. The model lists, a body the vendor
 * refuses for its shape, and a call with a `callback` (the vendor answers `202 {request_id}` and delivers the
 * audio later, to the client's own address) go on live.
 */
export const vendorERequestKeying = textBodyKeying({
  paths: Object.values(VENDOR_E_SPEAK_PATHS),
  text: 'text',
  cacheable: (_text, _body, request) => !new URLSearchParams(request.query).has('callback'),
  shape: (request) => speakShape(request.path, new URLSearchParams(request.query)),
});

/** The REST endpoints of vendor_e's mirror (spec: Vendor drop-ins, vendor_e); its sockets share the speak paths. */
const ENDPOINTS = [
  exactly('POST', VENDOR_E_SPEAK_PATHS.v1),
  exactly('POST', VENDOR_E_SPEAK_PATHS.v2),
  exactly('GET', VENDOR_E_MODEL_LISTS.v1),
  exactly('GET', VENDOR_E_MODEL_LISTS.v2),
];

/**
 * How a 2xx answer of vendor_e is read: audio in the encoding asked for (streamed on `/v1/speak`, one body on
 * `/v2/speak`), whole once it is whole audio of that encoding as long as its text needs (`audioAnswer`);
 * stored as it came.
 * The audio is checked against the query's encoding as the vendor reads it, and the text.
 */
export const vendorEAnswerReading = textBodyAnswer(vendorE, 'text', (_body, request) => {
  const encoding = readVendorERestEncoding(new URLSearchParams(request.query));
  return encoding.ok ? layoutOfFormat(encoding.spec.codec, encoding.spec.sampleRate) : undefined;
});

/** The header in which the vendor's clients send their own session id. */
export const VENDOR_E_SESSION_HEADER = 'vendor_e-session-id';

/** The vendor's headers about one request of its own: passed on live, never replayed (spec). */
const LIVE_HEADERS = [
  'vendor_e-request-id',
  'vendor_e-model-name',
  'vendor_e-model-uuid',
  'vendor_e-char-count',
  'retry-after',
];

/**
 * A keyed request's model and voice: the query's voice model (`/v1/speak`'s default filled) read as the router's
 * model family and voice (`e_model_1` and `orla-en`); a name of no known family is all model.
 */
export const vendorERequestLabels: DropInWire['labels'] = ({ query }) => {
  const name = queryLabel(query, 'model');
  return vendorEVoiceModelParts(name) ?? { model: name, voice: '' };
};

/** vendor_e's drop-in REST wire for whole-request takes. */
export const vendorEDropIn: DropInWire = {
  endpoints: ENDPOINTS,
  keying: vendorERequestKeying,
  labels: vendorERequestLabels,
  headers: {
    keyed: [],
    // The session id the vendor's clients send with each request: the vendor's to read, the same audio.
    sent: [VENDOR_E_SESSION_HEADER],
    // A cached reply carries only `Content-Type` (spec).
    passed: ['content-type', ...LIVE_HEADERS],
    liveOnly: LIVE_HEADERS,
  },
  readAnswer: vendorEAnswerReading,
  // The vendor's own 400 for a body it cannot read.
  invalidBody: ({ message }) => jsonReply(400, vendorEErrorBody(badQuery(message, 'INVALID_REQUEST_BODY'))),
};
