import type {
  AnswerReading,
  BodyFieldRule,
  BodyFields,
  DropInHead,
  DropInKeying,
  DropInRequest,
  DropInWire,
  JsonValue,
  RequestShape,
  SseEvent,
} from '@router/vendors-core';
import {
  canonicalRequest,
  decodePathSegment,
  itemsAt,
  joinedLabels,
  jsonDocumentAnswer,
  jsonObjectBody,
  jsonReply,
  labelAt,
  LIVE,
  sseAnswer,
  wholeBodyAnswer,
} from '@router/vendors-core';
import { invalidArgument, vendorJErrorBody } from './vendor-j.errors';
import { VENDOR_J_API_VERSIONS, VENDOR_J_DEFAULT_VOICE, VENDOR_J_PROTO_NAMES } from './vendor-j.requests';
import { vendorJReplayed, vendorJResponseKind } from './vendor-j.responses';

/*
 * vendor_j's drop-in wire (`vendorJDropIn`): which REST endpoints it has, a request's cache identity, the
 * headers that matter and how an answer is read and stored.
 */

/** A path's API version, either of the vendor's (`VENDOR_J_API_VERSIONS`); the first group. */
const VERSION = `(${VENDOR_J_API_VERSIONS.join('|')})`;

/** The two generate calls (spec: vendor_j drop-in). Groups: the version, the model, the method. */
const GENERATE = new RegExp(`^/${VERSION}/models/([^/]+):(generateContent|streamGenerateContent)$`);

/**
 * The REST endpoints of vendor_j's mirror (spec: Vendor drop-ins, vendor_j), each under both API versions
 * (forwarded under the one the client named); it has no sockets.
 */
const ENDPOINTS = [
  { method: 'POST', path: GENERATE },
  { method: 'GET', path: new RegExp(`^/${VERSION}/voices$`) },
  { method: 'GET', path: new RegExp(`^/${VERSION}/models$`) },
  { method: 'GET', path: new RegExp(`^/${VERSION}/models/([^/:]+)$`) },
];

/**
 * A field as the vendor's parser reads it: under its JSON name or its proto name, `null` as left out (the proto
 * JSON rules; `VENDOR_J_PROTO_NAMES`).
 */
function field(name: string, rule: BodyFieldRule = {}): BodyFieldRule {
  const proto = VENDOR_J_PROTO_NAMES[name];
  return { ...rule, nullIsAbsent: true, ...(proto === undefined ? {} : { aliases: [proto] }) };
}

const VOICE_CONFIG: BodyFields = {
  prebuiltVoiceConfig: field('prebuiltVoiceConfig', { fields: { voiceName: field('voiceName') } }),
};
/** A single voice left out is the vendor's default voice. */
const DEFAULT_VOICE_CONFIG: JsonValue = { prebuiltVoiceConfig: { voiceName: VENDOR_J_DEFAULT_VOICE } };

/**
 * The speech config the vendor reads: one voice, or two speakers' voices. Without either it speaks with its
 * default voice, so a config with neither is keyed with that voice spelled out; with two speakers, no voice is
 * filled (a request naming both is one the vendor refuses).
 */
function speechConfig(speakers: boolean): BodyFieldRule {
  return field('speechConfig', {
    ...(speakers ? {} : { default: { voiceConfig: DEFAULT_VOICE_CONFIG } }),
    fields: {
      voiceConfig: field('voiceConfig', {
        ...(speakers ? {} : { default: DEFAULT_VOICE_CONFIG }),
        fields: VOICE_CONFIG,
      }),
      multiSpeakerVoiceConfig: field('multiSpeakerVoiceConfig', {
        fields: {
          speakerVoiceConfigs: field('speakerVoiceConfigs', {
            items: {
              fields: {
                speaker: field('speaker'),
                voiceConfig: field('voiceConfig', { fields: VOICE_CONFIG }),
              },
            },
          }),
        },
      }),
      languageCode: field('languageCode'),
    },
  });
}

/**
 * A content's `role` left out (or blank, a proto string's default) is the user's: a request of one content is
 * the user's turn.
 */
const ROLE: BodyFieldRule = field('role', { default: 'user', read: (v) => (v === '' ? 'user' : v) });

/**
 * How the vendor reads a generate request: its fields under either name, `null` as left out, a content's role
 * as the user's, the default voice where none is named; `alt` on `generateContent` at its default `json` (the
 * streaming call is cached only with `alt=sse`, kept as sent). Everything else (the text, the rest of the
 * generation config, instructions of the system's) is kept verbatim.
 */
