import { findModel } from './catalogue.queries';
import { vendorMalformed } from './vendor-errors';
import type { CatalogueVoice, VendorDefinition, VoiceGender } from './vendor-definition.types';
import type { VendorId } from './vendor-id';

/**
 * `builtin`: the vendor's stock voices. `cloned`: cloned in the org's vendor account. `custom`: designed in
 * it (vendor_c voice design). `library`: added from the vendor's shared library (vendor_c).
 */
export const VOICE_CATEGORIES = ['builtin', 'cloned', 'custom', 'library'] as const;
export type VoiceCategory = (typeof VOICE_CATEGORIES)[number];

/** One voice of `GET /v1/voices` (spec: Voice), with the wire field names. */
export interface Voice {
  /** What `voice` takes on every surface. */
  readonly id: string;
  readonly name: string;
  readonly provider: VendorId;
  /** Router model ids the voice works with (never a vendor model the router's catalogue lacks). */
  readonly models: readonly string[];
  /** The vendor's codes; empty when the vendor does not say. */
  readonly languages: readonly string[];
  readonly gender: VoiceGender | null;
  readonly accent: string | null;
  readonly age: string | null;
  readonly description: string | null;
  /** A vendor-hosted sample that needs no key. */
  readonly preview_url: string | null;
  readonly category: VoiceCategory;
  /** The vendor's own voice object as received; null for catalogue voices. */
  readonly provider_data: Readonly<Record<string, unknown>> | null;
}

/** One `GET /v1/voices` read, with the org's own key. */
export interface VoiceListRequest {
  readonly apiKey: string;
  /** A router model id of the vendor: only voices it takes. */
  readonly model?: string;
  /** Aborting stops the read at the vendor (client gone, time limit). */
  readonly signal: AbortSignal;
}

/**
 * `listVoices` for a vendor that publishes no voice list (vendor_a, vendor_d): the voices are the router's
 * catalogue (no vendor call; the org's key is only required, as for every vendor).
 */
export function listCatalogueVoices(def: VendorDefinition, request: VoiceListRequest): Promise<Voice[]> {
  return Promise.resolve(catalogueVoiceList(def, request.model));
}

/** The catalogue's voices (vendor_a, vendor_d) as Voice objects: builtin, no vendor object, nothing unknown guessed. */
export function catalogueVoiceList(def: VendorDefinition, model?: string): Voice[] {
  return (def.voices ?? [])
    .filter((voice) => model === undefined || voice.models.includes(model))
    .map((voice: CatalogueVoice) => ({
      id: voice.id,
      name: voice.name,
      provider: def.id,
      models: [...voice.models],
      languages: [...voice.languages],
      gender: voice.gender,
      accent: null,
      age: null,
      description: null,
      preview_url: null,
      category: 'builtin',
      provider_data: null,
    }));
}

/**
 * Only voices the router can speak with: each voice's models narrowed to the catalogue's (in catalogue
 * order), voices left with none dropped, and with `model` only the voices that model takes.
 */
export function speakableVoices(def: VendorDefinition, voices: readonly Voice[], model?: string): Voice[] {
  const order = def.catalogue.models.map((m) => m.id);
  const result: Voice[] = [];
  for (const voice of voices) {
    const models = order.filter((id) => voice.models.includes(id));
    if (models.length === 0 || (model !== undefined && !models.includes(model))) continue;
    result.push({ ...voice, models });
  }
  return result;
}

/** The languages of a router model, for a voice that speaks every language of its model. */
export function modelLanguages(def: VendorDefinition, modelId: string): string[] {
  return [...(findModel(def, modelId)?.languages ?? [])];
}

/** A vendor's gender word as the spec's `male`, `female` or `neutral`; null for anything else or nothing. */
export function voiceGender(value: unknown): VoiceGender | null {
  if (typeof value !== 'string') return null;
  switch (value.trim().toLowerCase()) {
    case 'male':
    case 'masculine':
      return 'male';
    case 'female':
    case 'feminine':
      return 'female';
    case 'neutral':
      return 'neutral';
    default:
      return null;
  }
}

/** A string field of a vendor's object, else null (empty strings included). */
export function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** The distinct strings of a list, in first-seen order. */
export function distinct(values: Iterable<string>): string[] {
  return [...new Set(values)];
}

/**
 * One voice per id where a vendor lists the same voice under several models: models and languages joined
 * (first-seen order), everything else from the entry of `preferredModel` when given and listed, else the
 * first entry.
 */
export function mergeVoices(voices: readonly Voice[], preferredModel?: string): Voice[] {
  const byId = new Map<string, Voice[]>();
  for (const voice of voices) byId.set(voice.id, [...(byId.get(voice.id) ?? []), voice]);
  return [...byId.values()].map((entries) => {
    const [first] = entries as [Voice, ...Voice[]];
    const lead =
      (preferredModel !== undefined && entries.find((v) => v.models.includes(preferredModel))) || first;
    return {
      ...lead,
      models: distinct(entries.flatMap((v) => v.models)),
      languages: distinct(entries.flatMap((v) => v.languages)),
    };
  });
}

/** More pages than any account should have: a vendor that keeps paging past it is answering wrongly. */
const MAX_PAGES = 1000;

/**
 * Every page of a paged vendor list: `read(null)` first, then `read(token)` with each page's `next` token
 * until there is none. A repeated token or an endless list is the vendor's malformed answer, not a loop.
 */
export async function readAllPages<P>(
  vendor: VendorId,
  read: (token: string | null) => Promise<P>,
  next: (page: P) => string | null,
): Promise<P[]> {
  const pages: P[] = [];
  const seen = new Set<string>();
  let token: string | null = null;
  do {
    const page = await read(token);
    pages.push(page);
    token = next(page);
    if (token !== null && (seen.has(token) || pages.length >= MAX_PAGES)) {
      throw vendorMalformed(vendor, 'a voice list that never ends');
    }
    if (token !== null) seen.add(token);
  } while (token !== null);
  return pages;
}
