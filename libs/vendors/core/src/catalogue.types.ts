/**
 * The public catalogue exactly as `GET /v1/models` returns it (spec: "Catalogue"). Field names are the
 * wire names, so these objects serialise as they are; nothing outside the spec's field set belongs here.
 */

/** Any JSON value, for option defaults. */
export type JsonValue =
  string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** Every `response_format` the native speech body names; `flac` and `opus` are always refused there. */
export const RESPONSE_FORMATS = ['pcm', 'wav', 'mp3', 'aac', 'mulaw', 'alaw', 'flac', 'opus'] as const;
export type ResponseFormat = (typeof RESPONSE_FORMATS)[number];

/** The formats a vendor's catalogue entry can list: the ones the router can serve without re-encoding. */
export const CATALOGUE_FORMATS = ['pcm', 'wav', 'mp3', 'aac', 'mulaw', 'alaw'] as const;
export type AudioFormat = (typeof CATALOGUE_FORMATS)[number];

/** Every `sample_rate` the native speech body names. */
export const SAMPLE_RATES = [8000, 16000, 22050, 24000, 32000, 44100, 48000] as const;
export type SampleRate = (typeof SAMPLE_RATES)[number];

export const OPTION_TYPES = ['number', 'string', 'integer', 'boolean', 'object', 'array'] as const;
export type OptionType = (typeof OPTION_TYPES)[number];

export interface SpeedRange {
  readonly min: number;
  readonly max: number;
  /** Present only where the spec states a default in the catalogue row (vendor_g, vendor_h). */
  readonly default?: number;
}

export interface OptionSpec {
  readonly name: string;
  readonly type: OptionType;
  readonly default: JsonValue;
  readonly nullable: boolean;
  readonly min: number | null;
  readonly max: number | null;
  /**
   * Allowed values, always written as strings (the spec types the field `string[]`). For an `integer`
   * option with a value list (vendor_e and vendor_f `bit_rate`) these are the integers' decimal forms.
   */
  readonly values: readonly string[] | null;
  /** Router model ids the option applies to; null means every model of the vendor. */
  readonly models: readonly string[] | null;
  readonly description: string;
}

export interface ModelCatalogue {
  readonly id: string;
  /** The vendor's own language codes. */
  readonly languages: readonly string[];
  /** Null when the model's voices come from the vendor's live list rather than the catalogue. */
  readonly voices: readonly string[] | null;
  readonly voices_url: string;
}

export interface ProviderCatalogue {
  readonly id: string;
  readonly name: string;
  readonly docs_url: string;
  readonly formats: readonly AudioFormat[];
  readonly models: readonly ModelCatalogue[];
  readonly options: readonly OptionSpec[];
  /** Rates for streaming. */
  readonly sample_rates: readonly SampleRate[];
  /** Rates for the speech endpoint. */
  readonly speech_sample_rates: readonly SampleRate[];
  /** Null when speed is not a top-level setting. */
  readonly speed: SpeedRange | null;
}

/** Wire names used by the spec: `Provider`, `Model`, `Option`. */
export type Provider = ProviderCatalogue;
export type Model = ModelCatalogue;
export type Option = OptionSpec;

/** The body of `GET /v1/models`. */
export interface CatalogueResponse {
  readonly providers: readonly Provider[];
}
