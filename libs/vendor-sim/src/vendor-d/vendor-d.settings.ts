import { vendorD } from '@router/vendor-d';
import type { AudioSpec, SimCodec } from '../kit/audio/audio-spec';
import { badField, type VendorDProblem } from './vendor-d.errors';

const FIELDS = ['model', 'input', 'voice', 'instructions', 'response_format', 'speed', 'stream_format'];
const FORMATS: readonly SimCodec[] = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'];
export const VENDOR_D_TEXT_LIMIT = 4096;
/** Every format is made at this rate; `pcm` is raw s16le mono at it. */
export const VENDOR_D_SAMPLE_RATE = 24000;

/** The older pair: no SSE, and `instructions` is ignored. */
export const VENDOR_D_LEGACY_MODELS: readonly string[] = ['d_model_1', 'd_model_2'];
const MODELS: readonly string[] = vendorD.catalogue.models.map((m) => m.id);
const VOICES: ReadonlySet<string> = new Set((vendorD.voices ?? []).map((v) => v.id));

/** The vendor's MIME types: Ogg Opus is `audio/opus` here, unlike the simulators' shared table. */
export const VENDOR_D_CONTENT_TYPES: Readonly<Record<string, string>> = {
  mp3: 'audio/mpeg',
  opus: 'audio/opus',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};

export interface VendorDRequest {
  readonly model: string;
  readonly input: string;
  /** The built-in name, or a custom voice's id. */
  readonly voice: string;
  readonly spec: AudioSpec;
  readonly speed: number;
  readonly streamFormat: 'audio' | 'sse';
}

type Parsed = { ok: true; request: VendorDRequest } | { ok: false; problem: VendorDProblem };

function bad(param: string, message: string): Parsed {
  return { ok: false, problem: badField(param, message) };
}

/** Validates a `POST /v1/audio/speech` body as the vendor's schema does (`additionalProperties: false`). */
export function parseVendorDRequest(body: unknown): Parsed {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return bad('body', 'We could not parse the JSON body of your request.');
  }
  const fields = body as Record<string, unknown>;
  const unknown = Object.keys(fields).find((k) => !FIELDS.includes(k));
  if (unknown) return bad(unknown, `Unrecognized request argument supplied: ${unknown}`);
  const model = fields['model'];
  if (typeof model !== 'string' || model === '') return bad('model', "Missing required parameter: 'model'.");
  if (!MODELS.includes(model)) return bad('model', `The model '${model}' does not exist.`);
  const input = fields['input'];
  if (typeof input !== 'string' || input === '') return bad('input', "Missing required parameter: 'input'.");
  if (input.length > VENDOR_D_TEXT_LIMIT) {
    return bad('input', `'input' is too long: at most ${VENDOR_D_TEXT_LIMIT} characters.`);
  }
  const voice = voiceOf(fields['voice']);
  if (voice === undefined)
    return bad('voice', 'Invalid value for voice: a built-in name or {"id": "voice_..."}.');
  const instructions = fields['instructions'];
  if (instructions !== undefined && (typeof instructions !== 'string' || instructions.length > 4096)) {
    return bad('instructions', "'instructions' must be a string of at most 4096 characters.");
  }
  const format = fields['response_format'] ?? 'mp3';
  if (typeof format !== 'string' || !(FORMATS as readonly string[]).includes(format)) {
    return bad(
      'response_format',
      `Invalid value: ${JSON.stringify(format)}. Supported values are: ${FORMATS.join(', ')}.`,
    );
  }
  const speed = fields['speed'] ?? 1.0;
  if (typeof speed !== 'number' || !(speed >= 0.25 && speed <= 4.0)) {
    return bad('speed', "Invalid 'speed': must be a number between 0.25 and 4.0.");
  }
  const streamFormat = fields['stream_format'] ?? 'audio';
  if (streamFormat !== 'audio' && streamFormat !== 'sse') {
    return bad(
      'stream_format',
      `Invalid value: ${JSON.stringify(streamFormat)}. Supported values are: audio, sse.`,
    );
  }
  if (streamFormat === 'sse' && VENDOR_D_LEGACY_MODELS.includes(model)) {
    return bad('stream_format', `stream_format 'sse' is not supported for model '${model}'.`);
  }
  return {
    ok: true,
    request: {
      model,
      input,
      voice,
      spec: { codec: format as SimCodec, sampleRate: VENDOR_D_SAMPLE_RATE },
      speed,
      streamFormat,
    },
  };
}

/** A built-in voice name, or a custom voice object `{id: "voice_..."}`; undefined when neither. */
function voiceOf(value: unknown): string | undefined {
  if (typeof value === 'string') return VOICES.has(value) ? value : undefined;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const id = (value as Record<string, unknown>)['id'];
    if (typeof id === 'string' && /^voice_[A-Za-z0-9]+$/.test(id) && Object.keys(value).length === 1)
      return id;
  }
  return undefined;
}
