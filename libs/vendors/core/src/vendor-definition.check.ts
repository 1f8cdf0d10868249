import {
  CATALOGUE_FORMATS,
  OPTION_TYPES,
  SAMPLE_RATES,
  type JsonValue,
  type OptionSpec,
  type ProviderCatalogue,
  type SampleRate,
} from './catalogue.types';
import { UNSTATED_MAX_INPUT_CHARS } from './catalogue.builders';
import type { OptionRule, VendorDefinition } from './vendor-definition.types';
import { VENDOR_IDS } from './vendor-id';

/**
 * Every inconsistency in a vendor definition, as readable sentences; empty when the definition holds
 * together. A definition is data typed by hand, so the type checker alone cannot see a default outside its
 * range or an option restricted to a model that does not exist; this catches them when the vendor loads.
 */
export function checkVendorDefinition(def: VendorDefinition): string[] {
  const problems: string[] = [];
  const cat = def.catalogue;
  const where = `${def.id}`;

  if (!(VENDOR_IDS as readonly string[]).includes(def.id))
    problems.push(`${where}: id is not a vendor token`);
  if (cat.id !== def.id) problems.push(`${where}: catalogue.id is ${cat.id}`);
  if (cat.name.trim() === '') problems.push(`${where}: empty display name`);
  for (const url of [cat.docs_url, ...cat.models.map((m) => m.voices_url)]) {
    if (!isHttpsUrl(url)) problems.push(`${where}: ${url} is not an https URL`);
  }

  // Formats and rates.
  checkSubsetNoDuplicates(problems, `${where} formats`, cat.formats, CATALOGUE_FORMATS);
  checkSubsetNoDuplicates(problems, `${where} sample_rates`, cat.sample_rates, SAMPLE_RATES);
  checkSubsetNoDuplicates(problems, `${where} speech_sample_rates`, cat.speech_sample_rates, SAMPLE_RATES);
  if (cat.formats.length === 0) problems.push(`${where}: no formats`);
  if (cat.sample_rates.length === 0) problems.push(`${where}: no sample_rates`);
  for (const rate of cat.sample_rates) {
    if (!cat.speech_sample_rates.includes(rate)) {
      problems.push(`${where}: streaming rate ${rate} missing from speech_sample_rates`);
    }
  }
  checkAscending(problems, `${where} sample_rates`, cat.sample_rates);
  checkAscending(problems, `${where} speech_sample_rates`, cat.speech_sample_rates);
  for (const [format, rule] of Object.entries(def.formatRules)) {
    if (!(cat.formats as readonly string[]).includes(format)) {
      problems.push(`${where}: format rule for ${format}, which the vendor does not list`);
    }
    for (const rate of rule?.sampleRates ?? []) {
      if (!cat.speech_sample_rates.includes(rate))
        problems.push(`${where}: ${format} rate ${rate} not offered`);
    }
    const fallback = rule?.defaultSampleRate;
    if (fallback !== undefined && rule?.sampleRates && !rule.sampleRates.includes(fallback)) {
      problems.push(`${where}: ${format} default rate ${fallback} outside its rates`);
    }
  }

  // The splitter needs room for one character of two code units.
  if (!Number.isInteger(def.maxInputChars) || def.maxInputChars < 2) {
    problems.push(`${where}: maxInputChars ${def.maxInputChars} is not an integer of at least 2`);
  }

  // Speed.
  if (cat.speed) {
    const { min, max, default: dflt } = cat.speed;
    if (!(min > 0 && min < max)) problems.push(`${where}: speed range ${min}..${max} is not a range`);
    if (dflt !== undefined && (dflt < min || dflt > max))
      problems.push(`${where}: speed default outside range`);
    if (dflt !== undefined && def.speedDefault !== dflt)
      problems.push(`${where}: speedDefault differs from speed.default`);
    if (def.speedDefault !== null && (def.speedDefault < min || def.speedDefault > max)) {
      problems.push(`${where}: speedDefault outside range`);
    }
  } else if (def.speedDefault !== null) {
    problems.push(`${where}: speedDefault set without a speed range`);
  }

  // Models.
  const modelIds = cat.models.map((m) => m.id);
  if (modelIds.length === 0) problems.push(`${where}: no models`);
  checkNoDuplicates(problems, `${where} models`, modelIds);
  for (const model of cat.models) {
    checkNoDuplicates(problems, `${where} ${model.id} languages`, model.languages);
    if (def.language !== 'none' && model.languages.length === 0) {
      problems.push(`${where}: ${model.id} lists no languages although the vendor takes one`);
    }
    if (def.language === 'optional-default-en' && !model.languages.includes('en')) {
      problems.push(`${where}: ${model.id} defaults to en but does not list it`);
    }
    if (model.voices) {
      checkNoDuplicates(problems, `${where} ${model.id} voices`, model.voices);
      if (model.voices.length === 0)
        problems.push(`${where}: ${model.id} has an empty voice list (use null)`);
    }
  }
  for (const modelId of Object.keys(def.modelTraits)) {
    if (!modelIds.includes(modelId)) problems.push(`${where}: traits for unknown model ${modelId}`);
  }

  // Catalogue voices agree with the models' voice lists.
  if (def.voices) {
    checkNoDuplicates(
      problems,
      `${where} catalogue voices`,
      def.voices.map((v) => v.id),
    );
    for (const voice of def.voices) {
      const languages = new Set<string>();
      for (const modelId of voice.models) {
        const model = cat.models.find((m) => m.id === modelId);
        if (!model) {
          problems.push(`${where}: voice ${voice.id} names unknown model ${modelId}`);
          continue;
        }
        model.languages.forEach((l) => languages.add(l));
      }
      if (voice.models.length === 0) problems.push(`${where}: voice ${voice.id} works with no model`);
      for (const language of voice.languages) {
        if (!languages.has(language))
          problems.push(`${where}: voice ${voice.id} language ${language} not in its models`);
      }
    }
    for (const model of cat.models) {
      if (!model.voices) continue;
      const fromVoices = def.voices.filter((v) => v.models.includes(model.id)).map((v) => v.id);
      if (fromVoices.join('\n') !== model.voices.join('\n')) {
        problems.push(`${where}: ${model.id} voice list disagrees with the catalogue voices`);
      }
    }
  } else {
    for (const model of cat.models) {
      if (model.voices)
        problems.push(`${where}: ${model.id} lists voices but the vendor has no catalogue voices`);
    }
  }

  // Options.
  const optionNames = cat.options.map((o) => o.name);
  checkNoDuplicates(problems, `${where} options`, optionNames);
  for (const option of cat.options) {
    problems.push(...checkOption(where, option, modelIds));
  }
  for (const [name, rule] of Object.entries(def.optionRules)) {
    const option = cat.options.find((o) => o.name === name);
    if (!option) {
      problems.push(`${where}: rule for unknown option ${name}`);
      continue;
    }
    problems.push(...checkOptionRule(def, option, rule));
  }
  return problems;
}

