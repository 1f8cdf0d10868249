import {
  type AnswerReading,
  audioAnswer,
  type BodyFieldRule,
  type BodyFields,
  canonicalRequest,
  type DropInEndpoint,
  type DropInHead,
  type DropInKeying,
  type DropInRequest,
  type DropInWire,
  type JsonValue,
  jsonObjectBody,
  jsonReply,
  type RequestShape,
} from '@router/vendors-core';
import { vendorFErrorBody } from './vendor-f.errors';
import { VENDOR_F_DEFAULT_MP3_BIT_RATE } from './vendor-f.formats';
import { VENDOR_F_DEFAULTS, VENDOR_F_TTS_PATH, vendorFVoiceId } from './vendor-f.requests';
import { VENDOR_F_VOICES_PATH } from './vendor-f.voices';

/*
 * vendor_f's drop-in wire (`vendorFDropIn`): its REST endpoints, a request's cache identity, the headers that
 * matter and how an answer is read (the vendor's notes; the spec shows none of vendor_f's REST paths).
 */

const NULL_IS_ABSENT = { nullIsAbsent: true } as const;

/** The codec's bit rate where the vendor fills one (mp3 only: it refuses a bit rate for the others). */
function withDefaultBitRate(format: JsonValue): JsonValue {
  if (typeof format !== 'object' || format === null || Array.isArray(format)) return format;
  const fields = format as Readonly<Record<string, JsonValue>>;
  if (fields['codec'] !== 'mp3' || 'bit_rate' in fields) return format;
  return { ...fields, bit_rate: VENDOR_F_DEFAULT_MP3_BIT_RATE };
}

/**
 * `output_format` as the vendor reads it (`parseVendorFSettings`): left out, `{}` or with fields left out or
 * null, its codec and rate are the vendor's defaults and an mp3 one has the default bit rate. A `null`
 * `output_format` or `bit_rate` is refused by the vendor, so it stays as sent.
 */
const OUTPUT_FORMAT: BodyFieldRule = {
  default: withDefaultBitRate({ codec: VENDOR_F_DEFAULTS.codec, sample_rate: VENDOR_F_DEFAULTS.sampleRate }),
  fields: {
    codec: { default: VENDOR_F_DEFAULTS.codec, ...NULL_IS_ABSENT },
    sample_rate: { default: VENDOR_F_DEFAULTS.sampleRate, ...NULL_IS_ABSENT },
  },
  read: withDefaultBitRate,
};

/**
 * How the vendor reads a `POST /v1/tts` body, for the key: each setting left out or null is its default
 * (`VENDOR_F_DEFAULTS`), filled; a voice id in any case is the same voice. A number spelled as a string is
 * refused by the vendor, so no spelling is read alike. The text and every other field are kept verbatim.
 */
const SYNTHESIS: RequestShape = {
  body: {
    voice_id: {
      default: VENDOR_F_DEFAULTS.voice,
      ...NULL_IS_ABSENT,
      read: (value) => (typeof value === 'string' ? vendorFVoiceId(value) : value),
    },
    language: { default: VENDOR_F_DEFAULTS.language, ...NULL_IS_ABSENT },
    output_format: OUTPUT_FORMAT,
    speed: { default: VENDOR_F_DEFAULTS.speed, ...NULL_IS_ABSENT },
    optimize_streaming_latency: { default: VENDOR_F_DEFAULTS.optimizeStreamingLatency, ...NULL_IS_ABSENT },
    text_normalization: { default: VENDOR_F_DEFAULTS.textNormalization, ...NULL_IS_ABSENT },
  } satisfies BodyFields,
};

const LIVE: DropInKeying = Object.freeze({ cacheable: false });

/**
 * A vendor_f drop-in request's cache identity: `POST /v1/tts` with a JSON object body whose `text` is text is
 * cached whole, keyed as the vendor reads it (`SYNTHESIS`); the voice list, and a body the vendor refuses for
 * its shape, go on uncached. Nothing the vendor stores is named (a custom voice is keyed by its id).
 */
export function vendorFRequestKeying(request: DropInRequest): DropInKeying {
  if (request.method !== 'POST' || request.path !== VENDOR_F_TTS_PATH) return LIVE;
  const body = jsonObjectBody(request);
  const text = body?.['text'];
  if (!body || typeof text !== 'string') return LIVE;
  return {
    cacheable: true,
    canonical: canonicalRequest(request, SYNTHESIS, body),
    stored: [],
    chars: [...text].length,
  };
}

/** An endpoint at exactly this path (its paths have no ids and no character a pattern reads). */
const exactly = (method: string, path: string): DropInEndpoint => ({ method, path: new RegExp(`^${path}$`) });

/**
 * The REST endpoints of vendor_f's mirror, as its notes list them (the spec shows none): synthesis and the
 * voice list. Its socket, on the synthesis path, is its mirror's socket route.
 */
const ENDPOINTS: readonly DropInEndpoint[] = [
  exactly('POST', VENDOR_F_TTS_PATH),
  exactly('GET', VENDOR_F_VOICES_PATH),
];

/**
 * How a 2xx answer of vendor_f is read: the synthesis answer is raw audio in the codec asked for, streamed in
 * chunks, whole once its body ended, and a WAV file once it also holds the samples its header gives (an answer
 * ended early stops short of them); stored as it came (the spec lists no replay difference for vendor_f).
 */
export function vendorFAnswerReading(_request: DropInRequest, head: DropInHead): AnswerReading {
  return audioAnswer(head);
}

/** vendor_f's drop-in REST wire for whole-request takes. */
export const vendorFDropIn: DropInWire = {
  endpoints: ENDPOINTS,
  keying: vendorFRequestKeying,
  headers: {
    keyed: [],
    // A refusal's `retry-after` (429) is the vendor's advice for that moment; such answers are never stored.
    passed: ['content-type', 'retry-after'],
    liveOnly: ['retry-after'],
  },
  readAnswer: vendorFAnswerReading,
  // The vendor gateway's 400 for a body it cannot read.
  invalidBody: ({ message }) => jsonReply(400, vendorFErrorBody({ status: 400, message })),
};
