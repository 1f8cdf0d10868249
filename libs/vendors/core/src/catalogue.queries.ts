import type { AudioFormat, ModelCatalogue, OptionSpec, SampleRate } from './catalogue.types';
import type { CatalogueVoice, OptionRule, VendorDefinition } from './vendor-definition.types';

/** The sample rate used when a client leaves `sample_rate` out (the speech body's default). */
export const DEFAULT_SAMPLE_RATE: SampleRate = 24000;

/** Which rate list applies: `stream` (`sample_rates`) or the speech endpoint (`speech_sample_rates`). */
export type RateSurface = 'stream' | 'speech';

export function findModel(def: VendorDefinition, modelId: string): ModelCatalogue | undefined {
  return def.catalogue.models.find((m) => m.id === modelId);
}

export function findOption(def: VendorDefinition, name: string): OptionSpec | undefined {
  return def.catalogue.options.find((o) => o.name === name);
}

/** The option's extra validation facts; an empty rule when it has none. */
export function optionRule(def: VendorDefinition, name: string): OptionRule {
  return def.optionRules[name] ?? {};
}

/** Whether the option applies to the model (its `models` is null or names the model). */
export function optionAppliesToModel(option: OptionSpec, modelId: string): boolean {
  return option.models === null || option.models.includes(modelId);
}

/** The options the model takes, in catalogue order. */
export function optionsForModel(def: VendorDefinition, modelId: string): OptionSpec[] {
  return def.catalogue.options.filter((o) => optionAppliesToModel(o, modelId));
}

export function isDialogueModel(def: VendorDefinition, modelId: string): boolean {
  return def.modelTraits[modelId]?.dialogue === true;
}

/** The language used when the client leaves `language` out: `en` for vendor_h and vendor_i, else none. */
export function defaultLanguageOf(def: VendorDefinition): string | null {
  return def.language === 'optional-default-en' ? 'en' : null;
}

/** The sample rates the vendor offers for a format on a surface: the surface's list, narrowed by the format's rule. */
export function sampleRatesFor(
  def: VendorDefinition,
  format: AudioFormat,
  surface: RateSurface,
): SampleRate[] {
  if (!def.catalogue.formats.includes(format)) return [];
  const base = surface === 'stream' ? def.catalogue.sample_rates : def.catalogue.speech_sample_rates;
  const only = def.formatRules[format]?.sampleRates;
  return base.filter((rate) => only === undefined || only.includes(rate));
}

/** The rate used for a format when the client leaves `sample_rate` out, or null when the format has no rate there. */
export function defaultSampleRateFor(
  def: VendorDefinition,
  format: AudioFormat,
  surface: RateSurface,
): SampleRate | null {
  const rates = sampleRatesFor(def, format, surface);
  const preferred = def.formatRules[format]?.defaultSampleRate ?? DEFAULT_SAMPLE_RATE;
  if (rates.includes(preferred)) return preferred;
  return rates[0] ?? null;
}

/**
 * Whether this format and rate can only come from the vendor's one-shot REST endpoint: a speech-only rate
 * (in `speech_sample_rates` but not in `sample_rates`, e.g. vendor_a 32000 to 48000) or a REST-only format.
 */
export function isRestOnly(def: VendorDefinition, format: AudioFormat, rate: SampleRate): boolean {
  if (def.formatRules[format]?.restOnly === true) return true;
  return def.catalogue.speech_sample_rates.includes(rate) && !def.catalogue.sample_rates.includes(rate);
}

/** The allowed values of a string option at a sample rate (the rule's per-rate list, else the Option's values). */
export function optionValuesAt(
  def: VendorDefinition,
  name: string,
  rate: SampleRate,
): readonly string[] | null {
  const byRate = optionRule(def, name).valuesBySampleRate?.[rate];
  return byRate ?? findOption(def, name)?.values ?? null;
}

/** An option's default at a sample rate (the rule's per-rate default, else the Option's default). */
export function optionDefaultAt(
  def: VendorDefinition,
  name: string,
  rate: SampleRate,
): OptionSpec['default'] | undefined {
  const byRate = optionRule(def, name).defaultBySampleRate?.[rate];
  return byRate ?? findOption(def, name)?.default;
}

/** Catalogue voices, optionally only those the model takes; empty for vendors whose voices are live-listed. */
export function catalogueVoices(def: VendorDefinition, modelId?: string): CatalogueVoice[] {
  return (def.voices ?? []).filter((v) => modelId === undefined || v.models.includes(modelId));
}
