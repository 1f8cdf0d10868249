import type {
  AnswerReading,
  AudioExpectation,
  BodyFields,
  DropInKeying,
  DropInRequest,
  DropInWire,
  QueryParameterRule,
  RequestShape,
} from '@router/vendors-core';
import {
  audioAnswer,
  canonicalRequest,
  decodePathSegment,
  expectedAudio,
  findOption,
  itemsAt,
  joinedLabels,
  jsonDocumentAnswer,
  jsonLinesAnswer,
  jsonObjectBody,
  jsonReply,
  labelAt,
  layoutOfFormat,
  LIVE,
  NULL_IS_ABSENT,
  optionFieldRule,
} from '@router/vendors-core';
import { vendorC } from '../vendor-c.definition';
import { schemaIssuesBody } from './vendor-c.errors';
import { isTimestampedChunk } from './vendor-c.responses';
import { vendorCStoredReferencesOf } from '../vendor-c.stored-settings';
import { DEFAULT_OUTPUT_FORMAT, outputFormat } from './vendor-c.formats';
import { DEFAULT_DIALOGUE_MODEL, DEFAULT_MODEL } from './vendor-c.models';
import { STREAMING_LATENCY } from './vendor-c.requests';
import { isObject, queryBoolean, queryInteger } from './vendor-c.schema';

/**
 * The synthesis endpoints cached whole (spec: vendor_c drop-in); every other path is proxied live. Groups: the
 * voice, `/stream`, `/with-timestamps`.
 */
const TEXT_TO_SPEECH = /^\/v1\/text-to-speech\/([^/]+)(\/stream)?(\/with-timestamps)?$/;
const TEXT_TO_DIALOGUE = '/v1/text-to-dialogue/stream';

/** A query value as the vendor's own reader takes it (`read` gives its value, or nothing it refuses). */
function readAs(read: (query: URLSearchParams) => string | undefined): (value: string) => string {
  return (value) => read(new URLSearchParams([['value', value]])) ?? value;
}

/**
 * The query every synthesis endpoint reads, with the vendor's defaults: `output_format` and `enable_logging`
 * (its catalogue default) filled, `optimize_streaming_latency` at its default keyed as left out (it was added
 * after keys were made without it); flags and integers as the vendor reads them (`1` and `true`, `00` and `0`).
 */
const QUERY: Readonly<Record<string, QueryParameterRule>> = {
  output_format: { default: DEFAULT_OUTPUT_FORMAT },
  enable_logging: {
    default: JSON.stringify(findOption(vendorC, 'enable_logging')?.default),
    read: readAs((query) => {
      const flag = queryBoolean(query, 'value', false);
      return flag.issues.length === 0 ? String(flag.value) : undefined;
    }),
  },
  optimize_streaming_latency: {
    default: String(STREAMING_LATENCY.default),
    keyDefault: 'omitted',
    read: readAs((query) => {
      const level = queryInteger(query, 'value', undefined, STREAMING_LATENCY.min, STREAMING_LATENCY.max);
      return level.issues.length === 0 ? String(level.value) : undefined;
    }),
  },
};

const VOICE_SETTINGS = optionFieldRule(vendorC, 'voice_settings');

/**
 * The body fields every synthesis endpoint reads alike. Those that are router options read as the catalogue
 * says (defaults, `null` as left out, voice settings with every field left out as the voice's stored ones,
 * under `settings` on dialogue); the others' `null` is left out, as the vendor reads it.
 */
const BODY: BodyFields = {
  voice_settings: VOICE_SETTINGS,
  settings: VOICE_SETTINGS,
  apply_text_normalization: optionFieldRule(vendorC, 'apply_text_normalization'),
  apply_language_text_normalization: optionFieldRule(vendorC, 'apply_language_text_normalization'),
  pronunciation_dictionary_locators: optionFieldRule(vendorC, 'pronunciation_dictionary_locators'),
  language_code: NULL_IS_ABSENT,
  seed: NULL_IS_ABSENT,
  previous_text: NULL_IS_ABSENT,
  next_text: NULL_IS_ABSENT,
  previous_request_ids: NULL_IS_ABSENT,
  next_request_ids: NULL_IS_ABSENT,
};

const SPEECH: RequestShape = { query: QUERY, body: { ...BODY, model_id: { default: DEFAULT_MODEL } } };
const DIALOGUE: RequestShape = {
  query: QUERY,
  body: { ...BODY, model_id: { default: DEFAULT_DIALOGUE_MODEL } },
};

/*
 * vendor_c's drop-in wire (`vendorCDropIn`): which REST endpoints it has, a request's cache identity, the
 * headers that matter and how an answer is read and stored.
 */

/**
 * A vendor_c drop-in request's cache identity. Its synthesis endpoints are cached whole, keyed as the vendor
 * reads them (`SPEECH`, `DIALOGUE`): defaults filled, `null` and empty voice settings as left out, the flag and
 * integer spellings it reads alike as one; every other parameter and field kept verbatim (the text too: the
 * vendor reads its whitespace). A voice's stored settings (relied on without `voice_settings`, `settings` on
 * dialogue, or with partial ones) and a dictionary without a version are stored at the vendor and
 * fingerprinted. Voice lists and everything else, and a body that is not a JSON object, are never cached.
 */
