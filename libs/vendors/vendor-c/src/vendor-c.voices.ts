import {
  distinct,
  speakableVoices,
  stringOrNull,
  voiceGender,
  type Voice,
  type VoiceCategory,
} from '@router/vendors-core';
import { vendorC } from './vendor-c.definition';

/** The paged voice list of the account; `page_size` at the vendor's maximum, so a list takes few reads. */
export const VENDOR_C_VOICES_PATH = '/v2/voices';
export const VENDOR_C_VOICE_PAGE_SIZE = 100;

/** The path of one page: the first without a token, each later one with the previous page's token. */
export function vendorCVoicePagePath(token: string | null): string {
  const query = new URLSearchParams({ page_size: String(VENDOR_C_VOICE_PAGE_SIZE) });
  if (token !== null) query.set('next_page_token', token);
  return `${VENDOR_C_VOICES_PATH}?${query.toString()}`;
}

/** What one page says about the next: its token, or null on the last page. */
export function vendorCNextPageToken(page: { has_more?: unknown; next_page_token?: unknown }): string | null {
  return page.has_more === true && typeof page.next_page_token === 'string' && page.next_page_token !== ''
    ? page.next_page_token
    : null;
}

type Fields = Readonly<Record<string, unknown>>;

function fieldsOf(value: unknown): Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : {};
}

/**
 * The spec's category: stock voices are `builtin`; voices added from the shared library (copied, owned by
 * someone else) `library`; instant and professional clones `cloned`; voice-design voices `custom`.
 */
export function vendorCCategory(voice: Fields): VoiceCategory {
  const category = voice['category'];
  if (category === 'premade') return 'builtin';
  if (fieldsOf(voice['sharing'])['status'] === 'copied' || voice['is_owner'] === false) return 'library';
  if (category === 'generated') return 'custom';
  if (category === 'cloned' || category === 'professional') return 'cloned';
  return 'builtin';
}

/** A professional clone speaks only once its fine-tuning has finished (for some model). */
function isSpeakable(voice: Fields): boolean {
  if (voice['category'] !== 'professional') return true;
  return Object.values(fieldsOf(fieldsOf(voice['fine_tuning'])['state'])).includes('fine_tuned');
}

/**
 * One vendor Voice object as the router's Voice, or null for a voice it cannot speak with yet. Every
 * vendor_c voice works with every vendor_c model; it lists its own language, then its verified ones.
 */
export function vendorCVoice(raw: unknown): Voice | null {
  const voice = fieldsOf(raw);
  const id = stringOrNull(voice['voice_id']);
  if (id === null || !isSpeakable(voice)) return null;
  const labels = fieldsOf(voice['labels']);
  const own = stringOrNull(labels['language']) ?? stringOrNull(fieldsOf(voice['fine_tuning'])['language']);
  const verified = Array.isArray(voice['verified_languages'])
    ? voice['verified_languages'].map((v) => stringOrNull(fieldsOf(v)['language']))
    : [];
  return {
    id,
    name: stringOrNull(voice['name']) ?? id,
    provider: 'vendor_c',
    models: vendorC.catalogue.models.map((m) => m.id),
    languages: distinct([own, ...verified].filter((l): l is string => l !== null)),
    gender: voiceGender(labels['gender']),
    accent: stringOrNull(labels['accent']),
    age: stringOrNull(labels['age']),
    description: stringOrNull(voice['description']),
    preview_url: stringOrNull(voice['preview_url']),
    category: vendorCCategory(voice),
    provider_data: voice,
  };
}

/** Every page's voices as Voice objects, the ones the router cannot speak with left out. */
export function vendorCVoices(pages: readonly { voices?: unknown }[], model?: string): Voice[] {
  const voices = pages
    .flatMap((page) => (Array.isArray(page.voices) ? (page.voices as unknown[]) : []))
    .map(vendorCVoice)
    .filter((v): v is Voice => v !== null);
  return speakableVoices(vendorC, voices, model);
}
