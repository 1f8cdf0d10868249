import type {
  AnswerReading,
  DropInHead,
  DropInKeying,
  DropInRequest,
  DropInWire,
  JsonValue,
} from '@router/vendors-core';
import {
  audioAnswer,
  canonicalRequest,
  findOption,
  jsonDocumentAnswer,
  jsonObjectBody,
  jsonReply,
  labelAt,
  layoutOfFormat,
  LIVE,
  NOT_WHOLE,
  textBodyAudio,
} from '@router/vendors-core';
import { vendorA } from '../vendor-a.definition';
import { vendorADictionaryReferences } from '../vendor-a.stored-settings';
import { VENDOR_A_WARNING_HEADER, vendorAErrorBody } from './vendor-a.errors';
import {
  hasSpeakableText,
  parseVendorASettings,
  VENDOR_A_SETTING_FIELDS,
  type VendorASettings,
} from './vendor-a.requests';

/*
 * vendor_a's drop-in wire (`vendorADropIn`): its two REST endpoints, a request's cache identity, the headers
 * that matter and how an answer is read (spec: Vendor drop-ins, vendor_a).
 */

export const VENDOR_A_SPEECH_PATH = '/text-to-speech';
export const VENDOR_A_STREAM_PATH = '/text-to-speech/stream';

/** The vendor's default of a voice option, as the catalogue gives it (the vendor's own). */
const optionDefault = (name: string): JsonValue => findOption(vendorA, name)?.default ?? null;

/**
 * The settings as the vendor read them, each spelled once: its defaults filled (the model's own speaker and
 * rate), `language_code` read as `target_language_code`, numbers sent as strings read as numbers, nulls as left
 * out, `pitch` and `loudness` left out for a_model_1 (which ignores them), `dict_id` by its name.
 */
function readSettings(settings: VendorASettings): Record<string, JsonValue> {
  const a2 = settings.model === 'a_model_2';
  return {
    model: settings.model,
    target_language_code: settings.language,
    speaker: settings.speaker,
    pace: settings.pace,
    speech_sample_rate: settings.spec.sampleRate,
    output_audio_codec: settings.codecName,
    output_audio_bitrate: settings.bitrate,
    min_buffer_size: settings.minBufferSize,
    max_chunk_length: settings.maxChunkLength,
    temperature: settings.temperature ?? optionDefault('temperature'),
    ...(a2 ? { pitch: settings.pitch ?? optionDefault('pitch') } : {}),
    ...(a2 ? { loudness: settings.loudness ?? optionDefault('loudness') } : {}),
    enable_preprocessing: settings.enablePreprocessing ?? optionDefault('enable_preprocessing'),
    ...(settings.dictId === undefined ? {} : { dict_id: settings.dictId }),
  };
}

/**
 * A vendor_a drop-in request's cache identity: both synthesis endpoints are cached whole, keyed as the vendor
 * reads their body (`readSettings`; the text and unknown fields verbatim). A body the vendor refuses (not a
 * JSON object, no text, text with no letter or digit, settings it does not take) goes on uncached: its refusal
 * is never stored. A `dict_id` names a dictionary the router reads once before the answer is cached.
 */
export function vendorARequestKeying(request: DropInRequest): DropInKeying {
  const endpoint = request.path === VENDOR_A_SPEECH_PATH ? 'rest' : 'stream';
  if (request.method !== 'POST' || !(endpoint === 'rest' || request.path === VENDOR_A_STREAM_PATH))
    return LIVE;
  const body = jsonObjectBody(request);
  const text = body?.['text'];
  if (!body || typeof text !== 'string' || !hasSpeakableText(text)) return LIVE;
  const parsed = parseVendorASettings(body, endpoint);
  if (!parsed.ok) return LIVE;
  const unread = Object.entries(body).filter(
    ([name]) => name !== 'text' && !VENDOR_A_SETTING_FIELDS.has(name),
  );
  return {
    cacheable: true,
    canonical: canonicalRequest(
      request,
      {},
      { ...Object.fromEntries(unread), text, ...readSettings(parsed.settings) },
    ),
    stored: vendorADictionaryReferences(parsed.settings.dictId),
    chars: [...text].length,
    text,
  };
}

const ENDPOINTS = [
  { method: 'POST', path: /^\/text-to-speech$/ },
  { method: 'POST', path: /^\/text-to-speech\/stream$/ },
];

/** The one-shot answer is whole when it carries its audios; from the cache its `request_id` is null. */
const oneShotAnswer = (): AnswerReading =>
  jsonDocumentAnswer({
    document: (value) => {
      const audios = (value as { audios?: unknown } | null)?.audios;
      return Array.isArray(audios) && audios.length > 0 ? 'whole' : 'error';
    },
    stored: (value) => ({ ...(value as Record<string, JsonValue>), request_id: null }),
  });

/** What the stream endpoint's audio is checked against: the codec and rate asked for, and the text's bound. */
const streamAudio = textBodyAudio(vendorA, 'text', (body) => {
  const parsed = parseVendorASettings(body, 'stream');
  return parsed.ok ? layoutOfFormat(parsed.settings.spec.codec, parsed.settings.spec.sampleRate) : undefined;
});

/**
 * How a 2xx answer of vendor_a is read: the one-shot endpoint's JSON `{request_id, audios}` (stored with
 * `request_id` null, the spec's replay difference), the stream endpoint's raw audio in the codec asked for,
 * whole once it is whole audio of that codec as long as its text needs (`audioAnswer`).
 * An answer with the vendor's warning (an error about a take it still spoke, such as an unknown `dict_id`) is
 * never whole: the client gets it as it came, and it is never stored.
 */
export function vendorAAnswerReading(request: DropInRequest, head: DropInHead): AnswerReading {
  const reading = request.path === VENDOR_A_SPEECH_PATH ? oneShotAnswer() : audioAnswer(streamAudio(request));
  if (head.headers[VENDOR_A_WARNING_HEADER] === undefined) return reading;
  return { ...reading, end: () => ({ complete: false, reason: NOT_WHOLE.error }) };
}

/** The vendor's request id, its warning and a 429's advice are true of one answer only. */
const LIVE_HEADERS = ['x-request-id', VENDOR_A_WARNING_HEADER, 'retry-after'];

/** A keyed request's model and voice: its body's `model` and `speaker`, as the keying reads them (defaults filled). */
export const vendorARequestLabels: DropInWire['labels'] = ({ body }) => ({
  model: labelAt(body, 'model'),
  voice: labelAt(body, 'speaker'),
});

/** vendor_a's drop-in REST wire for whole-request takes. */
export const vendorADropIn: DropInWire = {
  endpoints: ENDPOINTS,
  keying: vendorARequestKeying,
  labels: vendorARequestLabels,
  headers: { keyed: [], passed: ['content-type', ...LIVE_HEADERS], liveOnly: LIVE_HEADERS },
  readAnswer: vendorAAnswerReading,
  // The vendor's schema refusal of a body it cannot read.
  invalidBody: ({ message }) =>
    jsonReply(422, vendorAErrorBody({ status: 422, code: 'unprocessable_entity_error', message }, null)),
};
