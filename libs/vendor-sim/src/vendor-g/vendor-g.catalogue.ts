import { vendorG, VENDOR_G_SPEED, type VendorGProject } from '@router/vendor-g';

/**
 * vendor_g's models and voices as its API host serves them. Models and languages are the router's catalogue;
 * the built-in voices (capitalised first names) and the project's cloned voices (UUIDs, each with a status
 * per model) are invented placeholders. A cloned voice speaks only with a model it is `ready` for.
 */
/** A preview model the vendor serves that the router's catalogue lacks (so its voices must not be listed). */
export const VENDOR_G_BETA_MODEL = 'g_model_beta';
export const VENDOR_G_MODELS: readonly string[] = [
  ...vendorG.catalogue.models.map((m) => m.id),
  VENDOR_G_BETA_MODEL,
];

export interface VendorGBuiltinVoice {
  readonly id: string;
  readonly description: string;
  readonly gender: 'male' | 'female' | 'neutral';
}

const BASE_VOICES: readonly VendorGBuiltinVoice[] = [
  { id: 'Maren', description: 'Warm, even narrator', gender: 'female' },
  { id: 'Tobin', description: 'Bright, quick conversational', gender: 'male' },
  { id: 'Selka', description: 'Calm support agent', gender: 'female' },
  { id: 'Orrin', description: 'Deep, steady', gender: 'male' },
  { id: 'Wren', description: 'Light, neutral', gender: 'neutral' },
];
/** The newest model adds two voices. */
const NEW_VOICES: readonly VendorGBuiltinVoice[] = [
  { id: 'Calder', description: 'Relaxed storyteller', gender: 'male' },
  { id: 'Vesna', description: 'Crisp newsreader', gender: 'female' },
];

/** The beta model has one voice of its own. */
const BETA_VOICES: readonly VendorGBuiltinVoice[] = [
  { id: 'Zephyr', description: 'Experimental expressive', gender: 'male' },
];

export function builtinVoices(model: string): readonly VendorGBuiltinVoice[] {
  if (model === VENDOR_G_BETA_MODEL) return [...BASE_VOICES, ...BETA_VOICES];
  return model === 'g_model_3' ? [...BASE_VOICES, ...NEW_VOICES] : BASE_VOICES;
}

export function modelLanguages(model: string): readonly string[] {
  if (model === VENDOR_G_BETA_MODEL) return ['en'];
  return vendorG.catalogue.models.find((m) => m.id === model)?.languages ?? [];
}

/** `GET /v1/tts-models`: every model with its languages, built-in voices and capabilities. */
export function ttsModels(): unknown {
  return {
    models: VENDOR_G_MODELS.map((id) => ({
      id,
      aliased_model_id: null,
      name: id.replace('g_model_', 'Realtime model '),
      languages: modelLanguages(id).map((code) => ({ code, name: code })),
      voices: builtinVoices(id),
      supports_timestamps: true,
      supports_speed_adjustment: true,
      speed_min: VENDOR_G_SPEED.min,
      speed_max: VENDOR_G_SPEED.max,
      supports_silence_reduction: true,
    })),
  };
}

export type ClonedStatus = 'not_computed' | 'processing' | 'ready' | 'failed';

export interface VendorGClonedVoice {
  readonly id: string;
  readonly name: string;
  readonly filename: string;
  readonly created_at: string;
  readonly models: readonly { readonly model: string; readonly status: ClonedStatus }[];
}

function cloned(n: number, name: string, statuses: readonly ClonedStatus[]): VendorGClonedVoice {
  return {
    id: `6a0c1d2e-0000-4000-8000-${String(n).padStart(12, '0')}`,
    name,
    filename: `${name.toLowerCase().replace(/\s+/g, '-')}.wav`,
    created_at: new Date(Date.UTC(2026, 0, 1 + n, 9)).toISOString().replace('.000Z', 'Z'),
    models: VENDOR_G_MODELS.map((model, i) => ({ model, status: statuses[i] ?? 'not_computed' })),
  };
}

const STATUS_CYCLE: readonly (readonly ClonedStatus[])[] = [
  ['ready', 'ready', 'ready', 'not_computed'],
  ['not_computed', 'ready', 'processing', 'not_computed'],
  ['processing', 'processing', 'processing', 'processing'],
  ['ready', 'failed', 'ready', 'ready'],
];

/**
 * The project's cloned voices, oldest first; statuses follow `VENDOR_G_MODELS` order. A large project: after
 * the named ones, 100 more, so a list read at the largest page size still takes two pages.
 */
export const VENDOR_G_CLONED_VOICES: readonly VendorGClonedVoice[] = [
  cloned(1, 'Studio Clone', ['ready', 'ready', 'ready']),
  cloned(2, 'Field Clone', ['not_computed', 'not_computed', 'ready']),
  cloned(3, 'Pending Clone', ['processing', 'processing', 'processing']),
  cloned(4, 'Broken Clone', ['failed', 'failed', 'failed']),
  cloned(5, 'Legacy Clone', ['ready', 'not_computed', 'not_computed']),
  cloned(6, 'Beta Clone', ['not_computed', 'not_computed', 'not_computed', 'ready']),
  ...Array.from({ length: 100 }, (_, i) =>
    cloned(7 + i, `Project Clone ${i + 1}`, STATUS_CYCLE[i % STATUS_CYCLE.length] ?? []),
  ),
];

/** Why a voice cannot speak with a model, or null when it can. */
export function voiceProblem(voice: string, model: string): string | null {
  if (builtinVoices(model).some((v) => v.id === voice)) return null;
  const clone = VENDOR_G_CLONED_VOICES.find((v) => v.id === voice);
  if (!clone) return `Voice '${voice}' not found for model ${model}`;
  const status = clone.models.find((m) => m.model === model)?.status ?? 'not_computed';
  return status === 'ready' ? null : `Voice '${voice}' is not ready for model ${model} (status: ${status})`;
}

/**
 * One page of `GET /v1/voices`: `cursor` is the opaque value of the previous page's `next_page_cursor`.
 * Returns undefined for a cursor the vendor did not issue.
 */
export function clonedVoicePage(
  limit: number,
  cursor: string | null,
): { voices: VendorGClonedVoice[]; next_page_cursor: string | null } | undefined {
  let start = 0;
  if (cursor !== null) {
    const decoded = Number(Buffer.from(cursor, 'base64url').toString('utf8').replace(/^off:/, ''));
    if (!Number.isInteger(decoded) || decoded < 0 || decoded > VENDOR_G_CLONED_VOICES.length)
      return undefined;
    start = decoded;
  }
  const end = start + limit;
  return {
    voices: VENDOR_G_CLONED_VOICES.slice(start, end),
    next_page_cursor:
      end < VENDOR_G_CLONED_VOICES.length ? Buffer.from(`off:${end}`).toString('base64url') : null,
  };
}

/** The simulated project, as the wire's parsers ask about it. */
export const VENDOR_G_PROJECT: VendorGProject = {
  models: VENDOR_G_MODELS,
  languagesOf: modelLanguages,
  voiceProblem,
};