/**
 * A catalogue entry as a vendor folder writes it: `speech_sample_rates` left out where the speech endpoint takes
 * the streams' rates (`sample_rates`), as it does but for a vendor whose one-shot endpoint takes more.
 */
export type CatalogueDeclaration = Omit<ProviderCatalogue, 'speech_sample_rates'> &
  Partial<Pick<ProviderCatalogue, 'speech_sample_rates'>>;

/**
 * A definition as a vendor folder writes it: format rules, option rules and model traits left out where it has
 * none, the input limit where the vendor states none (`UNSTATED_MAX_INPUT_CHARS`), and its catalogue's speech
 * rates where they are its streams' (`CatalogueDeclaration`).
 */
export type VendorDeclaration = Omit<
  VendorDefinition,
  'catalogue' | 'formatRules' | 'optionRules' | 'modelTraits' | 'maxInputChars'
> & { readonly catalogue: CatalogueDeclaration } & Partial<
    Pick<VendorDefinition, 'formatRules' | 'optionRules' | 'modelTraits' | 'maxInputChars'>
  >;

/** The catalogue entry of a declared one, in the public order, its speech rates filled. */
function catalogueOf(declared: CatalogueDeclaration): ProviderCatalogue {
  const { speech_sample_rates: speech, speed, ...head } = declared;
  return { ...head, speech_sample_rates: speech ?? declared.sample_rates, speed };
}

