import type { AudioFormat, JsonValue, ModelCatalogue, OptionSpec, SampleRate } from './catalogue.types';
import {
  findOption,
  isDialogueModel,
  optionAppliesToModel,
  optionDefaultAt,
  optionRule,
  optionValuesAt,
} from './catalogue.queries';
import { listOf, quoted, refuse } from './settings.messages';
import { checkFields, checkJson, checkScalar, isPlainObject } from './settings.values';
import type { OptionRule, VendorDefinition } from './vendor-definition.types';

/** The settings an option is checked against, resolved before the options. */
export interface OptionContext {
  readonly def: VendorDefinition;
  readonly model: ModelCatalogue;
  readonly format: AudioFormat;
  readonly sampleRate: SampleRate;
  readonly voice: string;
}

/**
 * The vendor options as the vendor will receive them, in catalogue order: every option the client set,
 * checked against its Option entry and rule; every option it left out (or set to null) that has a
 * non-null catalogue default at this sample rate, filled in, so that leaving an option out and sending its
 * default give equal settings. An option the vendor ignores for this model (`outsideModels: 'ignore'`) and
 * an option that does not apply to the model or format and was left out do not appear.
 *
 * Refused (`bad_request` naming the option): a name outside the vendor's catalogue, null for an option that
 * is not nullable, an option for another model or another format, a value of the wrong type, outside its
 * range or value list (the list at this sample rate where it depends on the rate), an object or array that
 * breaks its field rules, and an option set without the options it requires.
 */
export function resolveOptions(
  ctx: OptionContext,
  given: Readonly<Record<string, unknown>>,
): Record<string, JsonValue> {
  const { def } = ctx;
  if (!isPlainObject(given)) refuse('options must be an object');
  const sent = new Map<string, JsonValue>();

  for (const name of Object.keys(given)) {
    const option = findOption(def, name);
    if (!option) refuse(unknownOptionMessage(def, name));
    const value = given[name];
    if (value === undefined) continue;
    if (value === null) {
      // Null asks for the vendor's own behaviour, the same as leaving the option out.
      if (!option.nullable) refuse(`${name} must not be null`);
      continue;
    }
    const rule = optionRule(def, name);
    const applies = optionAppliesToModel(option, ctx.model.id);
    if (!applies && rule.outsideModels !== 'ignore') {
      const models = option.models ?? [];
      const which = models.length === 1 ? `model ${models[0]}` : `models ${listOf(models)}`;
      refuse(`${name} applies only to ${def.id} ${which}, not to ${ctx.model.id}`);
    }
    if (rule.formats && !rule.formats.includes(ctx.format)) {
      refuse(`${name} applies only to ${listOf(rule.formats)} audio, not to ${ctx.format}`);
    }
    const checked = checkOptionValue(ctx, option, rule, value);
    if (applies) sent.set(name, checked);
  }

  checkRequires(def, sent);
  checkVoiceReplacement(ctx, sent);

  const options: Record<string, JsonValue> = {};
  for (const option of def.catalogue.options) {
    const value = sent.get(option.name) ?? defaultFor(ctx, option);
    if (value !== null) options[option.name] = value;
  }
  return options;
}

/** The option's default as the vendor applies it here, or null when none is sent. */
function defaultFor(ctx: OptionContext, option: OptionSpec): JsonValue {
  const rule = optionRule(ctx.def, option.name);
  if (!optionAppliesToModel(option, ctx.model.id)) return null;
  if (rule.formats && !rule.formats.includes(ctx.format)) return null;
  return optionDefaultAt(ctx.def, option.name, ctx.sampleRate) ?? null;
}

function unknownOptionMessage(def: VendorDefinition, name: string): string {
  const known = def.catalogue.options.map((o) => o.name);
  const hint = known.length === 0 ? `${def.id} takes no options` : `its options are ${listOf(known)}`;
  return `unknown option ${quoted(name)} for ${def.id}; ${hint}`;
}

function checkOptionValue(
  ctx: OptionContext,
  option: OptionSpec,
  rule: OptionRule,
  value: unknown,
): JsonValue {
  const { def } = ctx;
  const name = option.name;
  switch (option.type) {
    case 'number':
    case 'integer':
    case 'boolean':
      return checkScalar(name, { ...option, type: option.type }, value, ` for ${def.id}`);
    case 'string': {
      const byRate = rule.valuesBySampleRate?.[ctx.sampleRate] !== undefined;
      const values = optionValuesAt(def, name, ctx.sampleRate);
      const context = byRate ? ` at ${ctx.sampleRate} Hz for ${def.id} ${ctx.format}` : ` for ${def.id}`;
      return checkScalar(name, { type: 'string', values }, value, context);
    }
    case 'object':
      return checkObjectOption(ctx, option, rule, value);
    case 'array':
      return checkArrayOption(name, rule, value);
  }
}

