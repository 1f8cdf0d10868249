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
import { checkFields, checkJson, checkScalar, isPlainObject, type FieldLeniency } from './settings.values';
import type { OptionRule, VendorDefinition } from './vendor-definition.types';

/**
 * Whose rules settings are checked by: the native surfaces' (`native`: the spec's tables, strict) or the
 * vendor's own, for a mirror that must refuse only what its vendor refuses (`vendor`): unknown option names and
 * unknown fields of objects are kept as sent (they reach the vendor with the rest: its own request carries
 * them), an object the vendor fills (`OptionRule.vendorFillsFields`) may be partial and, with no field left, is
 * the option left out; wrong types, values out of range or outside their lists, a field the vendor's closed
 * list lacks (a dialogue model's) are refused as in `native`.
 */
export type SettingsMode = 'native' | 'vendor';

/** The settings an option is checked against, resolved before the options. */
export interface OptionContext {
  readonly def: VendorDefinition;
  readonly model: ModelCatalogue;
  readonly format: AudioFormat;
  readonly sampleRate: SampleRate;
  readonly voice: string;
  readonly mode: SettingsMode;
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
 * breaks its field rules, and an option set without the options it requires. In the `vendor` mode a name
 * outside the catalogue is kept as sent, after the catalogue's options, and objects are read as the vendor
 * reads them (see `SettingsMode`).
 */
export function resolveOptions(
  ctx: OptionContext,
  given: Readonly<Record<string, unknown>>,
): Record<string, JsonValue> {
  const { def } = ctx;
  if (!isPlainObject(given)) refuse('options must be an object');
  const sent = new Map<string, JsonValue>();
  const unknown: [string, JsonValue][] = [];

  for (const name of Object.keys(given)) {
    const option = findOption(def, name);
    const value = given[name];
    if (!option) {
      if (ctx.mode !== 'vendor') refuse(unknownOptionMessage(def, name));
      // A field the router has no setting for, which the vendor reads: it goes to the vendor as sent.
      if (value !== undefined) unknown.push([name, checkJson(name, value)]);
      continue;
    }
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
    // An object with every field left to the vendor is the option left out: the vendor fills it whole.
    const filledWhole = rule.vendorFillsFields && isPlainObject(checked) && Object.keys(checked).length === 0;
    if (applies && !(ctx.mode === 'vendor' && filledWhole)) sent.set(name, checked);
  }

  checkRequires(def, sent);
  checkVoiceReplacement(ctx, sent);

  const options: Record<string, JsonValue> = {};
  for (const option of def.catalogue.options) {
    const value = sent.get(option.name) ?? defaultFor(ctx, option);
    if (value !== null) options[option.name] = value;
  }
  // fromEntries defines own properties, so a client name such as `__proto__` stays a plain key.
  return { ...options, ...Object.fromEntries(unknown) };
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
      return checkArrayOption(name, rule, value, leniency(ctx, rule));
  }
}

/** How an object's fields are checked in this mode, for an option with this rule. */
function leniency(ctx: OptionContext, rule: OptionRule): FieldLeniency {
  const vendor = ctx.mode === 'vendor';
  return { keepUnknown: vendor, vendorFills: vendor && rule.vendorFillsFields === true };
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
    return checkFields(name, rule.fields, value, allowed, leniency(ctx, rule));
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

function checkArrayOption(name: string, rule: OptionRule, value: unknown, lenient: FieldLeniency): JsonValue {
  if (!Array.isArray(value)) refuse(`${name} must be an array`);
  if (rule.maxItems !== undefined && value.length > rule.maxItems) {
    refuse(`${name} takes at most ${rule.maxItems} items (it has ${value.length})`);
  }
  const fields = rule.fields;
  return value.map((item, i) =>
    fields
      ? checkFields(`${name}[${i}]`, fields, item, undefined, lenient)
      : checkJson(`${name}[${i}]`, item),
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
