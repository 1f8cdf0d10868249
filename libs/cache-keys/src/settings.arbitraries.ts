// Test-only (imported by the specs, never by index.ts): fast-check generators of valid-looking settings
// for any vendor definition, so the properties run over every vendor's real catalogue.
import fc from 'fast-check';
import {
  defaultLanguageOf,
  optionDefaultAt,
  optionRule,
  optionsForModel,
  sampleRatesFor,
  type JsonValue,
  type ModelCatalogue,
  type OptionField,
  type OptionSpec,
  type SampleRate,
  type VendorDefinition,
} from '@router/vendors-core';
import { canonicalJson } from './canonical-json';
import type { SynthesisSettings } from './canonical-settings';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function fieldArb(field: OptionField): fc.Arbitrary<JsonValue> {
  switch (field.type) {
    case 'number':
      return fc.double({ min: field.min ?? -10, max: field.max ?? 10, noNaN: true, noDefaultInfinity: true });
    case 'integer':
      return fc.integer({ min: field.min ?? -100, max: field.max ?? 100 });
    case 'boolean':
      return fc.boolean();
    case 'string':
      return field.values ? fc.constantFrom(...field.values) : fc.string({ maxLength: 8 });
  }
}

function fieldsRecordArb(fields: readonly OptionField[]): fc.Arbitrary<JsonValue> {
  const model = Object.fromEntries(
    fields.map((f) => [f.name, f.nullable ? fc.option(fieldArb(f), { nil: null }) : fieldArb(f)]),
  );
  const requiredKeys = fields.filter((f) => f.required).map((f) => f.name);
  return fc.record(model, { requiredKeys });
}

/** A non-null value of the option that validation would accept. */
export function optionValueArb(def: VendorDefinition, option: OptionSpec): fc.Arbitrary<JsonValue> {
  const rule = optionRule(def, option.name);
  switch (option.type) {
    case 'number':
      return fc.double({
        min: option.min ?? -10,
        max: option.max ?? 10,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'integer':
      return option.values
        ? fc.constantFrom(...option.values.map(Number))
        : fc.integer({ min: option.min ?? -1000, max: option.max ?? 1000 });
    case 'boolean':
      return fc.boolean();
    case 'string':
      return option.values ? fc.constantFrom(...option.values) : fc.string({ maxLength: 12 });
    case 'object':
      return rule.fields
        ? fieldsRecordArb(rule.fields)
        : fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.string({ maxLength: 6 }), {
            minKeys: rule.entries ?? 0,
            maxKeys: rule.entries ?? 3,
          });
    case 'array':
      return fc.array(rule.fields ? fieldsRecordArb(rule.fields) : fc.string({ maxLength: 6 }), {
        maxLength: rule.maxItems ?? 3,
      });
  }
}

/** Any value the option may be sent with: its default, null where nullable, or another valid value. */
export function optionSentArb(
  def: VendorDefinition,
  option: OptionSpec,
  rate: number,
): fc.Arbitrary<JsonValue> {
  const choices: fc.Arbitrary<JsonValue>[] = [
    fc.constant(optionDefaultFor(def, option, rate)),
    optionValueArb(def, option),
  ];
  if (option.nullable) choices.push(fc.constant(null));
  return fc.oneof(...choices);
}

export function optionDefaultFor(def: VendorDefinition, option: OptionSpec, rate: number): JsonValue {
  return optionDefaultAt(def, option.name, rate as SampleRate) ?? option.default;
}

export function voiceArb(model: ModelCatalogue): fc.Arbitrary<string> {
  return model.voices && model.voices.length > 0
    ? fc.constantFrom(...model.voices)
    : fc.string({ minLength: 1, maxLength: 10 });
}

export function languageArb(def: VendorDefinition, model: ModelCatalogue): fc.Arbitrary<string | null> {
  if (def.language === 'none' || model.languages.length === 0) return fc.constant(null);
  const code = fc.constantFrom(...model.languages);
  return def.language === 'required' ? code : fc.option(code, { nil: null });
}

export function speedArb(def: VendorDefinition): fc.Arbitrary<number | null> {
  const range = def.catalogue.speed;
  if (!range) return fc.constant(null);
  return fc.option(fc.double({ min: range.min, max: range.max, noNaN: true }), { nil: null });
}

/** Settings for one vendor, options each left out, at their default, null or another valid value. */
export function settingsArb(def: VendorDefinition): fc.Arbitrary<SynthesisSettings> {
  const combos = def.catalogue.models.flatMap((model) =>
    def.catalogue.formats.flatMap((format) =>
      sampleRatesFor(def, format, 'speech').map((sampleRate) => ({ model, format, sampleRate })),
    ),
  );
  return fc.constantFrom(...combos).chain(({ model, format, sampleRate }) => {
    const options = Object.fromEntries(
      optionsForModel(def, model.id).map((o) => [o.name, optionSentArb(def, o, sampleRate)]),
    );
    return fc.record({
      vendor: fc.constant(def.id),
      model: fc.constant(model.id),
      voice: voiceArb(model),
      language: languageArb(def, model),
      speed: speedArb(def),
      sampleRate: fc.constant(sampleRate),
      format: fc.constant(format),
      options: fc.record(options, { requiredKeys: [] }),
    });
  });
}

/** The language the vendor gets for these settings. */
export function effectiveLanguage(def: VendorDefinition, language: string | null | undefined): string | null {
  return def.language === 'none' ? null : (language ?? defaultLanguageOf(def));
}

/** The value the vendor gets for an option of these settings, as canonical JSON. */
export function effectiveOptionJson(def: VendorDefinition, s: SynthesisSettings, option: OptionSpec): string {
  const sent = s.options?.[option.name];
  return canonicalJson(sent === undefined ? optionDefaultFor(def, option, s.sampleRate) : sent);
}

/** The same settings with the options' keys (at every depth) in reverse order. */
export function withReversedKeys(s: SynthesisSettings): SynthesisSettings {
  const reverse = (v: JsonValue): JsonValue => {
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return (v as readonly JsonValue[]).map(reverse);
    const record = v as Readonly<Record<string, JsonValue>>;
    return Object.fromEntries(
      Object.keys(record)
        .reverse()
        .map((k) => [k, reverse(record[k])]),
    );
  };
  return { ...s, options: reverse((s.options ?? {}) as JsonValue) as Record<string, JsonValue> };
}

/** The same settings with every option sent explicitly (defaults filled) or, with `strip`, every default left out. */
export function withDefaults(def: VendorDefinition, s: SynthesisSettings, strip: boolean): SynthesisSettings {
  const options: Mutable<Record<string, JsonValue>> = {};
  for (const option of optionsForModel(def, s.model)) {
    const dflt = optionDefaultFor(def, option, s.sampleRate);
    const sent = s.options?.[option.name];
    if (strip) {
      if (sent !== undefined && canonicalJson(sent) !== canonicalJson(dflt)) options[option.name] = sent;
    } else {
      options[option.name] = sent === undefined ? dflt : sent;
    }
  }
  return { ...s, options };
}
