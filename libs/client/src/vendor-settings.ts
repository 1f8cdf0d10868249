import type { ProviderId } from './api.types';
import type { VendorCatalogue } from './vendors.generated';

/**
 * Settings typed per vendor and model, from the generated catalogue facts (`vendors.generated.ts`): a wrong
 * model, language, format, rate or option name is a type error instead of a `bad_request`. The router still
 * checks everything; these types only let an editor say it first.
 */

/** A vendor's router model ids without the vendor, e.g. `c_model_1`. */
export type VendorModel<V extends ProviderId> = keyof VendorCatalogue[V]['models'] & string;

/** `<vendor>/<model>`: every model id the speech body and `/v1/stream` take. */
export type RouterModelId = { [V in ProviderId]: `${V}/${VendorModel<V>}` }[ProviderId];

/** The vendor's language codes for one model. */
export type ModelLanguage<
  V extends ProviderId,
  M extends VendorModel<V>,
> = VendorCatalogue[V]['models'][M] extends { language: infer L } ? L : never;

/** The catalogue's voices for one model, or any other voice id (clones, the vendor's live list). */
export type ModelVoice<V extends ProviderId, M extends VendorModel<V>> =
  (VendorCatalogue[V]['models'][M] extends { voice: infer L } ? L : never) | (string & {});

export type VendorFormat<V extends ProviderId> = VendorCatalogue[V]['format'];
/** The vendor's rates for `/v1/stream`. */
export type VendorStreamRate<V extends ProviderId> = VendorCatalogue[V]['sampleRate'];
/** The vendor's rates for `POST /v1/audio/speech`. */
export type VendorSpeechRate<V extends ProviderId> = VendorCatalogue[V]['speechSampleRate'];
/** The vendor's options under their catalogue names (`GET /v1/models`). */
export type VendorOptions<V extends ProviderId> = VendorCatalogue[V]['options'];

/**
 * `language` as the vendor takes it: required (vendor_a, vendor_b, vendor_g), optional, or not at all
 * (vendor_d, vendor_e, vendor_j).
 */
export type LanguageSetting<
  V extends ProviderId,
  M extends VendorModel<V>,
> = VendorCatalogue[V]['languageRule'] extends 'required'
  ? { language: ModelLanguage<V, M> }
  : VendorCatalogue[V]['languageRule'] extends 'none'
    ? { language?: never }
    : { language?: ModelLanguage<V, M> | null };

/** `speed` where the vendor takes a top-level speed (not vendor_c, whose speed is in `voice_settings`, nor vendor_j). */
export type SpeedSetting<V extends ProviderId> = VendorCatalogue[V]['speed'] extends null
  ? { speed?: never }
  : { speed?: number };

/**
 * The vendor-independent part of one vendor's settings: vendor, model, voice, language and speed as the
 * vendor takes them. The two voice-agent packages add their own format, rate and option fields.
 */
export type VendorVoice<V extends ProviderId, M extends VendorModel<V>> = {
  vendor: V;
  model: M;
  voice: ModelVoice<V, M>;
} & LanguageSetting<V, M> &
  SpeedSetting<V>;
