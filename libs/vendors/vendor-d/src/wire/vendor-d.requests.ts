import { RouterError, type SynthSettings } from '@router/contracts';
import { cannotProduce } from '@router/vendors-core';
import { vendorD } from '../vendor-d.definition';
import { badField, type VendorDProblem } from './vendor-d.errors';
import {
  isVendorDFormat,
  VENDOR_D_FORMATS,
  VENDOR_D_ROUTER_FORMATS,
  VENDOR_D_SAMPLE_RATE,
  type VendorDFormat,
} from './vendor-d.formats';

/*
 * vendor_d's `POST /v1/audio/speech` body, both directions: `vendorDBody` builds it from the router's
 * settings (the adapter); `parseVendorDRequest` validates it as the vendor's schema does, refusing with its
 * `{error}` (the simulator); `VENDOR_D_DEFAULTS` are what the vendor takes for a field left out (the
 * simulator's reading, the mirror's keying).
 */

export const VENDOR_D_SPEECH_PATH = '/v1/audio/speech';
const FIELDS = ['model', 'input', 'voice', 'instructions', 'response_format', 'speed', 'stream_format'];
export const VENDOR_D_TEXT_LIMIT = 4096;

/**
 * The older pair: they answer with the audio even when asked for SSE, and ignore `instructions` (so the
 * adapter never sends it to them).
 */
export const VENDOR_D_LEGACY_MODELS: readonly string[] = ['d_model_1', 'd_model_2'];

/** What the vendor takes for an optional field left out. */
export const VENDOR_D_DEFAULTS = {
  response_format: 'mp3',
  speed: vendorD.speedDefault ?? 1.0,
  stream_format: 'audio',
} as const satisfies Readonly<Record<string, string | number>>;
const MODELS: readonly string[] = vendorD.catalogue.models.map((m) => m.id);
const VOICES: ReadonlySet<string> = new Set((vendorD.voices ?? []).map((v) => v.id));

/**
 * The body of one piece. `stream_format: audio` gives chunked raw audio as it is made: the earliest audio,
 * and the one streamed form the older models have (they refuse SSE).
 */
export function vendorDBody(settings: SynthSettings, text: string): Record<string, unknown> {
  if (!VENDOR_D_ROUTER_FORMATS.has(settings.format)) throw cannotProduce('vendor_d', settings.format);
  if (settings.sampleRate !== VENDOR_D_SAMPLE_RATE)
    throw RouterError.badRequest(`vendor_d makes audio at ${VENDOR_D_SAMPLE_RATE} Hz only`);
  const body: Record<string, unknown> = {
    model: settings.model,
    voice: settings.voice,
    input: text,
    response_format: settings.format,
    speed: settings.speed ?? 1.0,
    stream_format: 'audio',
  };
  const instructions = settings.options['instructions'];
  if (typeof instructions === 'string' && !VENDOR_D_LEGACY_MODELS.includes(settings.model)) {
    body['instructions'] = instructions;
  }
  return body;
}

export interface VendorDRequest {
  readonly model: string;
  readonly input: string;
  /** The built-in name, or a custom voice's id. */
  readonly voice: string;
  readonly spec: { readonly codec: VendorDFormat; readonly sampleRate: number };
  readonly speed: number;
  /** As asked; what comes back is `vendorDAnswersEvents`. */
  readonly streamFormat: 'audio' | 'sse';
}

/** Whether the answer is server-sent events: asked for, on a model that has them (the older pair answer audio). */
export function vendorDAnswersEvents(request: Pick<VendorDRequest, 'model' | 'streamFormat'>): boolean {
  return request.streamFormat === 'sse' && !VENDOR_D_LEGACY_MODELS.includes(request.model);
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
  const format = fields['response_format'] ?? VENDOR_D_DEFAULTS.response_format;
  if (!isVendorDFormat(format)) {
    return bad(
      'response_format',
      `Invalid value: ${JSON.stringify(format)}. Supported values are: ${VENDOR_D_FORMATS.join(', ')}.`,
    );
  }
  const speed = fields['speed'] ?? VENDOR_D_DEFAULTS.speed;
  if (typeof speed !== 'number' || !(speed >= 0.25 && speed <= 4.0)) {
    return bad('speed', "Invalid 'speed': must be a number between 0.25 and 4.0.");
  }
  const streamFormat = fields['stream_format'] ?? VENDOR_D_DEFAULTS.stream_format;
  if (streamFormat !== 'audio' && streamFormat !== 'sse') {
    return bad(
      'stream_format',
      `Invalid value: ${JSON.stringify(streamFormat)}. Supported values are: audio, sse.`,
    );
  }
  return {
    ok: true,
    request: {
      model,
      input,
      voice,
      spec: { codec: format, sampleRate: VENDOR_D_SAMPLE_RATE },
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
