import type { AudioFormat, OptionType, ProviderCatalogue, SampleRate } from './catalogue.types';
import type { VendorId } from './vendor-id';

/**
 * How a vendor takes `language` in client settings (spec: "Language rules for client settings").
 * - `required`: the client must send one of the model's codes (vendor_a, vendor_b, vendor_g).
 * - `optional`: the vendor detects it when left out (vendor_c, vendor_f).
 * - `optional-default-en`: left out means `en` (vendor_h, vendor_i).
 * - `none`: the vendor takes no language setting (vendor_d, vendor_e, vendor_j).
 */
export type LanguageRule = 'required' | 'optional' | 'optional-default-en' | 'none';

export type VoiceGender = 'male' | 'female' | 'neutral';

/**
 * A voice the router's own catalogue holds (vendor_a, vendor_d, vendor_j), shaped for `GET /v1/voices`:
 * the fields of the spec's Voice that the catalogue knows. The rest of a Voice (provider, category
 * `builtin`, null accent/age/description/preview_url/provider_data) is constant for catalogue voices.
 */
export interface CatalogueVoice {
  readonly id: string;
  readonly name: string;
  /** Null where the vendor does not say. */
  readonly gender: VoiceGender | null;
  /** Every language of its model(s) when it speaks them all; its recording language for a persona; empty when unknown. */
  readonly languages: readonly string[];
  /** Router model ids the voice works with. */
  readonly models: readonly string[];
}

/** Per-format limits that the catalogue's flat lists cannot express. */
export interface FormatRule {
  /** The only sample rates this format comes in at the vendor; the catalogue's lists apply when absent. */
  readonly sampleRates?: readonly SampleRate[];
  /** The rate used when the client leaves `sample_rate` out with this format (otherwise 24000). */
  readonly defaultSampleRate?: SampleRate;
  /** The vendor serves this format only from its one-shot REST endpoint, never from its streaming ones. */
  readonly restOnly?: boolean;
}

/** One field of an object option, or of each item of an array option. */
export interface OptionField {
  readonly name: string;
  readonly type: Exclude<OptionType, 'object' | 'array'>;
  readonly required: boolean;
  readonly nullable: boolean;
  readonly min?: number;
  readonly max?: number;
  readonly values?: readonly string[];
}

/**
 * Validation facts about one option that are not part of the public Option object. Everything is
 * optional; an option without a rule is checked from its Option entry alone.
 */
export interface OptionRule {
  /** The option applies only with these response formats (e.g. a bitrate only for compressed audio). */
  readonly formats?: readonly AudioFormat[];
  /**
   * What a model outside the Option's `models` does with the option: `refuse` (the default; a
   * `bad_request`) or `ignore` (the vendor ignores it, so the router drops it before the vendor call and
   * the cache key, e.g. vendor_d `instructions` on its two older models).
   */
  readonly outsideModels?: 'refuse' | 'ignore';
  /** Allowed values at a given sample rate, where the value list depends on the rate. */
  readonly valuesBySampleRate?: Readonly<Partial<Record<SampleRate, readonly string[]>>>;
  /** The default at a given sample rate, where it differs from the Option's `default`. */
  readonly defaultBySampleRate?: Readonly<Partial<Record<SampleRate, string>>>;
  /** For `object` options: the fields it may carry. For `array` options: the fields of each item. */
  readonly fields?: readonly OptionField[];
  /** For `object` options: the only fields a dialogue model accepts. */
  readonly dialogueFields?: readonly string[];
  /**
   * For `object` options with `fields`: the vendor itself fills a field left out of the object or sent as null
   * (vendor_c `voice_settings`: `stability` and `similarity_boost` from the voice's stored settings, the others
   * at their defaults). The native surfaces still require the `required` fields (the spec's Options table); a
   * mirror's vendor mode (`resolveSettings`) takes a partial object as the vendor does, and one with no field
   * left as the option left out, since then the vendor fills every field.
   */
  readonly vendorFillsFields?: boolean;
  /** For `array` options: the most items allowed. */
  readonly maxItems?: number;
  /** For `object` options whose keys are free names (vendor_j `speakers`): exactly this many entries, each a voice. */
  readonly entries?: number;
  /** Other options that must be set whenever this one is. */
  readonly requires?: readonly string[];
  /** Setting this option replaces the top-level `voice` (vendor_j `speakers`). */
  readonly replacesVoice?: boolean;
}

/** Facts about one model beyond its public Model entry. */
export interface ModelTraits {
  /** A dialogue model: several voices per request, `voice_settings` limited to the rule's `dialogueFields`. */
  readonly dialogue?: boolean;
  /** Which of the vendor's API generations serves the model, where the vendor has several (paths, sockets). */
  readonly apiVersion?: 'v1' | 'v2';
}

/**
 * How the router splits a reply for this vendor (spec: "Sentence splitting"): `router` is the router's own
 * splitter (danda, abbreviations, decimals, URLs; vendor_a, vendor_b), `standard` the standard sentence
 * tokenizer plus a break at every danda.
 */
export type SentenceSplitter = 'router' | 'standard';

/**
 * Which sentences the vendor cannot speak, so they are skipped rather than failed (spec: "Never cached").
 * Null when the spec names no such rule for the vendor.
 */
export type UnspeakableRule = 'no-letter-or-digit' | 'punctuation-only' | null;

/**
 * Everything the router knows about one vendor: the public catalogue entry plus the facts later
 * validation and the pipeline need. Only `catalogue` reaches clients (through `toPublicProvider`).
 */
export interface VendorDefinition {
  readonly id: VendorId;
  readonly catalogue: ProviderCatalogue;
  readonly language: LanguageRule;
  /**
   * The speed used when the client leaves `speed` out: 1.0 where the speech body's default applies, null
   * where no speed is sent unless the client sets one (vendor_i, whose speed is optional) or where the
   * vendor has no top-level speed at all (vendor_c, vendor_j).
   */
  readonly speedDefault: number | null;
  readonly formatRules: Readonly<Partial<Record<AudioFormat, FormatRule>>>;
  /** Keyed by option name; every key names one of `catalogue.options`. */
  readonly optionRules: Readonly<Record<string, OptionRule>>;
  /** Keyed by router model id; models without special traits are left out. */
  readonly modelTraits: Readonly<Record<string, ModelTraits>>;
  /** Voice objects held by the router's catalogue; null when voices are only ever read live from the vendor. */
  readonly voices: readonly CatalogueVoice[] | null;
  readonly splitter: SentenceSplitter;
  /**
   * The most characters of text the vendor takes in one synthesis request, counted as UTF-16 code units (never
   * fewer than the code points a vendor may count instead). The splitter cuts every piece to at most this, at
   * a word boundary where it can, so every valid request is spoken. The vendor's stated limit (the smallest,
   * where its endpoints differ), or a safe value its folder explains where the vendor states none.
   */
  readonly maxInputChars: number;
  readonly unspeakable: UnspeakableRule;
  /** The vendor returns word timings, which are cached with the audio (vendor_c, vendor_h, vendor_i). */
  readonly wordTimings: boolean;
  /** On interruption the sentence being synthesized is finished and cached instead of stopped (vendor_c, vendor_i). */
  readonly finishesTakeOnInterrupt: boolean;
}