/**
 * The definition itself, deep-frozen, once it passes `checkVendorDefinition`; throws listing every problem.
 * Deliberately not generic, so an object literal passed here gets excess-property checks: a misspelt or
 * extra field in a catalogue entry is a compile error rather than a silent addition to the public JSON.
 */
export function defineVendor(declared: VendorDeclaration): VendorDefinition {
  // Field by field, in the definition's order, so a definition reads (and serialises) as if written whole.
  const def: VendorDefinition = {
    id: declared.id,
    catalogue: catalogueOf(declared.catalogue),
    language: declared.language,
    speedDefault: declared.speedDefault,
    formatRules: declared.formatRules ?? {},
    optionRules: declared.optionRules ?? {},
    modelTraits: declared.modelTraits ?? {},
    voices: declared.voices,
    splitter: declared.splitter,
    maxInputChars: declared.maxInputChars ?? UNSTATED_MAX_INPUT_CHARS,
    unspeakable: declared.unspeakable,
    wordTimings: declared.wordTimings,
    finishesTakeOnInterrupt: declared.finishesTakeOnInterrupt,
  };
  const problems = checkVendorDefinition(def);
  if (problems.length > 0) {
    throw new Error(`Inconsistent vendor definition:\n- ${problems.join('\n- ')}`);
  }
  return deepFreeze(def);
}

function checkOption(vendor: string, option: OptionSpec, modelIds: readonly string[]): string[] {
  const problems: string[] = [];
  const where = `${vendor} option ${option.name}`;
  if (!/^[a-z][a-z0-9_]*$/.test(option.name)) problems.push(`${where}: name is not snake_case`);
  if (!(OPTION_TYPES as readonly string[]).includes(option.type)) problems.push(`${where}: unknown type`);
  if (option.description.trim() === '') problems.push(`${where}: empty description`);
  if (!option.nullable && option.default === null)
    problems.push(`${where}: not nullable but defaults to null`);
  const numeric = option.type === 'number' || option.type === 'integer';
  if (!numeric && (option.min !== null || option.max !== null))
    problems.push(`${where}: range on a non-number`);
  if (option.min !== null && option.max !== null && option.min >= option.max)
    problems.push(`${where}: empty range`);
  if (option.values !== null) {
    if (option.type !== 'string' && option.type !== 'integer')
      problems.push(`${where}: values on a ${option.type}`);
    if (option.values.length === 0) problems.push(`${where}: empty value list (use null)`);
    checkNoDuplicates(problems, `${where} values`, option.values);
    if (option.type === 'integer' && option.values.some((v) => !/^-?\d+$/.test(v))) {
      problems.push(`${where}: integer values must be written as integers`);
    }
  }
  if (option.models !== null) {
    if (option.models.length === 0) problems.push(`${where}: empty model list (use null)`);
    for (const modelId of option.models) {
      if (!modelIds.includes(modelId)) problems.push(`${where}: unknown model ${modelId}`);
    }
  }
  if (option.default !== null) {
    const problem = valueProblem(option, option.default);
    if (problem) problems.push(`${where}: default ${problem}`);
  }
  return problems;
}

