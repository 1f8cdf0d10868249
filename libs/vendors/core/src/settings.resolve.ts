import type { SynthSettings } from '@router/contracts';
import {
  CATALOGUE_FORMATS,
  RESPONSE_FORMATS,
  SAMPLE_RATES,
  type AudioFormat,
  type ModelCatalogue,
  type SampleRate,
} from './catalogue.types';
import {
  defaultLanguageOf,
  defaultSampleRateFor,
  findModel,
  sampleRatesFor,
  type RateSurface,
} from './catalogue.queries';
import { bound, oneOf, quoted, refuse } from './settings.messages';
import { resolveOptions, type SettingsMode } from './settings.options';
import type { VendorDefinition } from './vendor-definition.types';

/** Which surface the settings come from: its sample-rate list applies (`speech_sample_rates` or `sample_rates`). */
export type SettingsSurface = RateSurface;

/**
 * Synthesis settings as a client sends them, whichever surface they came from (the speech body's top-level
 * fields, the `/v1/stream` settings message). Left out and null mean the same: the default.
 */
export interface ClientSettings {
  /** Router model id without the vendor, e.g. `a_model_2`. */
  readonly model: string;
  readonly voice: string;
  readonly language?: string | null;
  readonly speed?: number | null;
  readonly sampleRate?: number | null;
  /** The `response_format`; left out it is `mp3` (spec: Native speech). */
  readonly format?: string | null;
  /** Vendor options by catalogue name. */
  readonly options: Readonly<Record<string, unknown>>;
}

/** The speech body's `response_format` default (spec: Native speech), the same on every surface. */
export const DEFAULT_RESPONSE_FORMAT: AudioFormat = 'mp3';

/**
 * Checks client settings against the vendor's catalogue entry and returns the canonical settings the vendor
 * will receive, with every default filled in: language (`en` where the vendor defaults to it), speed
 * (`speedDefault`), format (`mp3`), sample rate (the format's default, else 24000) and every option with a
 * non-null catalogue default. Equal requests therefore give equal settings however many defaults the client
 * spelt out. One validator for every surface; only the rate list differs (`surface`), and whose rules apply
 * (`mode`): the native surfaces' by default, or, for a mirror reading its vendor's own request, the vendor's
 * (`vendor`: unknown options and fields kept as sent, objects the vendor fills taken partial; see
 * `SettingsMode`). A mirror's wire fills the defaults of what the vendor names in its own terms (vendor_c's
 * `output_format` token) before it calls this; the catalogue's option defaults are the vendor's own.
 *
 * Throws `RouterError` `bad_request` naming the field or rule at the first problem. Checked in order: model,
 * voice, language, speed, response_format, sample_rate, options.
 */
export function resolveSettings(
  def: VendorDefinition,
  client: ClientSettings,
  surface: SettingsSurface,
  mode: SettingsMode = 'native',
): SynthSettings {
  const model = resolveModel(def, client.model);
  const voice = resolveVoice(model, client.voice);
  const language = resolveLanguage(def, model, client.language);
  const speed = resolveSpeed(def, client.speed);
  const format = resolveFormat(def, client.format);
  const sampleRate = resolveSampleRate(def, format, client.sampleRate, surface);
  const options = resolveOptions({ def, model, format, sampleRate, voice, mode }, client.options);
  return { vendor: def.id, model: model.id, voice, language, speed, sampleRate, format, options };
}

function resolveModel(def: VendorDefinition, modelId: unknown): ModelCatalogue {
  if (typeof modelId !== 'string' || modelId === '') refuse('model is required');
  const model = findModel(def, modelId);
  if (!model) {
    const ids = def.catalogue.models.map((m) => m.id);
    refuse(`model ${quoted(modelId)} is not a model of ${def.id}; use ${oneOf(ids)}`);
  }
  return model;
}

function resolveVoice(model: ModelCatalogue, voice: unknown): string {
  if (voice === undefined || voice === null || voice === '') refuse('voice is required');
  if (typeof voice !== 'string') refuse('voice must be a string');
  // A model without a voice list takes the vendor's live list, which only the vendor can check.
  if (model.voices && !model.voices.includes(voice)) {
    refuse(`voice ${quoted(voice)} does not belong to model ${model.id}`);
  }
  return voice;
}

