import type { SynthSettings } from '@router/contracts';
import type { JsonValue } from './catalogue.types';

/**
 * Something a piece's settings name that the vendor stores and can change under the same name (spec: What
 * is cached).
 *
 * - `fingerprint`: re-read about once a minute; what was read enters the piece's cache key, so a change at
 *   the vendor makes new sentences synthesize afresh (a vendor_c voice's stored settings, a vendor_c
 *   dictionary named without a version).
 * - `first-read`: cached by name only, but a piece is cached only once the router has read it (a vendor_a
 *   dictionary used for the first time).
 */
export interface StoredReference {
  /** Unique within the vendor and one account, e.g. `voice-settings/<voice id>`, `dictionary/<id>`. */
  readonly name: string;
  readonly kind: 'fingerprint' | 'first-read';
}

/** A vendor's part in stored settings: what a piece's settings refer to, and reading one with the org's key. */
export interface StoredSettingsReader {
  /** The stored things these (canonical) settings refer to; empty for most settings. No I/O. */
  references(settings: SynthSettings): StoredReference[];
  /**
   * The reference's current content, reduced to what stands for it (the settings, a version id). Throws a
   * RouterError (`provider_*`) when the vendor refuses or fails, e.g. a dictionary it does not know.
   */
  read(reference: StoredReference, call: { apiKey: string; signal: AbortSignal }): Promise<JsonValue>;
}