function checkOptionRule(def: VendorDefinition, option: OptionSpec, rule: OptionRule): string[] {
  const problems: string[] = [];
  const where = `${def.id} option ${option.name} rule`;
  for (const format of rule.formats ?? []) {
    if (!def.catalogue.formats.includes(format)) problems.push(`${where}: format ${format} not offered`);
  }
  if (rule.outsideModels === 'ignore' && option.models === null) {
    problems.push(`${where}: ignored outside its models, but it applies to every model`);
  }
  for (const [rate, values] of Object.entries(rule.valuesBySampleRate ?? {})) {
    if (!def.catalogue.speech_sample_rates.includes(Number(rate) as SampleRate)) {
      problems.push(`${where}: values for rate ${rate}, which the vendor does not offer`);
    }
    for (const value of values ?? []) {
      if (option.values && !option.values.includes(value))
        problems.push(`${where}: ${value} at ${rate} Hz not a value`);
    }
  }
  for (const [rate, value] of Object.entries(rule.defaultBySampleRate ?? {})) {
    const allowed = rule.valuesBySampleRate?.[Number(rate) as SampleRate];
    if (value !== undefined && allowed && !allowed.includes(value)) {
      problems.push(`${where}: default ${value} at ${rate} Hz not allowed there`);
    }
  }
  if (rule.fields && option.type !== 'object' && option.type !== 'array') {
    problems.push(`${where}: fields on a ${option.type}`);
  }
  const fieldNames = (rule.fields ?? []).map((f) => f.name);
  checkNoDuplicates(problems, `${where} fields`, fieldNames);
  for (const field of rule.fields ?? []) {
    if (field.min !== undefined && field.max !== undefined && field.min >= field.max) {
      problems.push(`${where}: field ${field.name} has an empty range`);
    }
  }
  if (rule.vendorFillsFields && (option.type !== 'object' || !rule.fields)) {
    problems.push(`${where}: vendorFillsFields on an option without object fields`);
  }
  for (const name of rule.dialogueFields ?? []) {
    if (!fieldNames.includes(name)) problems.push(`${where}: dialogue field ${name} is not a field`);
  }
  if (rule.maxItems !== undefined && option.type !== 'array')
    problems.push(`${where}: maxItems on a ${option.type}`);
  if (rule.entries !== undefined && option.type !== 'object')
    problems.push(`${where}: entries on a ${option.type}`);
  for (const name of rule.requires ?? []) {
    if (!def.catalogue.options.some((o) => o.name === name))
      problems.push(`${where}: requires unknown ${name}`);
  }
  return problems;
}

/** Why `value` is not a valid non-null value of `option`, or null when it is. */
function valueProblem(option: OptionSpec, value: JsonValue): string | null {
  switch (option.type) {
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'is not a number';
      if (option.type === 'integer' && !Number.isInteger(value)) return 'is not an integer';
      if (option.min !== null && value < option.min) return `${value} is below ${option.min}`;
      if (option.max !== null && value > option.max) return `${value} is above ${option.max}`;
      if (option.values && !option.values.includes(String(value))) return `${value} is not an allowed value`;
      return null;
    }
    case 'string':
      if (typeof value !== 'string') return 'is not a string';
      if (option.values && !option.values.includes(value)) return `${value} is not an allowed value`;
      return null;
    case 'boolean':
      return typeof value === 'boolean' ? null : 'is not a boolean';
    case 'object':
      return typeof value === 'object' && !Array.isArray(value) ? null : 'is not an object';
    case 'array':
      return Array.isArray(value) ? null : 'is not an array';
  }
}

function checkNoDuplicates(problems: string[], where: string, items: readonly (string | number)[]): void {
  const seen = new Set<string | number>();
  for (const item of items) {
    if (seen.has(item)) problems.push(`${where}: ${item} listed twice`);
    seen.add(item);
  }
}

function checkSubsetNoDuplicates<T extends string | number>(
  problems: string[],
  where: string,
  items: readonly T[],
  allowed: readonly T[],
): void {
  checkNoDuplicates(problems, where, items);
  for (const item of items) {
    if (!allowed.includes(item)) problems.push(`${where}: ${item} is not allowed`);
  }
}

function checkAscending(problems: string[], where: string, rates: readonly number[]): void {
  for (let i = 1; i < rates.length; i++) {
    if (rates[i] <= rates[i - 1]) problems.push(`${where}: not in ascending order`);
  }
}

function isHttpsUrl(value: string): boolean {
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
