import type { SynthSettings } from '@router/contracts';
import { queryFlag, type RouterAudioEncoding } from '@router/vendors-core';
import { vendorE } from '../vendor-e.definition';
import { badQuery, type VendorEProblem } from './vendor-e.errors';
import { readVendorERestEncoding, vendorEEncodingOf } from './vendor-e.formats';
import type { VendorEGeneration, VendorEVoiceModel } from './vendor-e.voices';

/*
 * vendor_e's speak call (`POST /v1/speak`, `/v2/speak`: audio settings in the query, `{text}` in the body),
 * both directions: `vendorERequest` builds it from the router's settings (the adapter); `parseVendorESpeak`
 * validates it as the vendor does, refusing with its `{err_code, err_msg}` (the simulator, the mirror).
 */

export const VENDOR_E_TEXT_LIMIT = 2000;
/** `/v1/speak`'s voice model when the query names none. */
export const VENDOR_E_DEFAULT_V1_MODEL = 'e_model_1-orla-en';
/**
 * Which speak path serves each model family: the catalogue's models by their `apiVersion`, and `e_model_0`, an
 * outdated family the vendor still serves and the router's catalogue lacks.
 */
export const VENDOR_E_GENERATIONS: Readonly<Record<string, VendorEGeneration>> = {
  e_model_0: 'v1',
  ...Object.fromEntries(
    Object.entries(vendorE.modelTraits).flatMap(([model, traits]) =>
      traits.apiVersion ? [[model, traits.apiVersion]] : [],
    ),
  ),
};

/**
 * A voice model name read as the router's model and voice: the longest model family it starts with (a family,
 * a hyphen, then the voice: `e_model_1-orla-en`), the rest its voice. Undefined for a name of no known family.
 */
export function vendorEVoiceModelParts(name: string): { model: string; voice: string } | undefined {
  const family = Object.keys(VENDOR_E_GENERATIONS)
    .filter((id) => name.startsWith(`${id}-`) && name.length > id.length + 1)
    .sort((a, b) => b.length - a.length)[0];
  return family === undefined ? undefined : { model: family, voice: name.slice(family.length + 1) };
}

export interface VendorERequest {
  /** `/v1/speak` streams first-generation audio as it is made; `/v2/speak` is the second generation's REST call. */
  readonly path: string;
  readonly body: { text: string };
}

/**
 * The request for one piece: the vendor's voice model name is the router model id, a hyphen and the voice
 * id; audio settings go in the query, the text in the body.
 */
export function vendorERequest(settings: SynthSettings, text: string): VendorERequest {
  const target = vendorEEncodingOf(settings.format);
  const query = new URLSearchParams({
    model: `${settings.model}-${settings.voice}`,
    encoding: target.encoding,
  });
  if (target.container) query.set('container', target.container);
  query.set('sample_rate', String(settings.sampleRate));
  query.set('speed', String(settings.speed ?? 1.0));
  const bitRate = settings.options['bit_rate'];
  if (settings.format === 'mp3' && typeof bitRate === 'number') query.set('bit_rate', String(bitRate));
  const optOut = settings.options['mip_opt_out'];
  if (typeof optOut === 'boolean') query.set('mip_opt_out', String(optOut));
  // An option the catalogue lacks that a mirror's client sent (v2's `expressivity`) goes on as sent.
  for (const [name, value] of Object.entries(settings.options)) {
    if (name === 'bit_rate' || name === 'mip_opt_out' || query.has(name)) continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      query.set(name, String(value));
    }
  }
  const generation = vendorE.modelTraits[settings.model]?.apiVersion ?? 'v1';
  return { path: `/${generation}/speak?${query.toString()}`, body: { text } };
}

export interface VendorESpeakRequest {
  readonly model: VendorEVoiceModel;
  readonly text: string;
  readonly spec: RouterAudioEncoding;
  readonly speed: number;
  /** The client's address for the audio: the vendor answers `202 {request_id}` at once and delivers it later. */
  readonly callback?: string;
}

type Parsed = { ok: true; request: VendorESpeakRequest } | { ok: false; problem: VendorEProblem };

function bad(message: string, code?: string): Parsed {
  return { ok: false, problem: badQuery(message, code) };
}

/**
 * Validates a REST speak call (`/v1/speak` or `/v2/speak`): the query's audio settings and `{text}`.
 * `findModel` is the server's list of voice models.
 */
export function parseVendorESpeak(
  generation: VendorEGeneration,
  query: URLSearchParams,
  body: unknown,
  findModel: (name: string) => VendorEVoiceModel | undefined,
): Parsed {
  const modelName = query.get('model') ?? (generation === 'v1' ? VENDOR_E_DEFAULT_V1_MODEL : null);
  if (modelName === null) return bad('model is required', 'INVALID_QUERY_PARAMETER');
  const model = findModel(modelName);
  if (!model) return bad(`No such model: ${modelName}`, 'UNSUPPORTED_MODEL');
  if (VENDOR_E_GENERATIONS[model.architecture] !== generation) {
    return bad(`Model ${modelName} is not available on /${generation}/speak`, 'UNSUPPORTED_MODEL');
  }
  const encoding = readVendorERestEncoding(query);
  if (!encoding.ok) return bad(encoding.message, encoding.code);
  const speedText = query.get('speed');
  const speed = speedText === null ? 1.0 : Number(speedText);
  if (!(speed >= 0.7 && speed <= 1.5)) return bad('speed must be between 0.7 and 1.5');
  if (queryFlag(query, 'mip_opt_out', null) === undefined) return bad('mip_opt_out must be true or false');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return bad('Request body must be a JSON object with a text field', 'INVALID_REQUEST_BODY');
  }
  const text = (body as Record<string, unknown>)['text'];
  if (typeof text !== 'string' || text.trim() === '') return bad('text must not be empty', 'INVALID_TEXT');
  if (text.length > VENDOR_E_TEXT_LIMIT) {
    return bad(`text must be at most ${VENDOR_E_TEXT_LIMIT} characters`, 'TEXT_TOO_LONG');
  }
  const callback = query.get('callback');
  return {
    ok: true,
    request: { model, text, spec: encoding.spec, speed, ...(callback ? { callback } : {}) },
  };
}

/** The vendor's answer to a speak call with a `callback`: accepted, the audio to follow at the client's address. */
export const VENDOR_E_CALLBACK_STATUS = 202;

export function vendorECallbackAccepted(requestId: string): { request_id: string } {
  return { request_id: requestId };
}

/** The headers the vendor answers a speak call with. */
export function vendorESpeakHeaders(request: VendorESpeakRequest, requestId: string): Record<string, string> {
  return {
    'vendor_e-request-id': requestId,
    'vendor_e-model-name': request.model.canonical_name,
    'vendor_e-model-uuid': request.model.uuid,
    'vendor_e-char-count': String(Array.from(request.text).length),
  };
}
