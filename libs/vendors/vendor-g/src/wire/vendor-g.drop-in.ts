import type { BodyFields, DropInWire, JsonValue, RequestShape } from '@router/vendors-core';
import {
  exactly,
  filled,
  jsonReply,
  labelAt,
  textBodyAnswer,
  textBodyKeying,
  uuidRequestId,
} from '@router/vendors-core';
import { vendorG } from '../vendor-g.definition';
import { invalidRequest, vendorGErrorBody } from './vendor-g.errors';
import {
  VENDOR_G_DEFAULT_FORMAT,
  VENDOR_G_NATIVE_RATE,
  vendorGAudioLayout,
  vendorGCodec,
  vendorGIsRaw,
} from './vendor-g.formats';
import { VENDOR_G_DEFAULT_LANGUAGE, VENDOR_G_DEFAULT_MODEL, VENDOR_G_TTS_PATH } from './vendor-g.requests';
import { VENDOR_G_CLONED_PATH, VENDOR_G_MODELS_PATH } from './vendor-g.voices';

/*
 * vendor_g's drop-in wire (`vendorGDropIn`): its REST endpoints on both of its hosts, a `/tts` request's cache
 * identity, the headers that matter and how an answer is read.
 */

/**
 * How the vendor reads a `/tts` body (`parseVendorGRest`): `model`, `language`, `audio_format`, `speed` and
 * `reduce_silence` left out or null are its defaults, filled; a compressed or container format's
 * `sample_rate` left out is the model's native rate (a raw `pcm_*` format has none: the vendor refuses it
 * without one), and a null one is refused, so it stays as sent. The text, the voice, `bitrate` and every
 * other field are kept verbatim.
 */
function ttsShape(audioFormat: JsonValue | undefined): RequestShape {
  const format = audioFormat === undefined || audioFormat === null ? VENDOR_G_DEFAULT_FORMAT : audioFormat;
  const carriesRate =
    typeof format === 'string' && vendorGCodec(format) !== undefined && !vendorGIsRaw(format);
  return {
    body: {
      model: filled(VENDOR_G_DEFAULT_MODEL),
      language: filled(VENDOR_G_DEFAULT_LANGUAGE),
      audio_format: filled(VENDOR_G_DEFAULT_FORMAT),
      speed: filled(vendorG.catalogue.speed?.default ?? 1.0),
      reduce_silence: filled(false),
      ...(carriesRate ? { sample_rate: { default: VENDOR_G_NATIVE_RATE } } : {}),
    } satisfies BodyFields,
  };
}

/**
 * Fields that change nothing of the audio, left out of the key where they hold what the vendor takes:
 * `return_timestamps` (the REST endpoint ignores it) and `client_reference_id` (a name for the request in
 * the vendor's usage logs, where an answer from the cache never appears). A value the vendor refuses stays,
 * so such a request is never keyed as one it answers.
 */
function withoutIgnored(body: Readonly<Record<string, JsonValue>>): Record<string, JsonValue> {
  const rest = { ...body };
  const timestamps = rest['return_timestamps'];
  if (timestamps === undefined || timestamps === null || typeof timestamps === 'boolean') {
    delete rest['return_timestamps'];
  }
  const reference = rest['client_reference_id'];
  if (typeof reference === 'string' && reference.length <= 256) delete rest['client_reference_id'];
  return rest;
}

/**
 * A vendor_g drop-in request's cache identity: `POST /tts` with a JSON object body whose `text` is text is
 * cached whole, keyed as the vendor reads it (`ttsShape`); the model and voice lists, and a body the vendor
 * will refuse for its shape, are never cached.
 */
export const vendorGRequestKeying = textBodyKeying({
  paths: [VENDOR_G_TTS_PATH],
  text: 'text',
  shape: (_request, body) => ttsShape(body['audio_format']),
  keyed: withoutIgnored,
});

/**
 * The REST endpoints of vendor_g's mirror: the TTS host's `POST /tts`, and the reads of the API host that
 * its speech clients use (models with their voices, the project's cloned voices), under the one base.
 */
const ENDPOINTS = [
  exactly('POST', VENDOR_G_TTS_PATH),
  exactly('GET', VENDOR_G_MODELS_PATH),
  exactly('GET', VENDOR_G_CLONED_PATH),
  // `/v1/voices/count`, and one cloned voice by its id.
  { method: 'GET', path: new RegExp(`^${VENDOR_G_CLONED_PATH}/[^/]+$`) },
];

/**
 * How a 2xx answer is read: audio, whole once it is whole audio of the format asked for as long as its text
 * needs (`audioAnswer`: a WAV file holds the samples its header gives, frames end where the body ends, raw
 * samples are whole). An error the vendor reports after the first byte comes in the answer's trailers, which
 * fail the take (the adapter's `trailerFailure`), so such an answer is never stored either. The lists are JSON
 * read live, never stored.
 * The audio is checked against `audio_format` and `sample_rate` as the vendor reads them, and the text.
 */
export const vendorGAnswerReading = textBodyAnswer(vendorG, 'text', (body) => {
  const format = body['audio_format'] ?? VENDOR_G_DEFAULT_FORMAT;
  const rate = body['sample_rate'] ?? VENDOR_G_NATIVE_RATE;
  return typeof format === 'string' && typeof rate === 'number'
    ? vendorGAudioLayout(format, rate)
    : undefined;
});

/** A keyed request's model and voice: its body's `model` (its default filled) and `voice`. */
export const vendorGRequestLabels: DropInWire['labels'] = ({ body }) => ({
  model: labelAt(body, 'model'),
  voice: labelAt(body, 'voice'),
});

/** vendor_g's drop-in REST wire for whole-request takes. */
export const vendorGDropIn: DropInWire = {
  endpoints: ENDPOINTS,
  keying: vendorGRequestKeying,
  labels: vendorGRequestLabels,
  headers: { keyed: [], passed: ['content-type'], liveOnly: [] },
  readAnswer: vendorGAnswerReading,
  invalidBody: ({ field, message }) =>
    jsonReply(400, vendorGErrorBody(invalidRequest(message, field), uuidRequestId())),
};
