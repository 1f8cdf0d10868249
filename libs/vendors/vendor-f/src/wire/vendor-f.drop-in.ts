import type { BodyFieldRule, BodyFields, DropInWire, JsonValue, RequestShape } from '@router/vendors-core';
import {
  exactly,
  filled,
  jsonReply,
  labelAt,
  layoutOfFormat,
  textBodyAnswer,
  textBodyKeying,
} from '@router/vendors-core';
import { VENDOR_F_MODEL, vendorF } from '../vendor-f.definition';
import { vendorFErrorBody } from './vendor-f.errors';
import { VENDOR_F_DEFAULT_MP3_BIT_RATE } from './vendor-f.formats';
import {
  parseVendorFSettings,
  restSettings,
  VENDOR_F_DEFAULTS,
  VENDOR_F_TTS_PATH,
  vendorFVoiceId,
} from './vendor-f.requests';
import { VENDOR_F_VOICES_PATH } from './vendor-f.voices';

/*
 * vendor_f's drop-in wire (`vendorFDropIn`): its REST endpoints, a request's cache identity, the headers that
 * matter and how an answer is read (the vendor's notes; the spec shows none of vendor_f's REST paths).
 */

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
    codec: filled(VENDOR_F_DEFAULTS.codec),
    sample_rate: filled(VENDOR_F_DEFAULTS.sampleRate),
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
      ...filled(VENDOR_F_DEFAULTS.voice),
      read: (value) => (typeof value === 'string' ? vendorFVoiceId(value) : value),
    },
    language: filled(VENDOR_F_DEFAULTS.language),
    output_format: OUTPUT_FORMAT,
    speed: filled(VENDOR_F_DEFAULTS.speed),
    optimize_streaming_latency: filled(VENDOR_F_DEFAULTS.optimizeStreamingLatency),
    text_normalization: filled(VENDOR_F_DEFAULTS.textNormalization),
  } satisfies BodyFields,
};

/**
 * A vendor_f drop-in request's cache identity: `POST /v1/tts` with a JSON object body whose `text` is text is
 * cached whole, keyed as the vendor reads it (`SYNTHESIS`); the voice list, and a body the vendor refuses for
 * its shape, go on uncached. Nothing the vendor stores is named (a custom voice is keyed by its id).
 */
export const vendorFRequestKeying = textBodyKeying({
  paths: [VENDOR_F_TTS_PATH],
  text: 'text',
  shape: SYNTHESIS,
});

/**
 * The REST endpoints of vendor_f's mirror, as its notes list them (the spec shows none): synthesis and the
 * voice list. Its socket, on the synthesis path, is its mirror's socket route.
 */
const ENDPOINTS = [exactly('POST', VENDOR_F_TTS_PATH), exactly('GET', VENDOR_F_VOICES_PATH)];

/**
 * How a 2xx answer of vendor_f is read: the synthesis answer is raw audio in the codec asked for, streamed in
 * chunks, whole once it is whole audio of that codec as long as its text needs (`audioAnswer`: a WAV file holds
 * the samples its header gives, MP3 frames end where the body ends, raw samples are whole); stored as it came
 * (the spec lists no replay difference for vendor_f).
 * The audio is checked against the codec and rate as the vendor reads them, and the text.
 */
export const vendorFAnswerReading = textBodyAnswer(vendorF, 'text', (body) => {
  const raw = restSettings(body);
  if (raw === undefined || typeof raw === 'string') return undefined;
  // Any voice will do: only the audio settings are read here.
  const parsed = parseVendorFSettings(raw, (voiceId) => ({ voice_id: voiceId }));
  return parsed.ok ? layoutOfFormat(parsed.settings.spec.codec, parsed.settings.spec.sampleRate) : undefined;
});

/** A keyed request's model and voice: the vendor's one model, and the body's `voice_id` (its default filled). */
export const vendorFRequestLabels: DropInWire['labels'] = ({ body }) => ({
  model: VENDOR_F_MODEL,
  voice: labelAt(body, 'voice_id'),
});

/** vendor_f's drop-in REST wire for whole-request takes. */
export const vendorFDropIn: DropInWire = {
  endpoints: ENDPOINTS,
  keying: vendorFRequestKeying,
  labels: vendorFRequestLabels,
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
