import type { SynthSettings } from '@router/contracts';
import { optionRule, type StoredReference } from '@router/vendors-core';
import { vendorC } from './vendor-c.definition';
import { isDialogueModel } from './wire/vendor-c.models';
import { isObject } from './wire/vendor-c.schema';

const VOICE_SETTINGS = 'voice-settings/';
const DICTIONARY = 'dictionary/';

/**
 * What a piece's settings name that the account stores and may change (spec: What is cached): the voice's
 * stored settings when `voice_settings` leaves any required field to them (see `usesStoredVoiceSettings`),
 * and each pronunciation dictionary named without a `version_id` (its latest version applies). Both are
 * fingerprinted: re-read, and in the cache key.
 */
export function vendorCStoredReferences(settings: SynthSettings): StoredReference[] {
  return vendorCStoredReferencesOf(
    [settings.voice],
    settings.options['voice_settings'],
    settings.options['pronunciation_dictionary_locators'],
    isDialogueModel(settings.model),
  );
}

/**
 * The same for a request as the vendor receives it (a drop-in request): its voices, the voice settings it
 * sends (`voice_settings`, or `settings` on dialogue), its dictionary locators, and whether it is dialogue.
 */
export function vendorCStoredReferencesOf(
  voices: readonly string[],
  voiceSettings: unknown,
  locators: unknown,
  dialogue: boolean,
): StoredReference[] {
  const references: StoredReference[] = [];
  if (usesStoredVoiceSettings(voiceSettings, dialogue)) {
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

/**
 * The voice-settings fields the router's own surfaces require (`stability` and `similarity_boost`; of those,
 * `stability` on a dialogue model), from the definition's field rules.
 */
export function requiredVoiceSettings(dialogue: boolean): string[] {
  const rule = optionRule(vendorC, 'voice_settings');
  const taken = dialogue ? rule.dialogueFields : undefined;
  return (rule.fields ?? [])
    .filter((field) => field.required && (taken === undefined || taken.includes(field.name)))
    .map((field) => field.name);
}

/**
 * Whether voice settings leave the voice's stored settings a say: left out or null, or sent without one of
 * the required fields (`{}` included; a field sent as null is left out). The vendor takes what is missing
 * from the voice's stored settings, so their fingerprint must be in the key.
 */
export function usesStoredVoiceSettings(voiceSettings: unknown, dialogue: boolean): boolean {
  if (voiceSettings === null || voiceSettings === undefined) return true;
  // Anything else the vendor refuses, so nothing is spoken with it.
  if (!isObject(voiceSettings)) return false;
  return requiredVoiceSettings(dialogue).some(
    (name) => !Object.hasOwn(voiceSettings, name) || voiceSettings[name] === null,
  );
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