export function vendorCRequestKeying(request: DropInRequest): DropInKeying {
  if (request.method !== 'POST') return LIVE;
  const speech = TEXT_TO_SPEECH.exec(request.path);
  const dialogue = request.path === TEXT_TO_DIALOGUE;
  if (!speech && !dialogue) return LIVE;
  const body = jsonObjectBody(request);
  if (!body) return LIVE;
  let voices: string[];
  let chars: number;
  let text: string | undefined;
  if (speech) {
    const voice = decodePathSegment(speech[1] ?? '');
    if (typeof body['text'] !== 'string') return LIVE;
    voices = [voice];
    text = body['text'];
    chars = [...text].length;
  } else {
    const inputs = body['inputs'];
    if (!Array.isArray(inputs)) return LIVE;
    voices = [];
    chars = 0;
    for (const input of inputs as unknown[]) {
      if (!isObject(input)) return LIVE;
      const { voice_id: voice, text } = input;
      if (typeof voice !== 'string' || typeof text !== 'string') return LIVE;
      voices.push(voice);
      chars += [...text].length;
    }
  }
  return {
    cacheable: true,
    canonical: canonicalRequest(request, dialogue ? DIALOGUE : SPEECH, body),
    stored: vendorCStoredReferencesOf(
      voices,
      dialogue ? body['settings'] : body['voice_settings'],
      body['pronunciation_dictionary_locators'],
      dialogue,
    ),
    chars,
    // A dialogue's lines are no one sentence: it is evicted with the org's whole cache, not by sentence.
    ...(text === undefined ? {} : { text }),
  };
}

/** The REST endpoints of vendor_c's mirror (spec: Vendor drop-ins, vendor_c); its sockets are apart. */
const ENDPOINTS = [
  { method: 'POST', path: TEXT_TO_SPEECH },
  { method: 'POST', path: /^\/v1\/text-to-dialogue\/stream$/ },
  { method: 'GET', path: /^\/v[12]\/voices$/ },
  { method: 'GET', path: /^\/v1\/voices\/[^/]+\/settings$/ },
  { method: 'GET', path: /^\/v1\/shared-voices$/ },
  { method: 'POST', path: /^\/v1\/voices\/add\/[^/]+\/[^/]+$/ },
];

/**
 * What an answer's audio is checked against: the `output_format` asked for (the vendor's default where none is)
 * and the text spoken (every input's, on dialogue). Undefined for a request the vendor cannot read.
 */
function answerAudio(request: DropInRequest): AudioExpectation | undefined {
  const body = jsonObjectBody(request);
  if (!body) return undefined;
  const token = new URLSearchParams(request.query).get('output_format') ?? DEFAULT_OUTPUT_FORMAT;
  const audio = outputFormat(token);
  const inputs = body['inputs'];
  const text =
    typeof body['text'] === 'string'
      ? body['text']
      : Array.isArray(inputs)
        ? inputs
            .map((input: unknown) =>
              isObject(input) && typeof input['text'] === 'string' ? input['text'] : '',
            )
            .join(' ')
        : undefined;
  if (!audio || text === undefined) return undefined;
  return expectedAudio(vendorC, layoutOfFormat(audio.codec, audio.sampleRate), text);
}

/** A timestamped line's audio (base64), where it has some. */
const lineAudio = (value: unknown): string | undefined => {
  const audio = isObject(value) ? value['audio_base64'] : undefined;
  return typeof audio === 'string' ? audio : undefined;
};

/**
 * How a 2xx answer of vendor_c is read. `/stream/with-timestamps` is JSON lines, with no final line of its own:
 * whole when its body ended normally on whole lines, none of them the vendor's error body (which it sends on a
 * line of its own when the take fails after the 200), and their audio is whole and as long as the text needs.
 * `/with-timestamps` is one JSON document with the audio. The audio endpoints (and the dialogue stream) are
 * whole once their audio is whole in the format asked for and as long as the text needs (`audioAnswer`).
 * Nothing of an answer differs in a replay.
 */
export function vendorCAnswerReading(request: DropInRequest): AnswerReading {
  const speech = request.method === 'POST' ? TEXT_TO_SPEECH.exec(request.path) : null;
  const expected = answerAudio(request);
  if (!speech?.[3]) return audioAnswer(expected);
  if (speech[2]) {
    return jsonLinesAnswer({
      line: (v) => (isTimestampedChunk(v) ? 'part' : 'error'),
      finalFrame: false,
      ...(expected ? { audio: { of: lineAudio, expected } } : {}),
    });
  }
  return jsonDocumentAnswer({ document: (v) => (isTimestampedChunk(v) ? 'whole' : 'error') });
}

/**
 * A keyed request's model and voice: the body's `model_id` (its default filled) and the voice of the path, or
 * on dialogue every input's `voice_id`.
 */
export const vendorCRequestLabels: DropInWire['labels'] = ({ path, body }) => {
  const speech = TEXT_TO_SPEECH.exec(path);
  return {
    model: labelAt(body, 'model_id'),
    voice: speech
      ? decodePathSegment(speech[1] ?? '')
      : joinedLabels(itemsAt(body, 'inputs').map((input) => labelAt(input, 'voice_id'))),
  };
};

/** vendor_c's drop-in REST/SSE wire for whole-request takes. */
export const vendorCDropIn: DropInWire = {
  endpoints: ENDPOINTS,
  keying: vendorCRequestKeying,
  labels: vendorCRequestLabels,
  headers: {
    keyed: [],
    // `request-id` names the generation whose audio it is, which a client may chain (`previous_request_ids`):
    // replayed with it. `x-character-count` is what the vendor billed for it, which a replay was not.
    passed: ['content-type', 'request-id', 'x-character-count'],
    liveOnly: ['x-character-count'],
  },
  readAnswer: vendorCAnswerReading,
  // The vendor's schema error (422, a pydantic-style list) at the field.
  invalidBody: ({ field, message }) =>
    jsonReply(
      422,
      schemaIssuesBody([
        { loc: field === undefined ? ['body'] : ['body', field], msg: message, type: 'value_error' },
      ]),
    ),
};
