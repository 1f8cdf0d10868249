import {
  distinct,
  mergeVoices,
  speakableVoices,
  stringOrNull,
  voiceGender,
  type Voice,
} from '@router/vendors-core';
import { vendorG } from '../vendor-g.definition';

/** The models with their built-in voices (API host). */
export const VENDOR_G_MODELS_PATH = '/v1/tts-models';
/** The project's cloned voices (API host), paged by cursor; `limit` at the vendor's maximum. */
export const VENDOR_G_CLONED_PATH = '/v1/voices';
export const VENDOR_G_CLONED_PAGE_SIZE = 100;

export function vendorGClonedPagePath(cursor: string | null): string {
  const query = new URLSearchParams({ limit: String(VENDOR_G_CLONED_PAGE_SIZE) });
  if (cursor !== null) query.set('cursor', cursor);
  return `${VENDOR_G_CLONED_PATH}?${query.toString()}`;
}

export function vendorGNextCursor(page: { next_page_cursor?: unknown }): string | null {
  return typeof page.next_page_cursor === 'string' && page.next_page_cursor !== ''
    ? page.next_page_cursor
    : null;
}

type Fields = Readonly<Record<string, unknown>>;

function fieldsOf(value: unknown): Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : {};
}

function listOf(value: unknown): Fields[] {
  return Array.isArray(value) ? value.map(fieldsOf) : [];
}

/** Each model's language codes as the vendor lists them. */
function languagesByModel(models: readonly Fields[]): Map<string, string[]> {
  const languages = new Map<string, string[]>();
  for (const model of models) {
    const id = stringOrNull(model['id']);
    if (id === null) continue;
    const codes = listOf(model['languages']).map((l) => stringOrNull(l['code']));
    languages.set(
      id,
      codes.filter((c): c is string => c !== null),
    );
  }
  return languages;
}

/**
 * The built-in voices of every model (one Voice per name, with each model that lists it and that model's
 * languages) and the cloned voices, each with the models it is `ready` for (a clone ready for none of the
 * router's models is left out). Cloned voices speak the languages of their models.
 */
export function vendorGVoices(
  tts: { models?: unknown },
  clonedPages: readonly { voices?: unknown }[],
  model?: string,
): Voice[] {
  const models = listOf(tts.models);
  const languages = languagesByModel(models);
  const builtin: Voice[] = [];
  for (const entry of models) {
    const modelId = stringOrNull(entry['id']);
    if (modelId === null) continue;
    for (const voice of listOf(entry['voices'])) {
      const id = stringOrNull(voice['id']);
      if (id === null) continue;
      builtin.push({
        id,
        name: id,
        provider: 'vendor_g',
        models: [modelId],
        languages: languages.get(modelId) ?? [],
        gender: voiceGender(voice['gender']),
        accent: null,
        age: null,
        description: stringOrNull(voice['description']),
        preview_url: null,
        category: 'builtin',
        provider_data: voice,
      });
    }
  }
  const cloned: Voice[] = [];
  for (const clone of clonedPages.flatMap((page) => listOf(page.voices))) {
    const id = stringOrNull(clone['id']);
    if (id === null) continue;
    const ready = listOf(clone['models'])
      .filter((m) => m['status'] === 'ready')
      .map((m) => stringOrNull(m['model']))
      .filter((m): m is string => m !== null);
    cloned.push({
      id,
      name: stringOrNull(clone['name']) ?? id,
      provider: 'vendor_g',
      models: ready,
      languages: distinct(ready.flatMap((m) => languages.get(m) ?? [])),
      gender: null,
      accent: null,
      age: null,
      description: null,
      preview_url: null,
      category: 'cloned',
      provider_data: clone,
    });
  }
  const speakable = speakableVoices(vendorG, [...builtin, ...cloned]).map((voice) =>
    // Only the languages of the router's models the voice works with.
    voice.category === 'cloned'
      ? { ...voice, languages: distinct(voice.models.flatMap((m) => languages.get(m) ?? [])) }
      : voice,
  );
  return speakableVoices(vendorG, mergeVoices(speakable, model), model);
}
