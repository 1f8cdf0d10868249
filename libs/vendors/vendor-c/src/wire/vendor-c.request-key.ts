import {
  type AnswerReading,
  decodePathSegment,
  type DropInEndpoint,
  type DropInKeying,
  type DropInRequest,
  type DropInWire,
  jsonDocumentAnswer,
  jsonLinesAnswer,
  jsonReply,
  type JsonValue,
  wholeBodyAnswer,
} from '@router/vendors-core';
import { schemaIssuesBody } from './vendor-c.errors';
import { isTimestampedChunk } from './vendor-c.responses';
import { vendorCStoredReferencesOf } from '../vendor-c.stored-settings';
import { DEFAULT_OUTPUT_FORMAT } from './vendor-c.formats';
import { DEFAULT_DIALOGUE_MODEL, DEFAULT_MODEL } from './vendor-c.models';
import { isObject } from './vendor-c.schema';

/**
 * The synthesis endpoints cached whole (spec: vendor_c drop-in); every other path is proxied live. Groups: the
 * voice, `/stream`, `/with-timestamps`.
 */
const TEXT_TO_SPEECH = /^\/v1\/text-to-speech\/([^/]+)(\/stream)?(\/with-timestamps)?$/;
const TEXT_TO_DIALOGUE = '/v1/text-to-dialogue/stream';

/** Query parameters the vendor reads with a default: sending the default is leaving it out. */
const QUERY_DEFAULTS: Readonly<Record<string, string>> = {
  output_format: DEFAULT_OUTPUT_FORMAT,
  enable_logging: 'true',
};

/** Body fields whose `null` the vendor reads as "left out" (its default, or the voice's stored settings). */
const NULL_IS_ABSENT: ReadonlySet<string> = new Set([
  'voice_settings',
  'settings',
  'language_code',
  'seed',
  'pronunciation_dictionary_locators',
  'previous_text',
  'next_text',
  'previous_request_ids',
  'next_request_ids',
  'apply_language_text_normalization',
]);

/** Body fields with a default of their own, filled in (besides `model_id`). */
const BODY_DEFAULTS: Readonly<Record<string, JsonValue>> = { apply_text_normalization: 'auto' };

const LIVE: DropInKeying = Object.freeze({ cacheable: false });

/*
 * vendor_c's drop-in wire (`vendorCDropIn`): which REST endpoints it has, a request's cache identity, the
 * headers that matter and how an answer is read and stored.
 */

/**
 * A vendor_c drop-in request's cache identity. Its synthesis endpoints are cached whole: the query with
 * `output_format` and `enable_logging` filled in, the JSON body with `model_id` and
 * `apply_text_normalization` filled in and `null` dropped where it means "left out", every other parameter
 * and field kept verbatim (the text too: the vendor reads its whitespace). A voice's stored settings (relied
 * on without `voice_settings`, `settings` on dialogue, or with partial ones) and a dictionary without a
 * version are stored at the vendor and fingerprinted. Voice lists and everything else, and a body that is not a JSON object, are never cached.
 */
export function vendorCRequestKeying(request: DropInRequest): DropInKeying {
  if (request.method !== 'POST') return LIVE;
  const speech = TEXT_TO_SPEECH.exec(request.path);
  const dialogue = request.path === TEXT_TO_DIALOGUE;
  if (!speech && !dialogue) return LIVE;
  const body = jsonObject(request.body);
  if (!body) return LIVE;
  let voices: string[];
  let chars: number;
  if (speech) {
    const voice = decodePathSegment(speech[1] ?? '');
    if (typeof body['text'] !== 'string') return LIVE;
    voices = [voice];
    chars = [...body['text']].length;
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
  // Built from entries: a `__proto__` field stays a field (assigning it would set the prototype instead).
  const fields = new Map<string, JsonValue>(Object.entries(BODY_DEFAULTS));
  fields.set('model_id', dialogue ? DEFAULT_DIALOGUE_MODEL : DEFAULT_MODEL);
  for (const [name, value] of Object.entries(body)) {
    if (value === null && NULL_IS_ABSENT.has(name)) continue;
    fields.set(name, value);
  }
  return {
    cacheable: true,
    canonical: {
      method: request.method,
      path: request.path,
      query: canonicalQuery(request.query),
      body: Object.fromEntries(fields),
    },
    stored: vendorCStoredReferencesOf(
      voices,
      dialogue ? body['settings'] : body['voice_settings'],
      body['pronunciation_dictionary_locators'],
      dialogue,
    ),
    chars,
  };
}

/** The REST endpoints of vendor_c's mirror (spec: Vendor drop-ins, vendor_c); its sockets are apart. */
const ENDPOINTS: readonly DropInEndpoint[] = [
  { method: 'POST', path: TEXT_TO_SPEECH },
  { method: 'POST', path: /^\/v1\/text-to-dialogue\/stream$/ },
  { method: 'GET', path: /^\/v[12]\/voices$/ },
  { method: 'GET', path: /^\/v1\/voices\/[^/]+\/settings$/ },
  { method: 'GET', path: /^\/v1\/shared-voices$/ },
  { method: 'POST', path: /^\/v1\/voices\/add\/[^/]+\/[^/]+$/ },
];

/**
 * How a 2xx answer of vendor_c is read. `/stream/with-timestamps` is JSON lines, with no final line of its own:
 * whole when its body ended normally on whole lines, none of them the vendor's error body (which it sends on a
 * line of its own when the take fails after the 200). `/with-timestamps` is one JSON document with the audio.
 * The audio endpoints (and the dialogue stream) are whole when their body ended normally. Nothing of an answer
 * differs in a replay.
 */
export function vendorCAnswerReading(request: DropInRequest): AnswerReading {
  const speech = request.method === 'POST' ? TEXT_TO_SPEECH.exec(request.path) : null;
  if (!speech?.[3]) return wholeBodyAnswer();
  if (speech[2])
    return jsonLinesAnswer({ line: (v) => (isTimestampedChunk(v) ? 'part' : 'error'), finalFrame: false });
  return jsonDocumentAnswer({ document: (v) => (isTimestampedChunk(v) ? 'whole' : 'error') });
}

/** vendor_c's drop-in REST/SSE wire for whole-request takes. */
export const vendorCDropIn: DropInWire = {
  endpoints: ENDPOINTS,
  keying: vendorCRequestKeying,
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

function canonicalQuery(query: string): Record<string, string[]> {
  const parameters = new Map<string, string[]>();
  for (const [name, value] of new URLSearchParams(query))
    parameters.set(name, [...(parameters.get(name) ?? []), value]);
  for (const [name, value] of Object.entries(QUERY_DEFAULTS))
    if (!parameters.has(name)) parameters.set(name, [value]);
  return Object.fromEntries(parameters);
}

type JsonObject = Record<string, JsonValue>;

function jsonObject(body: Uint8Array): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(body).toString('utf8'));
    return isObject(value) ? (value as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}
