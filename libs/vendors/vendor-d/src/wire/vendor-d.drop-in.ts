import type {
  AnswerReading,
  DropInWire,
  FrameKind,
  JsonValue,
  RequestShape,
  SseEvent,
} from '@router/vendors-core';
import {
  eventsOrAudioAnswer,
  jsonReply,
  labelAt,
  layoutOfFormat,
  sseAnswer,
  textBodyAudio,
  textBodyKeying,
  writeSseEvent,
} from '@router/vendors-core';
import { vendorD } from '../vendor-d.definition';
import { vendorDErrorBody } from './vendor-d.errors';
import { isVendorDFormat, VENDOR_D_SAMPLE_RATE } from './vendor-d.formats';
import { VENDOR_D_DEFAULTS, VENDOR_D_SPEECH_PATH } from './vendor-d.requests';
import { VENDOR_D_STREAM_END, vendorDEventKind } from './vendor-d.stream';

/*
 * vendor_d's drop-in wire (`vendorDDropIn`): its one endpoint, a request's cache identity, the headers that
 * matter, and how an answer is read and stored (spec: Vendor drop-ins, vendor_d; Events, vendor_d SSE).
 */

/**
 * How the vendor reads a speech body, for the key: the optional fields it fills when left out, filled with the
 * vendor's defaults (the speed the catalogue's). Everything else is kept verbatim: the text (the vendor reads
 * its whitespace), the model as named (a bare alias is keyed apart from the dated snapshot it stands for
 * today), the voice in either of its forms, `instructions` (also on the older models, which may ignore it or
 * refuse it), a `null` (which the vendor's schema does not allow), and any other field (the vendor refuses it).
 */
const SPEECH: RequestShape = {
  body: {
    response_format: { default: VENDOR_D_DEFAULTS.response_format },
    speed: { default: VENDOR_D_DEFAULTS.speed },
    stream_format: { default: VENDOR_D_DEFAULTS.stream_format },
  },
};

/**
 * A vendor_d drop-in request's cache identity: `POST /v1/audio/speech` with a JSON object body whose `input`
 * is text is cached whole, keyed as the vendor reads it (`SPEECH`); anything else is the vendor's to refuse and
 * goes on uncached. Nothing the vendor stores is named (a custom voice is keyed by its id).
 */
export const vendorDRequestKeying = textBodyKeying({
  paths: [VENDOR_D_SPEECH_PATH],
  text: 'input',
  shape: SPEECH,
});

/** What each event of an SSE answer is to the reading: whole once `speech.audio.done` came and no error. */
const FRAME_KINDS: Readonly<Record<ReturnType<typeof vendorDEventKind>, FrameKind>> = {
  delta: 'part',
  done: 'final',
  end: 'part',
  other: 'part',
  error: 'error',
  unreadable: 'error',
};

/** Every number under `value` as 0 (the usage a replay reports: no tokens were spent on it). */
function zeroed(value: unknown): JsonValue {
  if (typeof value === 'number') return 0;
  if (Array.isArray(value)) return value.map(zeroed);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([name, field]) => [name, zeroed(field)]));
  }
  return value as JsonValue;
}

/** An event as stored: `speech.audio.done` with its usage zeroed, every other event as it came. */
function storedEvent(event: SseEvent): SseEvent {
  if (vendorDEventKind(event.data) !== 'done') return event;
  const done = JSON.parse(event.data) as Record<string, unknown>;
  if (!('usage' in done)) return event;
  return { ...event, data: JSON.stringify({ ...done, usage: zeroed(done['usage']) }) };
}

const STREAM_END = writeSseEvent({ event: 'message', data: VENDOR_D_STREAM_END });

/**
 * An SSE answer: whole once `speech.audio.done` came with no error event before it, and the stream did not
 * stop inside an event (the `[DONE]` after it is read as a part, so an answer cut just before it is whole: its
 * audio and usage are all there). Stored as the spec's replay has it: the deltas as they came, the done event
 * with zero usage, then `[DONE]` (added where the vendor's answer ended without it).
 */
function eventsAnswer(): AnswerReading {
  const reading = sseAnswer({
    event: (event) => FRAME_KINDS[vendorDEventKind(event.data)],
    stored: storedEvent,
  });
  return {
    push: (chunk) => reading.push(chunk),
    end: () => reading.end(),
    stored(body) {
      const stored = reading.stored(body);
      return stored.toString('utf8').endsWith(STREAM_END)
        ? stored
        : Buffer.concat([stored, Buffer.from(STREAM_END, 'utf8')]);
    },
  };
}

/** What an audio answer is checked against: the `response_format` asked for (`mp3` left out) at 24000 Hz. */
const answerAudio = textBodyAudio(vendorD, 'input', (body) => {
  const format = body['response_format'] ?? VENDOR_D_DEFAULTS.response_format;
  return isVendorDFormat(format) ? layoutOfFormat(format, VENDOR_D_SAMPLE_RATE) : undefined;
});

/**
 * How a 2xx answer of vendor_d is read. Its content type tells the framing, which the request alone does not
 * (the older models answer audio when asked for SSE): an event stream is read by `eventsAnswer`, audio is
 * checked against `answerAudio`, stored as it came.
 */
export const vendorDAnswerReading = eventsOrAudioAnswer(eventsAnswer, answerAudio);

/** The REST endpoints of vendor_d's mirror (spec: Vendor drop-ins, vendor_d): speech only. */
const ENDPOINTS = [{ method: 'POST', path: /^\/v1\/audio\/speech$/ }];

/** The response headers the vendor sends with an answer, beside its type. */
const ANSWER_HEADERS = [
  'x-request-id',
  'vendor_d-processing-ms',
  'x-ratelimit-limit-requests',
  'x-ratelimit-remaining-requests',
  'x-ratelimit-reset-requests',
  'x-ratelimit-limit-tokens',
  'x-ratelimit-remaining-tokens',
  'x-ratelimit-reset-tokens',
  'retry-after',
];

/** A keyed request's model and voice: its body's `model` and `voice`, a built-in name or a custom voice's `id`. */
export const vendorDRequestLabels: DropInWire['labels'] = ({ body }) => ({
  model: labelAt(body, 'model'),
  voice: labelAt(body, 'voice') || labelAt(body, 'voice', 'id'),
});

/** vendor_d's drop-in REST/SSE wire for whole-request takes. */
export const vendorDDropIn: DropInWire = {
  endpoints: ENDPOINTS,
  keying: vendorDRequestKeying,
  labels: vendorDRequestLabels,
  headers: {
    // The organization and project a request is made for: which voices, models and limits it has there.
    keyed: ['vendor_d-organization', 'vendor_d-project'],
    passed: ['content-type', ...ANSWER_HEADERS],
    // The spec: a cached reply carries only `Content-Type`.
    liveOnly: ANSWER_HEADERS,
  },
  readAnswer: vendorDAnswerReading,
  // The vendor's 400 naming the field.
  invalidBody: ({ field, message }) =>
    jsonReply(
      400,
      vendorDErrorBody({
        status: 400,
        type: 'invalid_request_error',
        param: field ?? null,
        code: null,
        message,
      }),
    ),
};
