import {
  SAMPLE_RATES,
  defaultLanguageOf,
  optionAppliesToModel,
  optionDefaultAt,
  optionRule,
  type AudioFormat,
  type JsonValue,
  type OptionSpec,
  type SampleRate,
  type VendorDefinition,
  type VendorId,
} from '@router/vendors-core';
import { canonicalJson, canonicalValue } from './canonical-json';

/**
 * The vendor-native settings of one piece, whichever surface it came from (native HTTP, `/v1/stream`, a
 * vendor WebSocket drop-in): every surface that would send the vendor the same request must produce the
 * same settings, so that they share cache entries. Already validated against the catalogue; this layer
 * neither refuses nor corrects anything.
 */
export interface SynthesisSettings {
  readonly vendor: VendorId;
  readonly model: string;
  readonly voice: string;
  /** Left out or null: the vendor's default language where it has one, else none. */
  readonly language?: string | null;
  /** Left out or null: the vendor's default speed (`speedDefault`), which may be none. */
  readonly speed?: number | null;
  readonly sampleRate: number;
  readonly format: AudioFormat;
  /** Vendor options by catalogue name; a name left out (or `undefined`) means the catalogue default. */
  readonly options?: Readonly<Record<string, JsonValue | undefined>>;
}

declare const canonicalBrand: unique symbol;

/**
 * Settings in the one form the cache key is computed from. Only `canonicalSettings` makes them (the brand
 * exists in types only), so a key can never be computed from settings whose defaults were not filled in.
 * A plain JSON object at run time: it can be sent over the bus and re-canonicalised on the other side
 * (`canonicalSettings` is idempotent).
 */
export interface CanonicalSettings {
  readonly vendor: VendorId;
  readonly model: string;
  readonly voice: string;
  readonly language: string | null;
  readonly speed: number | null;
  readonly sampleRate: number;
  readonly format: AudioFormat;
  /** Sorted by name, nested object keys sorted too. */
  readonly options: { readonly [name: string]: JsonValue };
  readonly [canonicalBrand]: true;
}

/**
 * The canonical form of one piece's settings (ARCHITECTURE "The cache key"; spec "What is cached"):
 *
 * - language: left out means the vendor's default (`en` for vendor_h and vendor_i); always null for a
 *   vendor that takes no language, since none reaches it.
 * - speed: left out means the vendor's `speedDefault` (null where none is sent).
 * - options: every option that applies to the model appears, with its catalogue default (the per-rate
 *   default where the catalogue has one) when left out, so leaving an option out and sending its default
 *   are one form. An option restricted to other formats (e.g. a bitrate with pcm) is left out while at its
 *   default, because the vendor never receives it then. An option the vendor ignores outside its models
 *   (`outsideModels: 'ignore'`) is dropped there, as the router drops it before the call. Anything else a
 *   caller set is kept as sent (an option for another model, a name outside the catalogue): the vendor
 *   would receive it, so it must not merge with a request that lacks it.
 * - numbers are normalised (`-0` is `0`), object keys sorted at every depth, `undefined` left out.
 *
 * Case and punctuation of every string are kept. Throws when `settings.vendor` is not `def`'s vendor or a
 * number is not finite.
 */
export function canonicalSettings(def: VendorDefinition, settings: SynthesisSettings): CanonicalSettings {
  if (settings.vendor !== def.id) {
    throw new Error(`canonicalSettings: settings for ${settings.vendor} given ${def.id}'s definition`);
  }
  const speed = settings.speed ?? def.speedDefault;
  const canonical = {
    vendor: def.id,
    model: settings.model,
    voice: settings.voice,
    language: def.language === 'none' ? null : (settings.language ?? defaultLanguageOf(def)),
    speed: speed === null ? null : finiteNumber(speed, 'speed') + 0,
    sampleRate: finiteNumber(settings.sampleRate, 'sampleRate') + 0,
    format: settings.format,
    options: canonicalOptions(def, settings),
  };
  return canonical as CanonicalSettings;
}

function canonicalOptions(def: VendorDefinition, settings: SynthesisSettings): Record<string, JsonValue> {
  const given = settings.options ?? {};
  const sent = (name: string): JsonValue | undefined =>
    Object.hasOwn(given, name) ? given[name] : undefined;
  const entries: [string, JsonValue][] = [];

  for (const option of def.catalogue.options) {
    const value = sent(option.name);
    const rule = optionRule(def, option.name);
    const fallback = defaultOf(def, option, settings.sampleRate);
    if (value !== undefined && canonicalJson(value) !== canonicalJson(fallback)) {
      // A value the vendor's rules say is ignored never reaches it; any other non-default value does.
      const ignored = !optionAppliesToModel(option, settings.model) && rule.outsideModels === 'ignore';
      if (!ignored) entries.push([option.name, value]);
      continue;
    }
    const reachesVendor =
      optionAppliesToModel(option, settings.model) &&
      (rule.formats === undefined || rule.formats.includes(settings.format));
    if (reachesVendor) entries.push([option.name, fallback]);
  }

  const known = new Set(def.catalogue.options.map((o) => o.name));
  for (const [name, value] of Object.entries(given)) {
    if (!known.has(name) && value !== undefined) entries.push([name, value]);
  }

  const options = canonicalValue(Object.fromEntries(entries));
  return options as Record<string, JsonValue>;
}

function defaultOf(def: VendorDefinition, option: OptionSpec, rate: number): JsonValue {
  if (!isSampleRate(rate)) return option.default;
  return optionDefaultAt(def, option.name, rate) ?? option.default;
}

function isSampleRate(rate: number): rate is SampleRate {
  return (SAMPLE_RATES as readonly number[]).includes(rate);
}

function finiteNumber(value: number, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new TypeError(`canonicalSettings: ${field} must be a finite number`);
  }
  return value;
}
