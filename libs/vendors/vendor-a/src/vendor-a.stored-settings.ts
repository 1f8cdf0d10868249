import type { SynthSettings } from '@router/contracts';
import type { StoredReference } from '@router/vendors-core';

const DICTIONARY = 'dictionary/';

/**
 * A `dict_id` names a pronunciation dictionary the account stores. The cache keys it by name, but a piece
 * with it is cached only once the router has read the dictionary (spec: What is cached): a first read.
 */
export function vendorAStoredReferences(settings: SynthSettings): StoredReference[] {
  return vendorADictionaryReferences(settings.options['dict_id']);
}

/** The dictionary a `dict_id` names (a piece's option, a drop-in request's body field), if it names one. */
export function vendorADictionaryReferences(dictId: unknown): StoredReference[] {
  return typeof dictId === 'string' && dictId !== ''
    ? [{ name: `${DICTIONARY}${dictId}`, kind: 'first-read' }]
    : [];
}

/** The vendor path that reads a reference, or undefined for a name this vendor never makes. */
export function vendorAStoredPath(reference: StoredReference): string | undefined {
  if (!reference.name.startsWith(DICTIONARY)) return undefined;
  return `/pronunciation-dictionaries/${encodeURIComponent(reference.name.slice(DICTIONARY.length))}`;
}