function checkObjectOption(
  ctx: OptionContext,
  option: OptionSpec,
  rule: OptionRule,
  value: unknown,
): JsonValue {
  const name = option.name;
  if (rule.fields) {
    const dialogue = isDialogueModel(ctx.def, ctx.model.id) && rule.dialogueFields !== undefined;
    const allowed = dialogue
      ? { names: rule.dialogueFields ?? [], why: `with dialogue model ${ctx.model.id}` }
      : undefined;
    return checkFields(name, rule.fields, value, allowed);
  }
  if (rule.entries !== undefined || rule.replacesVoice) return checkVoiceEntries(ctx, name, rule, value);
  if (!isPlainObject(value)) refuse(`${name} must be an object`);
  return checkJson(name, value);
}

/** An object of free names each mapped to a voice (vendor_j `speakers`). */
function checkVoiceEntries(ctx: OptionContext, name: string, rule: OptionRule, value: unknown): JsonValue {
  if (!isPlainObject(value)) refuse(`${name} must be an object of names, each with a voice`);
  const keys = Object.keys(value);
  if (rule.entries !== undefined && keys.length !== rule.entries) {
    refuse(`${name} must name exactly ${rule.entries} entries, each with a voice (it has ${keys.length})`);
  }
  const entries: [string, JsonValue][] = [];
  for (const key of keys) {
    if (key.trim() === '') refuse(`${name} has an empty name`);
    const voice = value[key];
    if (typeof voice !== 'string' || voice === '') refuse(`${name}.${key} must be a voice id`);
    const voices = ctx.model.voices;
    if (voices && !voices.includes(voice)) {
      refuse(`${name}.${key}: voice ${quoted(voice)} does not belong to model ${ctx.model.id}`);
    }
    entries.push([key, voice]);
  }
  // fromEntries defines own properties, so a name such as `__proto__` stays a plain key.
  return Object.fromEntries(entries);
}

function checkArrayOption(name: string, rule: OptionRule, value: unknown): JsonValue {
  if (!Array.isArray(value)) refuse(`${name} must be an array`);
  if (rule.maxItems !== undefined && value.length > rule.maxItems) {
    refuse(`${name} takes at most ${rule.maxItems} items (it has ${value.length})`);
  }
  const fields = rule.fields;
  return value.map((item, i) =>
    fields ? checkFields(`${name}[${i}]`, fields, item) : checkJson(`${name}[${i}]`, item),
  );
}

/** Every option that is set has the options it requires set too (vendor_j `speakers` and `speaker`). */
function checkRequires(def: VendorDefinition, sent: ReadonlyMap<string, JsonValue>): void {
  for (const name of sent.keys()) {
    for (const required of optionRule(def, name).requires ?? []) {
      if (!sent.has(required)) refuse(`${name} requires ${required}`);
    }
  }
}

/**
 * Where an option replaces the top-level voice (vendor_j `speakers`), the string option it requires names
 * the entry that voices the request (`speaker`), and `voice` must be that entry's voice: the settings then
 * say which voice speaks, and two requests the vendor would hear alike give equal settings.
 */
function checkVoiceReplacement(ctx: OptionContext, sent: ReadonlyMap<string, JsonValue>): void {
  for (const [name, value] of sent) {
    const rule = optionRule(ctx.def, name);
    if (!rule.replacesVoice || !isPlainObject(value)) continue;
    const selector = (rule.requires ?? []).find((r) => findOption(ctx.def, r)?.type === 'string');
    if (selector === undefined) continue;
    const chosen = sent.get(selector);
    if (typeof chosen !== 'string') continue;
    if (!Object.hasOwn(value, chosen)) {
      refuse(`${selector} ${quoted(chosen)} is not one of the ${name} names (${listOf(Object.keys(value))})`);
    }
    // checkVoiceEntries made every entry a voice id string.
    const voice = value[chosen] as string;
    if (voice !== ctx.voice) {
      refuse(
        `voice must be ${quoted(voice)}, the voice of ${selector} ${quoted(chosen)}, when ${name} is set`,
      );
    }
  }
}