function generateShape(streaming: boolean, speakers: boolean): RequestShape {
  return {
    query: streaming ? {} : { alt: { default: 'json' } },
    body: {
      contents: field('contents', {
        items: { fields: { role: ROLE } },
      }),
      generationConfig: field('generationConfig', {
        fields: { responseModalities: field('responseModalities'), speechConfig: speechConfig(speakers) },
      }),
    },
  };
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value of `name` in `object` under either of its names, `null` as left out; undefined where neither. */
function sentField(object: unknown, name: string): unknown {
  if (!isObject(object)) return undefined;
  const proto = VENDOR_J_PROTO_NAMES[name];
  return object[name] ?? (proto === undefined ? undefined : object[proto]) ?? undefined;
}

/** The text of `contents` when it is one text (one content of one part, a text and nothing else), else none. */
function oneText(contents: unknown): string | undefined {
  if (!Array.isArray(contents) || contents.length !== 1) return undefined;
  const parts = sentField(contents[0], 'parts');
  if (!Array.isArray(parts) || parts.length !== 1) return undefined;
  const part: unknown = parts[0];
  if (!isObject(part) || typeof part['text'] !== 'string') return undefined;
  const others = Object.entries(part).filter(([name, value]) => name !== 'text' && value !== null);
  return others.length === 0 ? part['text'] : undefined;
}

/**
 * A vendor_j drop-in request's cache identity. Its generate calls are cached whole when `contents` is one
 * text (and the streaming call only as SSE, `alt=sse`), keyed as the vendor reads them (`generateShape`); any
 * other body, the streaming call's JSON array, the model and voice lists and a body that is not a JSON object
 * go upstream uncached (spec: vendor_j drop-in).
 */
export function vendorJRequestKeying(request: DropInRequest): DropInKeying {
  if (request.method !== 'POST') return LIVE;
  const call = GENERATE.exec(request.path);
  if (!call) return LIVE;
  const streaming = call[3] === 'streamGenerateContent';
  const alt = new URLSearchParams(request.query).getAll('alt');
  if (streaming && (alt.length !== 1 || alt[0] !== 'sse')) return LIVE;
  const body = jsonObjectBody(request);
  if (!body) return LIVE;
  const text = oneText(body['contents']);
  if (text === undefined) return LIVE;
  const speech = sentField(sentField(body, 'generationConfig'), 'speechConfig');
  const speakers = sentField(speech, 'multiSpeakerVoiceConfig') !== undefined;
  const canonical = canonicalRequest(request, generateShape(streaming, speakers), body);
  return {
    cacheable: true,
    // Both versions answer a body alike: a request under `v1` is keyed as under `v1beta` (the keys made before
    // `v1` was served), so each shares the other's entry.
    canonical: { ...canonical, path: `/v1beta/models/${call[2]}:${call[3]}` },
    stored: [],
    chars: [...text].length,
    text,
  };
}

/**
 * How a 2xx answer of a generate call is read, by its framing: server-sent events (`alt=sse`) or one JSON
 * response. Whole when it ends with `finishReason` STOP (the last event, or the response) after some audio, and
 * no event is the vendor's error; stored as a reply from the cache carries it (`vendorJReplayed`): audio parts
 * only, zero usage, no `responseId`, an event left with no audio and no finish reason left out, events written
 * with the vendor's CRLF line ends. Every other answer is read as a whole body (never cached).
 */
export function vendorJAnswerReading(request: DropInRequest, head: DropInHead): AnswerReading {
  if (request.method !== 'POST' || !GENERATE.test(request.path)) return wholeBodyAnswer();
  let audio = false;
  /** A response's kind within the answer: a STOP before any audio is no whole take. */
  const kindOf = (value: unknown): 'part' | 'final' | 'error' => {
    const response = vendorJResponseKind(value);
    audio ||= response.audio;
    return response.kind === 'final' && !audio ? 'error' : response.kind;
  };
  const replayed = (value: unknown): Record<string, unknown> =>
    vendorJReplayed(value as Readonly<Record<string, unknown>>);
  if (!(head.headers['content-type'] ?? '').startsWith('text/event-stream')) {
    return jsonDocumentAnswer({
      document: (value) => (kindOf(value) === 'final' ? 'whole' : 'error'),
      stored: (value) => replayed(value) as JsonValue,
    });
  }
  return sseAnswer({
    event: ({ data }) => kindOf(JSON.parse(data)),
    stored: (event): SseEvent | undefined => {
      const response = replayed(JSON.parse(event.data));
      const kept = vendorJResponseKind(response);
      if (!kept.audio && kept.kind === 'part') return undefined;
      return { event: event.event, data: JSON.stringify(response) };
    },
    lineEnd: '\r\n',
  });
}

/**
 * A keyed request's model and voice: the model of the path, and the prebuilt voice of `speechConfig` (its
 * default filled), or each speaker's on a multi-speaker request.
 */
export const vendorJRequestLabels: DropInWire['labels'] = ({ path, body }) => {
  const voiceOf = (config: unknown): string =>
    labelAt(config, 'voiceConfig', 'prebuiltVoiceConfig', 'voiceName');
  const speech = ['generationConfig', 'speechConfig'];
  const speakers = itemsAt(body, ...speech, 'multiSpeakerVoiceConfig', 'speakerVoiceConfigs');
  return {
    model: decodePathSegment(GENERATE.exec(path)?.[2] ?? ''),
    voice:
      speakers.length > 0
        ? joinedLabels(speakers.map(voiceOf))
        : labelAt(body, ...speech, 'voiceConfig', 'prebuiltVoiceConfig', 'voiceName'),
  };
};

/** vendor_j's drop-in REST/SSE wire for whole-request takes. */
export const vendorJDropIn: DropInWire = {
  endpoints: ENDPOINTS,
  keying: vendorJRequestKeying,
  labels: vendorJRequestLabels,
  // No request header changes the answer; the vendor's answers carry nothing a replay must leave out.
  headers: { keyed: [], passed: ['content-type'], liveOnly: [] },
  readAnswer: vendorJAnswerReading,
  // The vendor's refusal of a payload its JSON parser will not take, naming the field.
  invalidBody: ({ field: name, message }) =>
    jsonReply(
      400,
      vendorJErrorBody(
        invalidArgument(
          `Invalid JSON payload received. ${name === undefined ? '' : `Invalid value at '${name}': `}${message}`,
        ),
      ),
    ),
};
