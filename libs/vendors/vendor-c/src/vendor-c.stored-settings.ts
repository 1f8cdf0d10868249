import type { SynthSettings } from '@router/contracts';
import type { StoredReference } from '@router/vendors-core';

const VOICE_SETTINGS = 'voice-settings/';
const DICTIONARY = 'dictionary/';

/**
 * What a piece's settings name that the account stores and may change (spec: What is cached): the voice's
 * stored settings when `voice_settings` is left out or null, and each pronunciation dictionary named without
 * a `version_id` (its latest version applies). Both are fingerprinted: re-read, and in the cache key.
 */
export function vendorCStoredReferences(settings: SynthSettings): StoredReference[] {
  return vendorCStoredReferencesOf(
    [settings.voice],
    settings.options['voice_settings'],
    settings.options['pronunciation_dictionary_locators'],
  );
}

/**
 * The same for a request as the vendor receives it (a drop-in request): its voices, the voice settings it
 * sends (`voice_settings`, or `settings` on dialogue) and its dictionary locators.
 */
export function vendorCStoredReferencesOf(
  voices: readonly string[],
  voiceSettings: unknown,
  locators: unknown,
): StoredReference[] {
  const references: StoredReference[] = [];
  if (voiceSettings === null || voiceSettings === undefined) {
    for (const voice of new Set(voices))
      references.push({ name: `${VOICE_SETTINGS}${voice}`, kind: 'fingerprint' });
  }
  for (const locator of Array.isArray(locators) ? (locators as unknown[]) : []) {
    if (typeof locator !== 'object' || locator === null) continue;
    const { pronunciation_dictionary_id: id, version_id: version } = locator as Record<string, unknown>;
    if (
      typeof id === 'string' &&
      id !== '' &&
      (version === null || version === undefined || version === '')
    ) {
      references.push({ name: `${DICTIONARY}${id}`, kind: 'fingerprint' });
    }
  }
  return references;
}

/** The vendor path that reads a reference, or undefined for a name this vendor never makes. */
export function vendorCStoredPath(
  reference: StoredReference,
): { path: string; what: 'settings' | 'dictionary' } | undefined {
  if (reference.name.startsWith(VOICE_SETTINGS)) {
    const voice = reference.name.slice(VOICE_SETTINGS.length);
    return { path: `/v1/voices/${encodeURIComponent(voice)}/settings`, what: 'settings' };
  }
  if (reference.name.startsWith(DICTIONARY)) {
    const id = reference.name.slice(DICTIONARY.length);
    return { path: `/v1/pronunciation-dictionaries/${encodeURIComponent(id)}`, what: 'dictionary' };
  }
  return undefined;
}
