import { mergeVoices, speakableVoices, stringOrNull, voiceGender, type Voice } from '@router/vendors-core';
import { vendorE } from '../vendor-e.definition';

/*
 * vendor_e's public model lists (`GET /v1/models`, `/v2/models`), both directions: the `tts` entries a
 * server lists, and the adapter's reading of them as the router's voices.
 */

export type VendorEGeneration = 'v1' | 'v2';

/**
 * One `tts` entry. The vendor names a voice model `<router model id>-<voice>-<lang>`; the router's voice id
 * is that name with the model id removed (`orla-en`).
 */
export interface VendorEVoiceModel {
  /** The voice's short name, e.g. `orla`. */
  readonly name: string;
  /** The full vendor model name, e.g. `e_model_1-orla-en`. */
  readonly canonical_name: string;
  /** The router model id (the vendor's model family). */
  readonly architecture: string;
  readonly languages: readonly string[];
  readonly version: string;
  readonly uuid: string;
  readonly metadata: {
    readonly accent: string;
    readonly age: string;
    readonly color: string;
    readonly image: string;
    readonly sample: string;
    readonly tags: readonly string[];
    readonly use_cases: readonly string[];
  };
}

export function vendorEModelList(models: readonly VendorEVoiceModel[]): {
  stt: readonly unknown[];
  tts: readonly VendorEVoiceModel[];
} {
  return { stt: [], tts: models };
}

/** The public model list of each API generation (no key needed). */
export const VENDOR_E_MODEL_LISTS = { v1: '/v1/models', v2: '/v2/models' } as const;

/** The lists to read: the one of the asked model's generation, else both. */
export function vendorEModelLists(model?: string): string[] {
  if (model === undefined) return Object.values(VENDOR_E_MODEL_LISTS);
  return [VENDOR_E_MODEL_LISTS[vendorE.modelTraits[model]?.apiVersion ?? 'v1']];
}

type Fields = Readonly<Record<string, unknown>>;

function fieldsOf(value: unknown): Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : {};
}

/**
 * One `tts` entry of a model list as a Voice: the vendor names it `<model id>-<voice>`, and the router's id
 * is that name with the model id removed. Null for an entry whose name does not start with its model id.
 */
export function vendorEVoice(raw: unknown): Voice | null {
  const entry = fieldsOf(raw);
  const model = stringOrNull(entry['architecture']);
  const canonical = stringOrNull(entry['canonical_name']);
  if (model === null || canonical === null || !canonical.startsWith(`${model}-`)) return null;
  const id = canonical.slice(model.length + 1);
  if (id === '') return null;
  const metadata = fieldsOf(entry['metadata']);
  const tags = Array.isArray(metadata['tags']) ? (metadata['tags'] as unknown[]) : [];
  return {
    id,
    name: stringOrNull(entry['name']) ?? id,
    provider: 'vendor_e',
    models: [model],
    languages: Array.isArray(entry['languages'])
      ? entry['languages'].filter((l): l is string => typeof l === 'string')
      : [],
    gender: tags.map(voiceGender).find((g) => g !== null) ?? null,
    accent: stringOrNull(metadata['accent']),
    age: stringOrNull(metadata['age']),
    description: null,
    preview_url: stringOrNull(metadata['sample']),
    category: 'builtin',
    provider_data: entry,
  };
}

/**
 * The voices of the model lists read: one per id (a voice listed under several models names them all, its
 * other fields from the asked model's entry), only the router's models.
 */
export function vendorEVoices(lists: readonly { tts?: unknown }[], model?: string): Voice[] {
  const voices = lists
    .flatMap((list) => (Array.isArray(list.tts) ? (list.tts as unknown[]) : []))
    .map(vendorEVoice)
    .filter((v): v is Voice => v !== null);
  return speakableVoices(vendorE, mergeVoices(speakableVoices(vendorE, voices), model), model);
}