function resolveLanguage(def: VendorDefinition, model: ModelCatalogue, language: unknown): string | null {
  if (language !== undefined && language !== null && typeof language !== 'string') {
    refuse('language must be a string or null');
  }
  if (language === '') refuse('language must not be empty');
  const given = language ?? null;
  if (def.language === 'none') {
    if (given !== null)
      refuse(`language is not a setting of ${def.id} (the vendor takes none); leave it out`);
    return null;
  }
  if (given === null) {
    if (def.language === 'required') {
      refuse(`language is required for ${def.id}; use ${oneOf(model.languages)}`);
    }
    return defaultLanguageOf(def);
  }
  if (!model.languages.includes(given)) {
    refuse(`language ${quoted(given)} is not available for model ${model.id}; use ${oneOf(model.languages)}`);
  }
  return given;
}

function resolveSpeed(def: VendorDefinition, speed: unknown): number | null {
  if (speed === undefined || speed === null) return def.speedDefault;
  const range = def.catalogue.speed;
  if (!range) {
    const instead = speedAlternative(def);
    refuse(`speed is not a setting of ${def.id}${instead ? `; use ${instead}` : ''}`);
  }
  if (typeof speed !== 'number' || !Number.isFinite(speed)) refuse('speed must be a number');
  if (speed < range.min || speed > range.max) {
    refuse(`speed must be between ${bound(range.min, false)} and ${bound(range.max, false)} for ${def.id}`);
  }
  return speed + 0;
}

/**
 * Where a vendor without a top-level speed takes one instead, read from its catalogue: a `speed` field of
 * an object option (vendor_c `voice_settings.speed`), else its free-text `instructions` (vendor_j).
 */
function speedAlternative(def: VendorDefinition): string | null {
  for (const option of def.catalogue.options) {
    const fields = def.optionRules[option.name]?.fields ?? [];
    if (option.type === 'object' && fields.some((f) => f.name === 'speed')) return `${option.name}.speed`;
  }
  return def.catalogue.options.some((o) => o.name === 'instructions') ? 'instructions' : null;
}

function resolveFormat(def: VendorDefinition, format: unknown): AudioFormat {
  const formats = def.catalogue.formats;
  if (format === undefined || format === null) {
    if (formats.includes(DEFAULT_RESPONSE_FORMAT)) return DEFAULT_RESPONSE_FORMAT;
    refuse(
      `response_format defaults to ${DEFAULT_RESPONSE_FORMAT}, which ${def.id} does not produce; ` +
        `set response_format to ${oneOf(formats)}`,
    );
  }
  if (typeof format !== 'string' || !(RESPONSE_FORMATS as readonly string[]).includes(format)) {
    refuse(`response_format must be ${oneOf(RESPONSE_FORMATS)}`);
  }
  if (!(CATALOGUE_FORMATS as readonly string[]).includes(format)) {
    refuse(
      `response_format ${format} is never available: no vendor's audio comes as ${format} without ` +
        `re-encoding; use ${oneOf(formats)} for ${def.id}`,
    );
  }
  if (!(formats as readonly string[]).includes(format)) {
    refuse(`response_format ${format} is not available for ${def.id}; use ${oneOf(formats)}`);
  }
  return format as AudioFormat;
}

function resolveSampleRate(
  def: VendorDefinition,
  format: AudioFormat,
  rate: unknown,
  surface: SettingsSurface,
): SampleRate {
  const rates = sampleRatesFor(def, format, surface);
  if (rate === undefined || rate === null) {
    const fallback = defaultSampleRateFor(def, format, surface);
    if (fallback === null) refuse(`response_format ${format} has no sample rate for ${def.id} here`);
    return fallback;
  }
  if (typeof rate !== 'number' || !(SAMPLE_RATES as readonly number[]).includes(rate)) {
    refuse(`sample_rate must be ${oneOf(SAMPLE_RATES)}`);
  }
  if (!(rates as number[]).includes(rate)) {
    const speechOnly =
      surface === 'stream' && (sampleRatesFor(def, format, 'speech') as number[]).includes(rate);
    const where = speechOnly ? ' when streaming (only POST /v1/audio/speech offers it)' : '';
    refuse(`sample_rate ${rate} is not available for ${def.id} ${format}${where}; use ${oneOf(rates)}`);
  }
  return rate as SampleRate;
}
